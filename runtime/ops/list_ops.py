"""TensorList ops, the functional storage behind `rt.TensorArray`.

A list value is a Python tuple of numpy values (a `variant` tensor); writes return a new tuple,
so a list can be a loop variable like any other value.

The gradient of a list is a list of the gradients of its elements (every element set), so
gradients flow through TensorArrays written in loops: Stack's gradient unstacks
(`TensorListFromTensor`), SetItem's reads the element's gradient back, GetItem's is a list of
zeros holding the gradient at the index read.
"""
import numpy as np

from runtime import dtypes, errors
from runtime.ops.array import (broadcast_to, concat, expand_dims, reshape, static_or_dynamic_shape,
                               zeros_like)
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, register
from runtime.shapes import TensorShape


def _reserve(num_elements, element_dtype=None, element_shape=None):
    return (None,) * int(num_elements)


def _set_item(handle, index, item, dynamic_size=False):
    index = int(index)
    if index < 0 or index >= len(handle) and not dynamic_size:
        raise errors.InvalidArgumentError(
            message=f'TensorArray index {index} is out of range for size {len(handle)}; create '
                    f'it with dynamic_size=True to let it grow.')
    items = list(handle)
    if index >= len(items):
        items.extend([None] * (index + 1 - len(items)))
    items[index] = item
    return tuple(items)


def _get_item(handle, index, element_dtype=None, _element_shape=None):
    index = int(index)
    if not 0 <= index < len(handle) or handle[index] is None:
        raise errors.InvalidArgumentError(
            message=f'TensorArray read of index {index}, which was never written '
                    f'(size {len(handle)}).')
    return handle[index]


def _stack(handle, element_dtype=None, element_shape=None):
    if any(item is None for item in handle):
        missing = [i for i, item in enumerate(handle) if item is None]
        raise errors.InvalidArgumentError(
            message=f'TensorArray.stack(): elements {missing} were never written.')
    if not handle:
        shape = [0] + [d or 0 for d in (element_shape or TensorShape([])).as_list()]
        return np.zeros(shape, dtype=element_dtype.np_dtype)
    return np.stack(handle)


def _length(handle):
    return np.int32(len(handle))


def _variant_scalar(inputs, attrs):
    return [(dtypes.variant, TensorShape([]))]


def _item_attrs(item):
    return {'element_dtype': item.dtype, '_element_shape': item.shape}


def _set_item_gradient(op, grad):
    handle, index, item = op.inputs
    return [apply(SET_ITEM, [grad, index, zeros_like(item)], {'dynamic_size': True}), None,
            apply(GET_ITEM, [grad, index], _item_attrs(item))]


def _get_item_gradient(op, grad):
    """Zeros for every element (shaped like this one), this gradient at `index`."""
    handle, index = op.inputs
    count = reshape(apply(LENGTH, [handle]), [1])
    zeros = broadcast_to(expand_dims(zeros_like(grad), 0),
                         concat([count, static_or_dynamic_shape(grad)], 0))
    return [apply(SET_ITEM, [from_tensor(zeros), index, grad]), None]


def from_tensor(tensor):
    """The list of `tensor`'s rows (op `TensorListFromTensor`)."""
    shape = tensor.shape
    element = TensorShape(None) if shape.rank is None else TensorShape(shape.as_list()[1:])
    return apply(FROM_TENSOR, [tensor, np.array([-1 if d is None else d for d in
                                                  (element.as_list() if element.rank is not None
                                                   else [])], dtype=np.int32)],
                 {'element_dtype': tensor.dtype})


def stack_list(handle, element_dtype, element_shape):
    """All elements of list `handle` stacked (op `TensorListStack`)."""
    return apply(STACK, [handle], {'element_dtype': element_dtype,
                                   'element_shape': element_shape})


RESERVE = register('TensorListReserve', _reserve, _variant_scalar,
                   inputs=('num_elements',), outputs=('handle',), type_attrs=(),
                   gradient=NO_GRADIENT)
SET_ITEM = register('TensorListSetItem', _set_item, _variant_scalar,
                    inputs=('input_handle', 'index', 'item'), outputs=('output_handle',),
                    type_attrs=(('element_dtype', 2),), defaults={'dynamic_size': False},
                    gradient=_set_item_gradient)
GET_ITEM = register('TensorListGetItem', _get_item,
                    lambda inputs, attrs: [(attrs['element_dtype'], attrs['_element_shape'])],
                    inputs=('input_handle', 'index'), outputs=('item',), type_attrs=(),
                    gradient=_get_item_gradient)
STACK = register('TensorListStack', _stack,
                 lambda inputs, attrs: [(attrs['element_dtype'], TensorShape([None]).concatenate(
                     attrs['element_shape']))],
                 inputs=('input_handle',), outputs=('tensor',), type_attrs=(),
                 gradient=lambda op, grad: [from_tensor(grad)])
LENGTH = register('TensorListLength', _length,
                  lambda inputs, attrs: [(dtypes.int32, TensorShape([]))],
                  inputs=('input_handle',), outputs=('length',), type_attrs=(),
                  gradient=NO_GRADIENT)
FROM_TENSOR = register('TensorListFromTensor',
                       lambda tensor, element_shape, element_dtype=None: tuple(tensor),
                       _variant_scalar, inputs=('tensor', 'element_shape'),
                       outputs=('output_handle',), type_attrs=(('shape_type', 1),),
                       gradient=lambda op, grad: [stack_list(grad, op.get_attr('element_dtype'),
                                                             _row_shape(op.inputs[0])), None])


def _row_shape(t):
    rank = t.shape.rank
    return TensorShape(None if rank is None else t.shape.as_list()[1:])
