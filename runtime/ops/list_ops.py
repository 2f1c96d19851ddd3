"""TensorList ops, the functional storage behind `rt.TensorArray`.

A list value (a `variant` tensor) is a `TensorList`: a write returns a new list value and
leaves the one written to unchanged, so a list can be a loop variable like any other value;
yet a write costs O(1), not a copy of the elements.
"""
import numpy as np

from runtime import dtypes, errors
from runtime.ops.registry import register
from runtime.shapes import TensorShape


class TensorList:
    """An immutable list of numpy values (None: not written yet) with O(1) writes.

    The newest version of a list owns a Python list of the items. A write changes that list in
    place and hands it to the new version; the version written to keeps only what it lost
    (index, old item, old length, newer version) and rebuilds its items from the newer version
    if it is read again (Baker's trick for persistent arrays). A loop that always writes the
    newest version never copies; reading or writing an older version costs one copy.
    """

    __slots__ = ('_items', '_undo')  # the newest version has `_items`, the others `_undo`

    def __init__(self, items):
        self._items = items

    def items(self):
        """This version's items: a list to read, never to change."""
        if self._items is None:
            undos = []
            version = self
            while version._items is None:
                undos.append(version._undo)
                version = version._undo[3]
            items = list(version._items)
            for index, item, length, _ in reversed(undos):
                del items[length:]
                if index < length:
                    items[index] = item
            self._items = items  # this version owns a copy now
        return self._items

    def __len__(self):
        return len(self.items())

    def __repr__(self):
        return f'TensorList({self.items()!r})'


_NONE = type(None)


def _reserve(num_elements, element_dtype=None, element_shape=None):
    return TensorList([None] * int(num_elements))


def _set_item(handle, index, item, dynamic_size=False):
    """A new version of `handle` with `item` at `index` (see TensorList; this runs once per
    write of a loop, so it is written for speed)."""
    index = int(index)
    items = handle._items
    if items is None:
        items = handle.items()
    length = len(items)
    if 0 <= index < length:
        old = items[index]
        items[index] = item
    elif index >= length and dynamic_size:
        old = None
        items.extend([None] * (index - length))
        items.append(item)
    else:
        raise errors.InvalidArgumentError(
            message=f'TensorArray index {index} is out of range for size {length}; create '
                    f'it with dynamic_size=True to let it grow.')
    newer = _new(TensorList)
    newer._items = items
    handle._items, handle._undo = None, (index, old, length, newer)
    return newer


_new = object.__new__


def _get_item(handle, index, element_dtype=None, _element_shape=None):
    index = int(index)
    items = handle.items()
    if not 0 <= index < len(items) or items[index] is None:
        raise errors.InvalidArgumentError(
            message=f'TensorArray read of index {index}, which was never written '
                    f'(size {len(items)}).')
    return items[index]


def _stack(handle, element_dtype=None, element_shape=None):
    handle = handle.items()
    if _NONE in map(type, handle):
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
