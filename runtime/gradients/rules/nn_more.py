"""The gradients of runtime/ops/space_batch.py's, runtime/ops/conv3d.py's and
runtime/ops/nn_more.py's ops, as TensorFlow's: SpaceToBatchND and BatchToSpaceND are each
other's gradients, as are the convolution and pooling ops and their gradient ops; Dilation2D's and
MaxPoolWithArgmax's gradient ops and ComputeAccidentalHits have none in TensorFlow."""
from runtime.gradients.rules.common import defgradient
from runtime.ops import conv3d, conv_more, fractional_pool, nn_more, space_batch
from runtime.ops.composite_math import unsorted_segment_mean
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import range as range_
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.registry import UNREGISTERED_GRADIENT
from runtime.ops.shaping import expand_dims, reshape, shape
from runtime.ops.slicing import gather


@defgradient(space_batch.SPACE_TO_BATCH_ND)
def _space_to_batch_gradient(op, grad):
    _, block_shape, paddings = op.inputs
    return [apply(space_batch.BATCH_TO_SPACE_ND, [grad, block_shape, paddings]), None, None]


@defgradient(space_batch.BATCH_TO_SPACE_ND)
def _batch_to_space_gradient(op, grad):
    _, block_shape, crops = op.inputs
    return [apply(space_batch.SPACE_TO_BATCH_ND, [grad, block_shape, crops]), None, None]


# ---- 3-D convolution and pooling (runtime.ops.conv3d) ------------------------------------------

def _conv_attrs(op):
    return {'strides': op.get_attr('strides'), 'padding': op.get_attr('padding')}


def _pool_attrs(op):
    return {k: op.get_attr(k) for k in ('ksize', 'strides', 'padding')}


@defgradient(conv3d.CONV3D)
def _conv3d_gradient(op, grad):
    x, f = (convert_to_tensor(t) for t in op.inputs)
    return [apply(conv3d.BACKPROP_INPUT, [shape(x), f, grad], _conv_attrs(op)),
            apply(conv3d.BACKPROP_FILTER, [x, shape(f), grad], _conv_attrs(op))]


@defgradient(conv3d.BACKPROP_INPUT)
def _conv3d_backprop_input_gradient(op, grad):
    _, f, dy = (convert_to_tensor(t) for t in op.inputs)
    return [None, apply(conv3d.BACKPROP_FILTER, [grad, shape(f), dy], _conv_attrs(op)),
            apply(conv3d.CONV3D, [grad, f], _conv_attrs(op))]


@defgradient(conv3d.BACKPROP_FILTER)
def _conv3d_backprop_filter_gradient(op, grad):
    x, _, dy = (convert_to_tensor(t) for t in op.inputs)
    return [apply(conv3d.BACKPROP_INPUT, [shape(x), grad, dy], _conv_attrs(op)), None,
            apply(conv3d.CONV3D, [x, grad], _conv_attrs(op))]


@defgradient(conv3d.MAX_POOL3D)
def _max_pool3d_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    return [apply(conv3d.MAX_POOL3D_GRAD, [x, op.outputs[0], grad], _pool_attrs(op))]


@defgradient(conv3d.MAX_POOL3D_GRAD)
def _max_pool3d_grad_gradient(op, grad):
    x, y, _ = (convert_to_tensor(t) for t in op.inputs)
    return [zeros_like(x), zeros_like(y),
            apply(conv3d.MAX_POOL3D_GRAD_GRAD, [x, y, grad], _pool_attrs(op))]


@defgradient(conv3d.MAX_POOL3D_GRAD_GRAD)
def _max_pool3d_grad_grad_gradient(op, grad):
    x, y, _ = (convert_to_tensor(t) for t in op.inputs)
    return [zeros_like(x), zeros_like(y),
            apply(conv3d.MAX_POOL3D_GRAD, [x, y, grad], _pool_attrs(op))]


@defgradient(conv3d.AVG_POOL3D)
def _avg_pool3d_gradient(op, grad):
    return [apply(conv3d.AVG_POOL3D_GRAD, [shape(convert_to_tensor(op.inputs[0])), grad],
                  _pool_attrs(op))]


