"""TensorFlow's remaining top-level convolution ops: `conv` (op Conv, 2 or 3 spatial dims),
`conv2d_backprop_input_v2` / `conv2d_backprop_filter_v2` (Conv2DBackpropInputV2,
Conv2DBackpropFilterV2: the backprops given the tensor rather than its shape), and
`extract_volume_patches` (ExtractVolumePatches). None of the first three has a gradient in
TensorFlow; ExtractVolumePatches' is the transposed convolution with the one-hot filter that
picks each patch element (runtime/gradients/rules/nn_more.py).
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.conv import out_size
from runtime.ops.conv3d import (
    backprop_filter_kernel,
    backprop_input_kernel,
    conv_kernel,
    geometry,
    windows_of,
)
from runtime.ops.convert import convert_to_tensor, unify_inputs
from runtime.ops.dispatch import apply
from runtime.ops.registry import NUMERIC, register

FLOATS = frozenset({dtypes.float16, dtypes.float32, dtypes.float64})
REALS = frozenset(d for d in NUMERIC if not d.is_complex)


def _spatial_out(dims, window, strides, padding):
    return [None if d is None or k is None else out_size(d, k, s, padding)[0]
            for d, k, s in zip(dims, window, strides)]


def _check(padding, data_format, channels_last, dilations, explicit_paddings=()):
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID" here, got {padding!r} (explicit '
                         f'paddings are not supported).')
    if list(explicit_paddings or ()):
        raise ValueError('explicit_paddings are not supported.')
    if data_format != channels_last:
        raise ValueError(f'data_format {data_format!r} is not supported; use {channels_last} '
                         f'(channels last).')
    if dilations and any(int(d) != 1 for d in np.ravel(dilations)):
        raise ValueError('dilated convolutions are not supported.')


def _strides(strides, rank, name='strides'):
    values = [int(v) for v in np.ravel(strides)]
    if len(values) != rank or values[0] != 1 or values[-1] != 1:
        raise ValueError(f'{name} must have {rank} entries, 1 for the batch and channel dims, '
                         f'got {strides!r}.')
    return tuple(values)


# ---- Conv --------------------------------------------------------------------------------------

def _conv_op_kernel(input, filter, strides, padding, explicit_paddings=(),
                    data_format='CHANNELS_LAST', dilations=(), batch_dims=1, groups=1):
    if input.ndim not in (4, 5):  # as TensorFlow's kernel: 2 or 3 spatial dims
        raise errors.InvalidArgumentError(
            message=f'Conv input must be rank 4 or 5 (2 or 3 spatial dims), got rank '
                    f'{input.ndim}')
    return conv_kernel(input, filter, strides, padding)


def _conv_infer(inputs, attrs):
    x, f = inputs
    if x.shape.rank not in (None, 4, 5):
        raise ValueError(f'The input must have 2 or 3 spatial dimensions but got '
                         f'{x.shape.rank - 2}')
    if x.shape.rank is None or f.shape.rank is None:
        return [(x.dtype, TensorShape(None if x.shape.rank is None else [None] * x.shape.rank))]
    dims, window = x.shape.as_list(), f.shape.as_list()
    spatial = _spatial_out(dims[1:-1], window[:-2], attrs['strides'][1:-1], attrs['padding'])
    return [(x.dtype, TensorShape([dims[0]] + spatial + [window[-1]]))]


_CONV_DEFAULTS = {'explicit_paddings': (), 'data_format': 'CHANNELS_LAST', 'dilations': (),
                  'batch_dims': 1, 'groups': 1}
CONV = register('Conv', _conv_op_kernel, _conv_infer, inputs=('input', 'filter'),
                outputs=('output',), defaults=_CONV_DEFAULTS, convert_inputs=unify_inputs,
                dtypes=FLOATS | {dtypes.int32})


def conv(input, filter, strides, padding, explicit_paddings=(), data_format='CHANNELS_LAST',
         dilations=(), batch_dims=1, groups=1, name=None):
    """2-D or 3-D convolution of [batch, *spatial, channels] `input` with [*window, in, out]
    `filter` (op `Conv`); `strides` has N + 2 entries. One batch dim and one group, as
    TensorFlow's CPU kernel."""
    _check(padding, data_format, 'CHANNELS_LAST', dilations, explicit_paddings)
    if batch_dims != 1 or groups != 1:
        raise ValueError('conv supports batch_dims=1 and groups=1.')
    x = convert_to_tensor(input)
    f = convert_to_tensor(filter, x.dtype)
    if x.shape.rank is not None and f.shape.rank is not None and x.shape.rank != f.shape.rank:
        raise ValueError(f'input and filter must have the same rank, got {x.shape} and '
                         f'{f.shape}.')
    if x.shape.rank is not None and x.shape[-1] is not None and f.shape.rank is not None and \
            f.shape[-2] is not None and x.shape[-1] != f.shape[-2]:
        raise ValueError(f'Input depth must be equal to filter depth: {x.shape[-1]} vs '
                         f'{f.shape[-2]}')
    return apply(CONV, [x, f], {'strides': _strides(strides, x.shape.rank or len(
        np.ravel(strides))), 'padding': padding}, name=name)


