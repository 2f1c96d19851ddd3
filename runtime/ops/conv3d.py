"""Convolution and pooling over NDHWC volumes (`rt.nn.conv3d`, `conv3d_transpose`,
`max_pool3d`, `avg_pool3d`).

As in TensorFlow, each op's gradient is another op of this module: `Conv3D`,
`Conv3DBackpropInputV2` and `Conv3DBackpropFilterV2` are each other's gradients; `AvgPool3D`
and `AvgPool3DGrad`; `MaxPool3D`, `MaxPool3DGrad` and `MaxPool3DGradGrad`
(runtime/gradients/rules/nn_more.py). Windows are numpy strided views over the three spatial
dims; the kernels work for any number of them.
"""
import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.array import cast
from runtime.ops.conv import out_size, spatial_form
from runtime.ops.convert import convert_to_tensor, unify_inputs
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value_as_shape
from runtime.ops.registry import register

SPATIAL = (1, 2, 3)
# TensorFlow's dtypes of the ops (bfloat16 aside): MaxPool3D and its gradient take no float64
FLOATS = frozenset({dtypes.float16, dtypes.float32, dtypes.float64})
HALF_AND_FLOAT = frozenset({dtypes.float16, dtypes.float32})


def geometry(shape, window, strides, padding):
    """(output sizes, numpy pad widths) of the spatial dims of an N...C `shape`."""
    sizes, pads = [], [(0, 0)]
    for k, axis in enumerate(range(1, len(shape) - 1)):
        size, before, after = out_size(shape[axis], window[k], strides[axis], padding)
        sizes.append(size)
        pads.append((before, after))
    return sizes, pads + [(0, 0)]


def windows_of(x, window, strides, pads, fill=0):
    """The windows of padded `x`: shape (N, *out, C, *window)."""
    padded = np.pad(x, pads, constant_values=fill)
    axes = tuple(range(1, x.ndim - 1))
    view = sliding_window_view(padded, tuple(window), axis=axes)
    index = (slice(None),) + tuple(slice(None, None, strides[a]) for a in axes)
    return view[index], padded.shape


def scatter_windows(values, padded_shape, pads, strides, window, dtype):
    """The sum over window positions of `values[..., *position]` (N, *out, C, *window) put back
    where they were read from, padding cropped."""
    out = np.zeros(padded_shape, dtype)
    n = len(window)
    outs = values.shape[1:1 + n]
    for position in itertools.product(*(range(w) for w in window)):
        index = (slice(None),) + tuple(
            slice(p, p + strides[1 + k] * outs[k], strides[1 + k])
            for k, p in enumerate(position))
        out[index] += values[(Ellipsis,) + position]
    crop = tuple(slice(a, size - b) for (a, b), size in zip(pads, padded_shape))
    return out[crop]


def _letters(n):
    return 'dhw'[:n] if n <= 3 else ''.join(chr(ord('p') + k) for k in range(n))


# ---- Conv3D and its two backprop ops ---------------------------------------------------------

def conv_kernel(input, filter, strides, padding, data_format='NDHWC',
                 dilations=(1, 1, 1, 1, 1)):
    if input.shape[-1] != filter.shape[-2]:
        raise errors.InvalidArgumentError(
            message=f'Input depth must be equal to filter depth: {input.shape[-1]} vs '
                    f'{filter.shape[-2]}')
    window = filter.shape[:-2]
    _, pads = geometry(input.shape, window, strides, padding)
    windows, _ = windows_of(input, window, strides, pads)
    s = _letters(len(window))
    k = s.upper()
    return np.einsum(f'n{s}c{k},{k}co->n{s}o', windows, filter).astype(input.dtype)


def backprop_input_kernel(input_sizes, filter, out_backprop, strides, padding,
                           data_format='NDHWC', dilations=(1, 1, 1, 1, 1)):
    shape = tuple(int(d) for d in input_sizes)
    window = filter.shape[:-2]
    _, pads = geometry(shape, window, strides, padding)
    s = _letters(len(window))
    k = s.upper()
    per_window = np.einsum(f'n{s}o,{k}co->n{s}c{k}', out_backprop, filter)
    padded = tuple(d + a + b for d, (a, b) in zip(shape, pads))
    return scatter_windows(per_window, padded, pads, strides, window, out_backprop.dtype)


def backprop_filter_kernel(input, filter_sizes, out_backprop, strides, padding,
                            data_format='NDHWC', dilations=(1, 1, 1, 1, 1)):
    window = tuple(int(d) for d in filter_sizes[:-2])
    _, pads = geometry(input.shape, window, strides, padding)
    windows, _ = windows_of(input, window, strides, pads)
    s = _letters(len(window))
    k = s.upper()
    return np.einsum(f'n{s}c{k},n{s}o->{k}co', windows, out_backprop).astype(input.dtype)


