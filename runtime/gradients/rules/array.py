"""The gradients of creating, reshaping, slicing, gathering and scattering tensors, and of the
checks (TensorFlow's array_grad.py): ops of runtime/ops/{registry,array,creation,shaping,slicing,
convert,manipulation,indexing,checks,io}.py."""
import builtins

import numpy as np

from runtime.core import dtypes
from runtime.gradients.rules.common import defgradient, not_differentiable, unbroadcast
from runtime.ops import (
    array,
    checks,
    convert,
    creation,
    identity_n,
    indexing,
    io,
    manipulation,
    shaping,
    slicing,
)
from runtime.ops.array import cast
from runtime.ops.checks import check_numerics
from runtime.ops.compare import equal
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import range as range_
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.indexing import gather_nd, scatter_nd, tensor_scatter_nd_update
from runtime.ops.infer import constant_value, known_shape
from runtime.ops.manipulation import MIRROR_PAD, MIRROR_PAD_GRAD, concat, pad, reverse
from runtime.ops.manipulation import slice as slice_
from runtime.ops.math import subtract
from runtime.ops.reduce import reduce_sum
from runtime.ops.registry import CONST, IDENTITY, PLACEHOLDER
from runtime.ops.shaping import RESHAPE, reshape, shape, static_or_dynamic_shape, transpose
from runtime.ops.slicing import (
    MASKS,
    STRIDED_SLICE,
    STRIDED_SLICE_GRAD,
    gather,
    strided_slice,
    unsorted_segment_sum,
)

# ---- passing a tensor on: runtime.ops.registry, runtime.ops.array ------------------------------

defgradient(IDENTITY)(lambda op, grad: [grad])


@defgradient(array.CAST)
def _cast_gradient(op, grad):
    source = op.inputs[0].dtype
    return [cast(grad, source) if source.is_floating and grad.dtype.is_floating else None]


not_differentiable(CONST, PLACEHOLDER, array.STOP_GRADIENT)


# ---- creating tensors: runtime.ops.creation ----------------------------------------------------

defgradient(creation.FILL)(lambda op, grad: [None, reduce_sum(grad)])
not_differentiable(creation.ZEROS_LIKE, creation.ONES_LIKE, creation.RANGE)


# ---- shapes and reshaping: runtime.ops.shaping -------------------------------------------------

def _reshape_like(grad, x):
    """`grad` reshaped to `x`'s shape (the gradient of every op that only reshapes)."""
    known = known_shape(x)
    if known is not None and known == known_shape(grad):
        return grad
    return apply(RESHAPE, [grad, static_or_dynamic_shape(x)])


defgradient(shaping.RESHAPE, shaping.EXPAND_DIMS)(
    lambda op, grad: [_reshape_like(grad, op.inputs[0]), None])
defgradient(shaping.SQUEEZE)(lambda op, grad: [_reshape_like(grad, op.inputs[0])])
defgradient(shaping.BROADCAST_TO)(lambda op, grad: [unbroadcast(grad, op.inputs[0]), None])


@defgradient(shaping.TRANSPOSE)
def _transpose_gradient(op, grad):
    perm = constant_value(op.inputs[1])
    if perm is None:  # known when running: its inverse, inverse[perm[i]] = i, by a scatter
        perm = convert_to_tensor(op.inputs[1])
        n = shape(perm)
        inverse = scatter_nd(reshape(perm, [-1, 1]), cast(range_(n[0]), perm.dtype),
                             cast(n, perm.dtype))
        return [transpose(grad, inverse), None]
    return [transpose(grad, np.argsort(perm).astype(np.int32)), None]