# ---- Conv2DBackpropInputV2, Conv2DBackpropFilterV2 ---------------------------------------------

def _input_v2_kernel(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,
                     explicit_paddings=(), data_format='NHWC', dilations=(1, 1, 1, 1)):
    return backprop_input_kernel(input.shape, filter, out_backprop, strides, padding)


def _filter_v2_kernel(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,
                      explicit_paddings=(), data_format='NHWC', dilations=(1, 1, 1, 1)):
    return backprop_filter_kernel(input, filter.shape, out_backprop, strides, padding)


_V2_DEFAULTS = {'use_cudnn_on_gpu': True, 'explicit_paddings': (), 'data_format': 'NHWC',
                'dilations': (1, 1, 1, 1)}
CONV2D_BACKPROP_INPUT_V2 = register(
    'Conv2DBackpropInputV2', _input_v2_kernel,
    lambda inputs, attrs: [(inputs[2].dtype, inputs[0].shape)],
    inputs=('input', 'filter', 'out_backprop'), outputs=('output',), defaults=_V2_DEFAULTS,
    convert_inputs=unify_inputs, dtypes=FLOATS | {dtypes.int32})
CONV2D_BACKPROP_FILTER_V2 = register(
    'Conv2DBackpropFilterV2', _filter_v2_kernel,
    lambda inputs, attrs: [(inputs[2].dtype, inputs[1].shape)],
    inputs=('input', 'filter', 'out_backprop'), outputs=('output',), defaults=_V2_DEFAULTS,
    convert_inputs=unify_inputs, dtypes=FLOATS)


def _backprop_v2(opdef, input, filter, out_backprop, strides, padding, explicit_paddings,
                 data_format, dilations, name):
    _check(padding, data_format, 'NHWC', dilations, explicit_paddings)
    return apply(opdef, [input, filter, out_backprop],
                 {'strides': _strides(strides, 4), 'padding': padding}, name=name)


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding,
                             use_cudnn_on_gpu=True, explicit_paddings=(), data_format='NHWC',
                             dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d with respect to its input, which has the shape of `input`
    (op `Conv2DBackpropInputV2`)."""
    return _backprop_v2(CONV2D_BACKPROP_INPUT_V2, input, filter, out_backprop, strides, padding,
                        explicit_paddings, data_format, dilations, name)


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding,
                              use_cudnn_on_gpu=True, explicit_paddings=(), data_format='NHWC',
                              dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d with respect to its filter, which has the shape of `filter`
    (op `Conv2DBackpropFilterV2`)."""
    return _backprop_v2(CONV2D_BACKPROP_FILTER_V2, input, filter, out_backprop, strides,
                        padding, explicit_paddings, data_format, dilations, name)


# ---- ExtractVolumePatches ----------------------------------------------------------------------

def _volume_patches_kernel(input, ksizes, strides, padding):
    window = tuple(ksizes[1:4])
    _, pads = geometry(input.shape, window, strides, padding)
    patches, _ = windows_of(input, window, strides, pads)  # (N, od, oh, ow, C, kd, kh, kw)
    moved = np.moveaxis(patches, 4, -1)  # (N, od, oh, ow, kd, kh, kw, C)
    return np.ascontiguousarray(moved).reshape(moved.shape[:4] + (-1,))


def _volume_patches_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 5):
        raise ValueError(f'extract_volume_patches needs a rank-5 input (NDHWC), got {x.shape}')
    if x.shape.rank is None:
        return [(x.dtype, TensorShape([None] * 5))]
    dims, ksizes = x.shape.as_list(), attrs['ksizes']
    spatial = _spatial_out(dims[1:4], ksizes[1:4], attrs['strides'][1:4], attrs['padding'])
    depth = None if dims[4] is None else dims[4] * int(np.prod(ksizes[1:4]))
    return [(x.dtype, TensorShape([dims[0]] + spatial + [depth]))]


EXTRACT_VOLUME_PATCHES = register('ExtractVolumePatches', _volume_patches_kernel,
                                  _volume_patches_infer, inputs=('input',),
                                  outputs=('patches',), dtypes=REALS)


def extract_volume_patches(input, ksizes, strides, padding, name=None):
    """Each `ksizes` window of an NDHWC volume as one vector of its depth (its elements in
    (d, h, w, channel) order), the windows `strides` apart (op `ExtractVolumePatches`)."""
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID", got {padding!r}.')
    attrs = {'ksizes': _strides(ksizes, 5, 'ksizes'), 'strides': _strides(strides, 5),
             'padding': padding}
    return apply(EXTRACT_VOLUME_PATCHES, [convert_to_tensor(input)], attrs, name=name)


def one_hot_patch_filter(ksizes, channels, dtype):
    """The Conv3D filter [kd, kh, kw, C, kd * kh * kw * C] whose convolution is
    ExtractVolumePatches: output channel ((i * kh + j) * kw + k) * C + c picks input channel c
    at window position (i, j, k)."""
    window = tuple(ksizes[1:4])
    size = int(np.prod(window)) * channels
    return np.eye(size, dtype=dtype.np_dtype).reshape(window + (channels, size))