defgradient(conv3d.AVG_POOL3D_GRAD)(
    lambda op, grad: [None, apply(conv3d.AVG_POOL3D, [grad], _pool_attrs(op))])


# ---- runtime.ops.nn_more ---------------------------------------------------------------------

def _argmax_attrs(op):
    return {k: op.get_attr(k) for k in ('ksize', 'strides', 'padding', 'include_batch_in_index')}


@defgradient(nn_more.MAX_POOL_WITH_ARGMAX)
def _max_pool_with_argmax_gradient(op, grad, argmax_grad):
    return [apply(nn_more.MAX_POOL_GRAD_WITH_ARGMAX, [op.inputs[0], grad, op.outputs[1]],
                  _argmax_attrs(op))]


@defgradient(nn_more.DILATION2D)
def _dilation2d_gradient(op, grad):
    x, f = op.inputs
    attrs = {k: op.get_attr(k) for k in ('strides', 'rates', 'padding')}
    return [apply(nn_more.DILATION2D_BACKPROP_INPUT, [x, f, grad], attrs),
            apply(nn_more.DILATION2D_BACKPROP_FILTER, [x, f, grad], attrs)]


@defgradient(nn_more.ISOTONIC_REGRESSION)
def _isotonic_regression_gradient(op, grad, segments_grad):
    """The mean of the gradient over each block of equal outputs (TensorFlow's
    `_MeanAggregator`), all rows at once: row r's block ids are offset by r * n."""
    segments = op.outputs[1]
    dims = shape(segments)
    n = dims[1]
    ids = segments + expand_dims(range_(dims[0]) * n, 1)
    flat_ids = reshape(ids, [-1])
    means = unsorted_segment_mean(reshape(grad, [-1]), flat_ids, dims[0] * n)
    return [reshape(gather(means, flat_ids), dims)]


defgradient(nn_more.MAX_POOL_GRAD_WITH_ARGMAX, nn_more.DILATION2D_BACKPROP_INPUT,
            nn_more.DILATION2D_BACKPROP_FILTER, nn_more.COMPUTE_ACCIDENTAL_HITS)(
                UNREGISTERED_GRADIENT)


# ---- runtime.ops.conv_more ---------------------------------------------------------------------

@defgradient(conv_more.EXTRACT_VOLUME_PATCHES)
def _extract_volume_patches_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    channels = x.shape[-1]
    if channels is None:
        raise ValueError('The gradient of extract_volume_patches needs a known channel count.')
    ksizes = op.get_attr('ksizes')
    ones = conv_more.one_hot_patch_filter(ksizes, channels, grad.dtype)
    return [apply(conv3d.BACKPROP_INPUT, [shape(x), ones, grad],
                  {'strides': op.get_attr('strides'), 'padding': op.get_attr('padding')})]


defgradient(conv_more.CONV, conv_more.CONV2D_BACKPROP_INPUT_V2,
            conv_more.CONV2D_BACKPROP_FILTER_V2)(UNREGISTERED_GRADIENT)


# ---- runtime.ops.fractional_pool ---------------------------------------------------------------

@defgradient(fractional_pool.FRACTIONAL_MAX_POOL)
def _fractional_max_pool_gradient(op, grad, rows_grad, cols_grad):
    _, rows, cols = op.outputs
    return [apply(fractional_pool.FRACTIONAL_MAX_POOL_GRAD,
                  [op.inputs[0], op.outputs[0], grad, rows, cols],
                  {'overlapping': op.get_attr('overlapping')})]


@defgradient(fractional_pool.FRACTIONAL_AVG_POOL)
def _fractional_avg_pool_gradient(op, grad, rows_grad, cols_grad):
    _, rows, cols = op.outputs
    return [apply(fractional_pool.FRACTIONAL_AVG_POOL_GRAD,
                  [shape(convert_to_tensor(op.inputs[0])), grad, rows, cols],
                  {'overlapping': op.get_attr('overlapping')})]


defgradient(fractional_pool.FRACTIONAL_MAX_POOL_GRAD,
            fractional_pool.FRACTIONAL_AVG_POOL_GRAD)(UNREGISTERED_GRADIENT)