@defgradient(shaping.CONCAT)
def _concat_gradient(op, grad):
    values, axis = op.inputs[:-1], constant_value(op.inputs[-1])
    if axis is None or grad.shape.rank is None:
        raise NotImplementedError('The gradient of ConcatV2 needs a constant axis and a known '
                                  'rank.')
    axis = int(axis) % grad.shape.rank
    grads, offset = [], 0
    for x in values:
        size = x.shape[axis] if x.shape.rank is not None and x.shape[axis] is not None else \
            static_or_dynamic_shape(x)[axis]
        end = offset + size
        grads.append(strided_slice(grad, (slice(None),) * axis + (slice(offset, end),)))
        offset = end
    return grads + [None]


not_differentiable(shaping.SHAPE, shaping.SIZE, shaping.RANK)


# ---- gather and slicing: runtime.ops.slicing ---------------------------------------------------

@defgradient(slicing.GATHER)
def _gather_gradient(op, grad):
    """Dense, as docs/gradients.md says (TF gives IndexedSlices): the gradient rows of each index
    are summed into the row it gathered."""
    params, indices, axis = op.inputs
    axis = constant_value(axis)
    if axis is None or params.shape.rank is None or indices.shape.rank is None:
        raise NotImplementedError('The gradient of GatherV2 needs a constant axis and known ranks.')
    axis, ri, rank = int(axis) % params.shape.rank, indices.shape.rank, params.shape.rank
    size = params.shape[axis] if params.shape[axis] is not None else \
        static_or_dynamic_shape(params)[axis]
    if axis:  # bring the index dims to the front, sum, and move the axis back
        perm = list(builtins.range(axis, axis + ri)) + list(builtins.range(axis)) + \
            list(builtins.range(axis + ri, rank - 1 + ri))
        grad = transpose(grad, perm)
    dense = unsorted_segment_sum(grad, indices, size)
    if axis:
        back = list(builtins.range(1, axis + 1)) + [0] + list(builtins.range(axis + 1, rank))
        dense = transpose(dense, back)
    return [dense, None, None]


defgradient(slicing.UNSORTED_SEGMENT_SUM)(lambda op, grad: [gather(grad, op.inputs[1]), None, None])


def _masks_of(op):
    return {k: op.get_attr(k) for k in MASKS if op.get_attr(k)}


@defgradient(slicing.STRIDED_SLICE)
def _strided_slice_gradient(op, grad):
    x, begin, end, strides = op.inputs
    return [apply(STRIDED_SLICE_GRAD, [static_or_dynamic_shape(x), begin, end, strides, grad],
                  _masks_of(op)), None, None, None]


defgradient(slicing.STRIDED_SLICE_GRAD)(lambda op, grad: [None, None, None, None, apply(
    STRIDED_SLICE, [grad] + list(op.inputs[1:4]), _masks_of(op))])


@defgradient(identity_n.IDENTITY_N)
def _identity_n_gradient(op, *grads):
    """The gradients pass through, unless a `_gradient_op_type` (rt.custom_gradient) says (a
    node read back from a file names one by its string only: its gradients pass through)."""
    custom = getattr(op.attrs.get('_gradient_op_type'), 'gradient', None)
    return list(grads) if custom is None else custom(op, *grads)


# ---- runtime.ops.convert -----------------------------------------------------------------------

@defgradient(convert.PACK)
def _pack_gradient(op, grad):
    axis = op.get_attr('axis') % grad.shape.rank
    return [strided_slice(grad, (slice(None),) * axis + (i,)) for i in range(len(op.inputs))]


# ---- runtime.ops.manipulation ------------------------------------------------------------------

@defgradient(manipulation.TILE)
def _tile_gradient(op, grad):
    x, multiples = op.inputs
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f'The gradient of Tile needs a tensor of known rank, got shape '
                         f'{x.shape}.')
    # grad, seen as [m0, d0, m1, d1, ...], summed over the m axes.
    split = reshape(stack([cast(multiples, dtypes.int32), shape(x)], axis=1), [-1])
    return [reduce_sum(reshape(grad, split), axis=list(builtins.range(0, 2 * rank, 2))), None]


