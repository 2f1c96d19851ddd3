"""Convolution and pooling over NHWC images (`rt.nn.conv2d`, `max_pool2d`, `avg_pool2d`).

Each op's gradient is another op of this module, as in TensorFlow: `Conv2D`,
`Conv2DBackpropInput` and `Conv2DBackpropFilter` are each other's gradients; `AvgPool` and
`AvgPoolGrad`; `MaxPool`, `MaxPoolGrad` and `MaxPoolGradGrad` (runtime/gradients/rules/nn.py).
Windows are numpy strided views.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from runtime.core import errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor, unify_inputs
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value_as_shape
from runtime.ops.registry import register


def out_size(size, k, stride, padding):
    """(output size, padding before, padding after) of one spatial dim, as TensorFlow."""
    if padding == 'VALID':
        return (size - k) // stride + 1, 0, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + k - size, 0)
    return out, total // 2, total - total // 2


def _geometry(in_shape, kernel_hw, strides, padding):
    (_, h, w, _), (kh, kw) = in_shape, kernel_hw
    oh, top, bottom = out_size(h, kh, strides[1], padding)
    ow, left, right = out_size(w, kw, strides[2], padding)
    return (oh, ow), ((0, 0), (top, bottom), (left, right), (0, 0))


def _windows(x, kernel_hw, strides, pads, fill=0):
    """(N, OH, OW, C, kh, kw) views of the windows of padded `x`."""
    padded = np.pad(x, pads, constant_values=fill)
    view = sliding_window_view(padded, kernel_hw, axis=(1, 2))
    return view[:, ::strides[1], ::strides[2]], padded.shape


def _scatter_windows(values, padded_shape, pads, strides, kernel_hw, dtype):
    """The sum, over the kernel positions, of `values[..., i, j]` (N, OH, OW, C, kh, kw) put
    back at the input positions they were read from; padding cropped."""
    out = np.zeros(padded_shape, dtype)
    oh, ow = values.shape[1:3]
    for i in range(kernel_hw[0]):
        for j in range(kernel_hw[1]):
            out[:, i:i + strides[1] * oh:strides[1], j:j + strides[2] * ow:strides[2]] += \
                values[..., i, j]
    (_, _), (top, bottom), (left, right), _ = pads
    return out[:, top:padded_shape[1] - bottom, left:padded_shape[2] - right]


# ---- Conv2D and its two backprop ops -------------------------------------------------------------

def _conv2d_kernel(input, filter, strides, padding, data_format='NHWC',
                   dilations=(1, 1, 1, 1), use_cudnn_on_gpu=True, explicit_paddings=()):
    if input.shape[3] != filter.shape[2]:
        raise errors.InvalidArgumentError(
            message=f'input depth must equal the filter\'s in_channels: input has {input.shape[3]} '
                    f'channels, the filter expects {filter.shape[2]}')
    _, pads = _geometry(input.shape, filter.shape[:2], strides, padding)
    windows, _ = _windows(input, filter.shape[:2], strides, pads)
    return np.einsum('nhwcij,ijco->nhwo', windows, filter).astype(input.dtype)


def _backprop_input_kernel(input_sizes, filter, out_backprop, strides, padding,
                           data_format='NHWC', dilations=(1, 1, 1, 1), use_cudnn_on_gpu=True,
                           explicit_paddings=()):
    in_shape = tuple(int(d) for d in input_sizes)
    _, pads = _geometry(in_shape, filter.shape[:2], strides, padding)
    per_window = np.einsum('nhwo,ijco->nhwcij', out_backprop, filter)
    padded = tuple(d + a + b for d, (a, b) in zip(in_shape, pads))
    return _scatter_windows(per_window, padded, pads, strides, filter.shape[:2],
                            out_backprop.dtype)


def _backprop_filter_kernel(input, filter_sizes, out_backprop, strides, padding,
                            data_format='NHWC', dilations=(1, 1, 1, 1), use_cudnn_on_gpu=True,
                            explicit_paddings=()):
    kernel_hw = tuple(int(d) for d in filter_sizes[:2])
    _, pads = _geometry(input.shape, kernel_hw, strides, padding)
    windows, _ = _windows(input, kernel_hw, strides, pads)
    return np.einsum('nhwcij,nhwo->ijco', windows, out_backprop).astype(input.dtype)


def _conv2d_infer(inputs, attrs):
    x, f = inputs
    if x.shape.rank not in (None, 4) or f.shape.rank not in (None, 4):
        raise ValueError(f'conv2d needs a rank-4 input (NHWC) and a rank-4 filter (HWIO), got '
                         f'shapes {x.shape} and {f.shape}')
    if x.shape.rank is None or f.shape.rank is None:
        return [(x.dtype, TensorShape([None] * 4))]
    n, h, w, c = x.shape.as_list()
    kh, kw, ci, co = f.shape.as_list()
    if c is not None and ci is not None and c != ci:
        raise ValueError(f'conv2d: the input has {c} channels, the filter expects {ci}')
    strides, padding = attrs['strides'], attrs['padding']
    oh = None if h is None or kh is None else out_size(h, kh, strides[1], padding)[0]
    ow = None if w is None or kw is None else out_size(w, kw, strides[2], padding)[0]
    return [(x.dtype, TensorShape([n, oh, ow, co]))]


def _sizes_infer(sizes_index, dtype_index):
    def infer(inputs, attrs):
        sizes = constant_value_as_shape(inputs[sizes_index])  # the known dims
        dims = [None] * 4 if sizes.rank is None else sizes.as_list()
        return [(inputs[dtype_index].dtype, TensorShape(dims))]
    return infer


_CONV_DEFAULTS = {'data_format': 'NHWC', 'dilations': (1, 1, 1, 1), 'use_cudnn_on_gpu': True,
                  'explicit_paddings': ()}
CONV2D = register('Conv2D', _conv2d_kernel, _conv2d_infer, inputs=('input', 'filter'),
                  outputs=('output',), defaults=_CONV_DEFAULTS, convert_inputs=unify_inputs)
BACKPROP_INPUT = register('Conv2DBackpropInput', _backprop_input_kernel, _sizes_infer(0, 1),
                          inputs=('input_sizes', 'filter', 'out_backprop'), outputs=('output',),
                          type_attrs=(('T', 1),), defaults=_CONV_DEFAULTS)
BACKPROP_FILTER = register('Conv2DBackpropFilter', _backprop_filter_kernel, _sizes_infer(1, 0),
                           inputs=('input', 'filter_sizes', 'out_backprop'),
                           outputs=('output',), defaults=_CONV_DEFAULTS)


def spatial_form(value, name, spatial):
    """TensorFlow's full form of `strides`/`ksize`/`dilations` for `spatial` spatial dims: an
    int, or 1, `spatial` or `spatial` + 2 ints (1 for the batch and channel dims)."""
    values = [int(v) for v in np.ravel(value)]
    if len(values) == 1:
        values = values * spatial
    if len(values) == spatial:
        values = [1] + values + [1]
    if len(values) != spatial + 2 or values[0] != 1 or values[-1] != 1:
        raise ValueError(f'{name} must be an int or 1, {spatial} or {spatial + 2} ints (1 for '
                         f'the batch and channel dims), got {value!r}.')
    return tuple(values)


def _four(value, name):
    """The NHWC form (see `spatial_form`)."""
    return spatial_form(value, name, 2)


def _check(padding, data_format, dilations):
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID", got {padding!r}.')
    if data_format not in (None, 'NHWC'):
        raise ValueError(f'data_format {data_format!r} is not supported; use NHWC (channels '
                         f'last).')
    if dilations not in (None, 1) and _four(dilations, 'dilations') != (1, 1, 1, 1):
        raise ValueError('dilated convolutions are not supported.')


def conv2d(input, filters, strides, padding, data_format='NHWC', dilations=None, name=None):
    """2-D convolution of NHWC `input` with HWIO `filters` (op `Conv2D`); `padding` is "SAME"
    or "VALID"."""
    _check(padding, data_format, dilations)
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f'rt.nn.conv2d needs a floating-point input, got {x.dtype.name}.')
    return apply(CONV2D, (x, filters), {'strides': _four(strides, 'strides'),
                                        'padding': padding}, name=name)


# ---- pooling -------------------------------------------------------------------------------------

def _pool_geometry(shape, ksize, strides, padding):
    return _geometry(shape, ksize[1:3], strides, padding)


def _max_windows(input, ksize, strides, padding):
    _, pads = _pool_geometry(input.shape, ksize, strides, padding)
    windows, padded = _windows(input, ksize[1:3], strides, pads, fill=-np.inf)
    flat = windows.reshape(windows.shape[:4] + (-1,))
    return flat, flat.argmax(-1), pads, padded


def _max_pool_kernel(input, ksize, strides, padding, data_format='NHWC'):
    flat, _, _, _ = _max_windows(input, ksize, strides, padding)
    return flat.max(-1).astype(input.dtype)


def _max_pool_grad_kernel(orig_input, orig_output, grad, ksize, strides, padding,
                          data_format='NHWC'):
    flat, arg, pads, padded = _max_windows(orig_input, ksize, strides, padding)
    per_window = np.zeros(flat.shape, grad.dtype)
    np.put_along_axis(per_window, arg[..., None], grad[..., None], -1)
    per_window = per_window.reshape(flat.shape[:4] + tuple(ksize[1:3]))
    return _scatter_windows(per_window, padded, pads, strides, ksize[1:3], grad.dtype)


def _max_pool_grad_grad_kernel(orig_input, orig_output, grad, ksize, strides, padding,
                               data_format='NHWC'):
    _, arg, pads, _ = _max_windows(orig_input, ksize, strides, padding)
    grad_windows, _ = _windows(grad, ksize[1:3], strides, pads)
    flat = grad_windows.reshape(grad_windows.shape[:4] + (-1,))
    return np.take_along_axis(flat, arg[..., None], -1)[..., 0].astype(grad.dtype)


def _avg_pool_kernel(value, ksize, strides, padding, data_format='NHWC'):
    _, pads = _pool_geometry(value.shape, ksize, strides, padding)
    windows, _ = _windows(value, ksize[1:3], strides, pads)
    counts, _ = _windows(np.ones(value.shape[:3] + (1,), value.dtype), ksize[1:3], strides, pads)
    return (windows.sum((-2, -1)) / counts.sum((-2, -1))).astype(value.dtype)


def _avg_pool_grad_kernel(orig_input_shape, grad, ksize, strides, padding, data_format='NHWC'):
    shape = tuple(int(d) for d in orig_input_shape)
    _, pads = _pool_geometry(shape, ksize, strides, padding)
    counts, padded = _windows(np.ones(shape[:3] + (1,), grad.dtype), ksize[1:3], strides, pads)
    share = grad / counts.sum((-2, -1))  # each window's gradient spread over its real cells
    per_window = np.broadcast_to(share[..., None, None], share.shape + tuple(ksize[1:3]))
    padded_shape = tuple(d + a + b for d, (a, b) in zip(shape, pads))
    return _scatter_windows(per_window, padded_shape, pads, strides, ksize[1:3], grad.dtype)


def _pool_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 4):
        raise ValueError(f'pooling needs a rank-4 input (NHWC), got shape {x.shape}')
    if x.shape.rank is None:
        return [(x.dtype, TensorShape([None] * 4))]
    n, h, w, c = x.shape.as_list()
    ksize, strides, padding = attrs['ksize'], attrs['strides'], attrs['padding']
    oh = None if h is None else out_size(h, ksize[1], strides[1], padding)[0]
    ow = None if w is None else out_size(w, ksize[2], strides[2], padding)[0]
    return [(x.dtype, TensorShape([n, oh, ow, c]))]


_POOL_DEFAULTS = {'data_format': 'NHWC'}
MAX_POOL = register('MaxPool', _max_pool_kernel, _pool_infer, inputs=('input',),
                    outputs=('output',), defaults=_POOL_DEFAULTS)
MAX_POOL_GRAD = register('MaxPoolGrad', _max_pool_grad_kernel,
                         lambda inputs, attrs: [(inputs[2].dtype, inputs[0].shape)],
                         inputs=('orig_input', 'orig_output', 'grad'), outputs=('output',),
                         defaults=_POOL_DEFAULTS)
MAX_POOL_GRAD_GRAD = register('MaxPoolGradGrad', _max_pool_grad_grad_kernel,
                              lambda inputs, attrs: [(inputs[2].dtype, inputs[1].shape)],
                              inputs=('orig_input', 'orig_output', 'grad'),
                              outputs=('output',), defaults=_POOL_DEFAULTS)
AVG_POOL = register('AvgPool', _avg_pool_kernel, _pool_infer, inputs=('value',),
                    outputs=('output',), defaults=_POOL_DEFAULTS)
AVG_POOL_GRAD = register('AvgPoolGrad', _avg_pool_grad_kernel, _sizes_infer(0, 1),
                         inputs=('orig_input_shape', 'grad'), outputs=('output',),
                         type_attrs=(('T', 1),), defaults=_POOL_DEFAULTS)


def _pool(opdef, input, ksize, strides, padding, data_format, name):
    _check(padding, data_format, None)
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise TypeError(f'pooling needs a floating-point input, got {x.dtype.name}.')
    attrs = {'ksize': _four(ksize, 'ksize'), 'strides': _four(strides, 'strides'),
             'padding': padding}
    return apply(opdef, [x], attrs, name=name)


def max_pool2d(input, ksize, strides, padding, data_format='NHWC', name=None):
    """The maximum of each `ksize` window of an NHWC image (op `MaxPool`)."""
    return _pool(MAX_POOL, input, ksize, strides, padding, data_format, name)


def avg_pool2d(input, ksize, strides, padding, data_format='NHWC', name=None):
    """The mean of each `ksize` window of an NHWC image, padding not counted (op `AvgPool`)."""
    return _pool(AVG_POOL, input, ksize, strides, padding, data_format, name)