def _conv_infer(inputs, attrs):
    x, f = inputs
    if x.shape.rank not in (None, 5) or f.shape.rank not in (None, 5):
        raise ValueError(f'conv3d needs a rank-5 input (NDHWC) and a rank-5 filter (DHWIO), got '
                         f'shapes {x.shape} and {f.shape}')
    if x.shape.rank is None or f.shape.rank is None:
        return [(x.dtype, TensorShape([None] * 5))]
    dims, window = x.shape.as_list(), f.shape.as_list()
    if dims[4] is not None and window[3] is not None and dims[4] != window[3]:
        raise ValueError(f'Input depth must be equal to filter depth: {dims[4]} vs {window[3]}')
    return [(x.dtype, TensorShape(_out_dims(dims, window[:3], attrs) + [window[4]]))]


def _out_dims(dims, window, attrs):
    out = [dims[0]]
    for k, axis in enumerate(SPATIAL):
        if dims[axis] is None or window[k] is None:
            out.append(None)
            continue
        size = out_size(dims[axis], window[k], attrs['strides'][axis], attrs['padding'])[0]
        if size < 1 and dims[axis] > 0:
            raise ValueError(f'Computed output size would be negative: {size} [input_size: '
                             f'{dims[axis]}, effective_filter_size: {window[k]}, stride: '
                             f'{attrs["strides"][axis]}]')
        out.append(size)
    return out


def _sizes_infer(sizes_index, dtype_index):
    def infer(inputs, attrs):
        sizes = constant_value_as_shape(inputs[sizes_index])  # the known dims
        dims = [None] * 5 if sizes.rank is None else sizes.as_list()
        return [(inputs[dtype_index].dtype, TensorShape(dims))]
    return infer


_CONV_DEFAULTS = {'data_format': 'NDHWC', 'dilations': (1, 1, 1, 1, 1)}
CONV3D = register('Conv3D', conv_kernel, _conv_infer, inputs=('input', 'filter'),
                  outputs=('output',), defaults=_CONV_DEFAULTS, convert_inputs=unify_inputs,
                  dtypes=FLOATS)
BACKPROP_INPUT = register('Conv3DBackpropInputV2', backprop_input_kernel, _sizes_infer(0, 1),
                          inputs=('input_sizes', 'filter', 'out_backprop'), outputs=('output',),
                          type_attrs=(('T', 1),), defaults=_CONV_DEFAULTS,
                          dtypes=FLOATS)
BACKPROP_FILTER = register('Conv3DBackpropFilterV2', backprop_filter_kernel,
                           _sizes_infer(1, 0), inputs=('input', 'filter_sizes', 'out_backprop'),
                           outputs=('output',), defaults=_CONV_DEFAULTS, dtypes=FLOATS)


def _five(value, name):
    """The NDHWC form (see `spatial_form`)."""
    return spatial_form(value, name, 3)


def _check(padding, data_format, dilations):
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID", got {padding!r}.')
    if data_format not in (None, 'NDHWC'):
        raise ValueError(f'data_format {data_format!r} is not supported; use NDHWC (channels '
                         f'last).')
    if dilations is not None and _five(dilations, 'dilations') != (1, 1, 1, 1, 1):
        raise ValueError('dilated 3-D convolutions are not supported.')


def _floating(input, what):
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f'rt.nn.{what} needs a floating-point input, got {x.dtype.name}.')
    return x


def conv3d(input, filters, strides, padding, data_format='NDHWC', dilations=None, name=None):
    """3-D convolution of NDHWC `input` with DHWIO `filters` (op `Conv3D`)."""
    _check(padding, data_format, dilations)
    return apply(CONV3D, (_floating(input, 'conv3d'), filters),
                 {'strides': _five(strides, 'strides'), 'padding': padding}, name=name)


def conv3d_transpose(input, filters, output_shape, strides, padding='SAME',
                     data_format='NDHWC', dilations=None, name=None):
    """The transpose (gradient) of conv3d: `output_shape` from `input` with DHWOI `filters`
    (op `Conv3DBackpropInputV2`)."""
    _check(padding, data_format, dilations)
    x = _floating(input, 'conv3d_transpose')
    sizes = cast(convert_to_tensor(output_shape), 'int32')
    return apply(BACKPROP_INPUT, [sizes, convert_to_tensor(filters, x.dtype), x],
                 {'strides': _five(strides, 'strides'), 'padding': padding}, name=name)


# ---- pooling -----------------------------------------------------------------------------------

def _max_windows(input, ksize, strides, padding):
    """The windows' maxima, which cells of each window hold its maximum (every tied cell), the
    pad widths and the padded shape."""
    window = tuple(ksize[1:-1])
    _, pads = geometry(input.shape, window, strides, padding)
    windows, padded = windows_of(input, window, strides, pads, fill=-np.inf)
    axes = tuple(range(-len(window), 0))
    top = windows.max(axes)
    return top, windows == top[(Ellipsis,) + (None,) * len(window)], pads, padded


def _max_pool_kernel(input, ksize, strides, padding, data_format='NDHWC'):
    return _max_windows(input, ksize, strides, padding)[0].astype(input.dtype)


