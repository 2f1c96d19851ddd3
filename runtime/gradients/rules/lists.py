"""The gradients of the TensorList ops of runtime/ops/list_ops.py (TensorArrays and loop
accumulators): a list's gradient is the list of its elements' gradients, so gradients flow
through TensorArrays written in loops. Stack's gradient unstacks (`TensorListFromTensor`),
SetItem's reads the element's gradient back, GetItem's is a list of zeros holding the gradient at
the index read."""
import numpy as np

from runtime.core.shapes import TensorShape
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.ops import list_ops
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.list_ops import (
    CONCAT,
    GATHER,
    GET_ITEM,
    LENGTH,
    SCATTER,
    SET_ITEM,
    SPLIT,
    from_tensor,
    stack_list,
)
from runtime.ops.shaping import broadcast_to, concat, expand_dims, reshape, static_or_dynamic_shape
from runtime.ops.slicing import unsorted_segment_sum


def _item_attrs(item):
    return {'element_dtype': item.dtype, '_element_shape': item.shape}


def _row_shape(t):
    rank = t.shape.rank
    return TensorShape(None if rank is None else t.shape.as_list()[1:])


@defgradient(list_ops.SET_ITEM)
def _set_item_gradient(op, grad):
    handle, index, item = op.inputs
    return [apply(SET_ITEM, [grad, index, zeros_like(item)], {'dynamic_size': True}), None,
            apply(GET_ITEM, [grad, index], _item_attrs(item))]


@defgradient(list_ops.GET_ITEM)
def _get_item_gradient(op, grad):
    """Zeros for every element (shaped like this one), this gradient at `index`."""
    handle, index = op.inputs
    count = reshape(apply(LENGTH, [handle]), [1])
    zeros = broadcast_to(expand_dims(zeros_like(grad), 0),
                         concat([count, static_or_dynamic_shape(grad)], 0))
    return [apply(SET_ITEM, [from_tensor(zeros), index, grad]), None]


@defgradient(list_ops.GATHER)
def _gather_gradient(op, grad):
    """A list of the rows of `grad` summed per index read (an element gathered twice gets the
    sum of both rows' gradients; unread elements get zeros)."""
    handle, indices = op.inputs
    return [from_tensor(unsorted_segment_sum(grad, indices, apply(LENGTH, [handle]))), None]


@defgradient(list_ops.SCATTER)
def _scatter_gradient(op, grad):
    handle, tensor, indices = op.inputs
    rows = apply(GATHER, [grad, indices], {'element_dtype': tensor.dtype,
                                           'element_shape': tensor.shape[1:]})
    return [apply(SCATTER, [grad, zeros_like(tensor), indices]), rows, None]


@defgradient(list_ops.CONCAT)
def _concat_gradient(op, grad, lengths_grad):
    return [apply(SPLIT, [grad, np.array(-1, np.int32), op.outputs[1]],
                  {'element_dtype': grad.dtype})]


defgradient(list_ops.STACK)(lambda op, grad: [from_tensor(grad)])


defgradient(list_ops.FROM_TENSOR)(lambda op, grad: [stack_list(grad, op.get_attr('element_dtype'),
                                                             _row_shape(op.inputs[0])), None])


defgradient(list_ops.SPLIT)(lambda op, grad: [apply(CONCAT, [grad], {
                     'element_dtype': op.inputs[0].dtype,
                     'element_shape': TensorShape([None]).concatenate(op.inputs[0].shape[1:])
                     if op.inputs[0].shape.rank is not None else TensorShape(None)})[0],
                     None, None])


not_differentiable(list_ops.RESERVE, list_ops.LENGTH)
