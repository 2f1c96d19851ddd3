"""TensorList ops, the functional storage behind `rt.TensorArray`.

A list value is a Python tuple of numpy values (a `variant` tensor); writes return a new tuple,
so a list can be a loop variable like any other value.
"""
import numpy as np

from runtime import dtypes, errors
from runtime.ops.registry import register
from runtime.shapes import TensorShape


def _reserve(num_elements, element_dtype=None, element_shape=None):
    count = int(num_elements)
    if count < 0:
        raise errors.InvalidArgumentError(message=size_error(count))
    return (None,) * count


def size_error(count):
    """TensorFlow's words for a negative TensorArray size."""
    return (f'The num_elements to reserve must be a non negative number, but got {count} (the '
            f'size of a TensorArray; pass dynamic_size=True to let it grow from 0).')


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


RESERVE = register('TensorListReserve', _reserve, _variant_scalar,
                   inputs=('num_elements',), outputs=('handle',), type_attrs=())
SET_ITEM = register('TensorListSetItem', _set_item, _variant_scalar,
                    inputs=('input_handle', 'index', 'item'), outputs=('output_handle',),
                    type_attrs=(('element_dtype', 2),), defaults={'dynamic_size': False})
GET_ITEM = register('TensorListGetItem', _get_item,
                    lambda inputs, attrs: [(attrs['element_dtype'], attrs['_element_shape'])],
                    inputs=('input_handle', 'index'), outputs=('item',), type_attrs=())
STACK = register('TensorListStack', _stack,
                 lambda inputs, attrs: [(attrs['element_dtype'], TensorShape([None]).concatenate(
                     attrs['element_shape']))],
                 inputs=('input_handle',), outputs=('tensor',), type_attrs=())
LENGTH = register('TensorListLength', _length,
                  lambda inputs, attrs: [(dtypes.int32, TensorShape([]))],
                  inputs=('input_handle',), outputs=('length',), type_attrs=())