def _max_pool_grad_kernel(orig_input, orig_output, grad, ksize, strides, padding,
                          data_format='NDHWC'):
    """Each window's gradient to every cell that holds its maximum, as TensorFlow's CPU
    kernel."""
    _, is_max, pads, padded = _max_windows(orig_input, ksize, strides, padding)
    per_window = np.where(is_max, grad[(Ellipsis,) + (None,) * (is_max.ndim - grad.ndim)], 0)
    return scatter_windows(per_window.astype(grad.dtype), padded, pads, strides, ksize[1:-1],
                           grad.dtype)


def _max_pool_grad_grad_kernel(orig_input, orig_output, grad, ksize, strides, padding,
                               data_format='NDHWC'):
    _, is_max, pads, _ = _max_windows(orig_input, ksize, strides, padding)
    grad_windows, _ = windows_of(grad, ksize[1:-1], strides, pads)
    axes = tuple(range(-(len(ksize) - 2), 0))
    return np.where(is_max, grad_windows, 0).sum(axes).astype(grad.dtype)


def _avg_pool_kernel(input, ksize, strides, padding, data_format='NDHWC'):
    window = ksize[1:-1]
    _, pads = geometry(input.shape, window, strides, padding)
    windows, _ = windows_of(input, window, strides, pads)
    ones = np.ones(input.shape[:-1] + (1,), input.dtype)
    counts, _ = windows_of(ones, window, strides, pads)
    axes = tuple(range(-len(window), 0))
    return (windows.sum(axes) / counts.sum(axes)).astype(input.dtype)


def _avg_pool_grad_kernel(orig_input_shape, grad, ksize, strides, padding,
                          data_format='NDHWC'):
    shape = tuple(int(d) for d in orig_input_shape)
    window = tuple(ksize[1:-1])
    _, pads = geometry(shape, window, strides, padding)
    counts, padded = windows_of(np.ones(shape[:-1] + (1,), grad.dtype), window, strides, pads)
    share = grad / counts.sum(tuple(range(-len(window), 0)))
    per_window = np.broadcast_to(share[(Ellipsis,) + (None,) * len(window)],
                                 share.shape + window)
    padded_shape = tuple(d + a + b for d, (a, b) in zip(shape, pads))
    return scatter_windows(per_window, padded_shape, pads, strides, window, grad.dtype)


def _pool_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 5):
        raise ValueError(f'3-D pooling needs a rank-5 input (NDHWC), got shape {x.shape}')
    if x.shape.rank is None:
        return [(x.dtype, TensorShape([None] * 5))]
    dims = x.shape.as_list()
    return [(x.dtype, TensorShape(_out_dims(dims, attrs['ksize'][1:4], attrs) + [dims[4]]))]


_POOL_DEFAULTS = {'data_format': 'NDHWC'}
MAX_POOL3D = register('MaxPool3D', _max_pool_kernel, _pool_infer, inputs=('input',),
                      outputs=('output',), defaults=_POOL_DEFAULTS, dtypes=HALF_AND_FLOAT)
MAX_POOL3D_GRAD = register('MaxPool3DGrad', _max_pool_grad_kernel,
                           lambda inputs, attrs: [(inputs[2].dtype, inputs[0].shape)],
                           inputs=('orig_input', 'orig_output', 'grad'), outputs=('output',),
                           type_attrs=(('T', 2), ('TInput', 0)), defaults=_POOL_DEFAULTS,
                           dtypes=HALF_AND_FLOAT)
MAX_POOL3D_GRAD_GRAD = register('MaxPool3DGradGrad', _max_pool_grad_grad_kernel,
                                lambda inputs, attrs: [(inputs[2].dtype, inputs[1].shape)],
                                inputs=('orig_input', 'orig_output', 'grad'),
                                outputs=('output',), defaults=_POOL_DEFAULTS)
AVG_POOL3D = register('AvgPool3D', _avg_pool_kernel, _pool_infer, inputs=('input',),
                      outputs=('output',), defaults=_POOL_DEFAULTS, dtypes=FLOATS)
AVG_POOL3D_GRAD = register('AvgPool3DGrad', _avg_pool_grad_kernel, _sizes_infer(0, 1),
                           inputs=('orig_input_shape', 'grad'), outputs=('output',),
                           type_attrs=(('T', 1),), defaults=_POOL_DEFAULTS, dtypes=FLOATS)


def _pool(opdef, input, ksize, strides, padding, data_format, name, what):
    _check(padding, data_format, None)
    attrs = {'ksize': _five(ksize, 'ksize'), 'strides': _five(strides, 'strides'),
             'padding': padding}
    return apply(opdef, [_floating(input, what)], attrs, name=name)


def max_pool3d(input, ksize, strides, padding, data_format='NDHWC', name=None):
    """The maximum of each `ksize` window of an NDHWC volume (op `MaxPool3D`)."""
    return _pool(MAX_POOL3D, input, ksize, strides, padding, data_format, name, 'max_pool3d')


def avg_pool3d(input, ksize, strides, padding, data_format='NDHWC', name=None):
    """The mean of each `ksize` window of an NDHWC volume, padding not counted (op
    `AvgPool3D`)."""
    return _pool(AVG_POOL3D, input, ksize, strides, padding, data_format, name, 'avg_pool3d')