@defgradient(manipulation.SLICE)
def _slice_gradient(op, grad):
    x, begin, size = op.inputs
    before = cast(begin, dtypes.int32)
    after = subtract(subtract(shape(x), before), shape(op.outputs[0]))
    return [pad(grad, stack([before, after], axis=1)), None, None]


@defgradient(manipulation.PAD, manipulation.PAD_V2)
def _pad_gradient(op, grad):
    x, paddings = op.inputs[:2]
    begin = reshape(slice_(cast(paddings, dtypes.int32), [0, 0], [-1, 1]), [-1])
    return [slice_(grad, begin, shape(x))] + [None] * (len(op.inputs) - 1)


defgradient(manipulation.MIRROR_PAD)(lambda op, grad: [
    apply(MIRROR_PAD_GRAD, [grad, op.inputs[1]], {'mode': op.get_attr('mode')}), None])
defgradient(manipulation.MIRROR_PAD_GRAD)(lambda op, grad: [
    apply(MIRROR_PAD, [grad, op.inputs[1]], {'mode': op.get_attr('mode')}), None])
defgradient(manipulation.SPLIT)(lambda op, *grads: [
    None, concat(list(grads), int(constant_value(op.inputs[0])))])
defgradient(manipulation.SPLIT_V)(lambda op, *grads: [
    concat(list(grads), int(constant_value(op.inputs[2]))), None, None])
defgradient(manipulation.UNPACK)(lambda op, *grads: [stack(list(grads), axis=op.get_attr('axis'))])
defgradient(manipulation.REVERSE)(lambda op, grad: [reverse(grad, op.inputs[1]), None])
not_differentiable(manipulation.ONE_HOT, manipulation.LINSPACE)


# ---- runtime.ops.indexing ----------------------------------------------------------------------

@defgradient(indexing.TENSOR_SCATTER_UPDATE)
def _tensor_scatter_gradient(op, grad):
    tensor, indices, updates = op.inputs
    return [tensor_scatter_nd_update(grad, indices, zeros_like(updates)), None,
            gather_nd(grad, indices)]


defgradient(indexing.TENSOR_SCATTER_ADD)(lambda op, grad: [
    grad, None, gather_nd(grad, op.inputs[1])])
defgradient(indexing.TENSOR_SCATTER_SUB)(lambda op, grad: [
    grad, None, -gather_nd(grad, op.inputs[1])])


@defgradient(indexing.TENSOR_SCATTER_MIN, indexing.TENSOR_SCATTER_MAX)
def _tensor_scatter_min_max_gradient(op, grad):
    """TensorFlow's rule: the gradient goes to the inputs equal to the result, split evenly
    between ties."""
    x, indices, y = (convert_to_tensor(t) for t in op.inputs)
    out = op.outputs[0]
    x_hits = cast(equal(x, out), grad.dtype)
    y_hits = cast(equal(y, gather_nd(out, indices)), grad.dtype)
    hits = x_hits + scatter_nd(indices, y_hits, shape(x, indices.dtype))
    return [grad * x_hits / hits, None, gather_nd(grad / hits, indices) * y_hits]


defgradient(indexing.GATHER_ND)(lambda op, grad: [
    scatter_nd(op.inputs[1], grad, shape(op.inputs[0], dtypes.int32)
               if op.inputs[1].dtype is dtypes.int32 else shape(op.inputs[0], dtypes.int64)),
    None])
defgradient(indexing.SCATTER_ND)(lambda op, grad: [None, gather_nd(grad, op.inputs[0]), None])


# ---- runtime.ops.checks ------------------------------------------------------------------------

defgradient(checks.CHECK_NUMERICS)(lambda op, grad: [check_numerics(
    grad, f'Not a number (NaN) or infinity (Inf) values detected in gradient. '
          f'{op.get_attr("message")}')])


# ---- runtime.ops.io ----------------------------------------------------------------------------

not_differentiable(io.PRINT, io.ASSERT)
