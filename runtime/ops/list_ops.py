"""TensorList ops, the functional storage behind `rt.TensorArray`.

A list value (a `variant` tensor) is a `TensorList`: a write returns a new list value and
leaves the one written to unchanged, so a list can be a loop variable like any other value;
yet a write costs O(1), not a copy of the elements. Ops read a list's items with
`handle.items()` and build a list with `TensorList([...])` (it takes the Python list).

The gradient of a list is a list of the gradients of its elements (every element set), so
gradients flow through TensorArrays written in loops: Stack's gradient unstacks
(`TensorListFromTensor`), SetItem's reads the element's gradient back, GetItem's is a list of
zeros holding the gradient at the index read (runtime/gradients/rules/lists.py).
"""
import operator

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.dispatch import apply
from runtime.ops.registry import register


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

    def __add__(self, other):
        """The elementwise sum of two gradient lists (a list's gradient is the list of its
        elements' gradients), so gradients of lists of lists (a nested loop's saved values)
        add up; 0 and unwritten elements count as zeros."""
        if not isinstance(other, TensorList):
            if np.ndim(other) == 0 and other == 0:
                return self
            return NotImplemented
        a, b = self.items(), other.items()
        if len(a) < len(b):
            a, b = b, a
        return TensorList([x if i >= len(b) or b[i] is None else b[i] if x is None else x + b[i]
                           for i, x in enumerate(a)])

    __radd__ = __add__


_NONE = type(None)


def _reserve(num_elements, element_dtype=None, element_shape=None):
    count = int(num_elements)
    if count < 0:
        raise errors.InvalidArgumentError(message=size_error(count))
    return TensorList([None] * count)


def size_error(count):
    """TensorFlow's words for a negative TensorArray size."""
    return (f'The num_elements to reserve must be a non negative number, but got {count} (the '
            f'size of a TensorArray; pass dynamic_size=True to let it grow from 0).')


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
_position = operator.index


def _set_item_in_place(handle, index, item, dynamic_size=False):
    """`_set_item` writing `handle` itself, when nothing reads this version again (the
    executor's `in_place` kernel): no new version, no undo record."""
    items = handle._items
    position = _position(index)  # a Python int: its comparisons cost less than numpy's
    if items is not None and 0 <= position < len(items):
        items[position] = item
        return handle
    return _set_item(handle, index, item, dynamic_size)


def _get_item(handle, index, element_dtype=None, _element_shape=None):
    index = int(index)
    items = handle.items()
    if not 0 <= index < len(items) or items[index] is None:
        raise errors.InvalidArgumentError(
            message=f'TensorArray read of index {index}, which was never written '
                    f'(size {len(items)}).')
    return items[index]


def _stack(handle, element_dtype=None, element_shape=None, num_elements=-1):
    handle = handle.items()
    if not handle:
        shape = [0] + [d or 0 for d in (element_shape or TensorShape([])).as_list()]
        return np.zeros(shape, dtype=element_dtype.np_dtype)
    try:
        stacked = np.stack(handle)
    except ValueError:  # elements of different shapes: perhaps one never written
        _check_written(handle)
        raise
    if stacked.dtype.kind == 'O':  # strings, or unwritten elements (None) among scalars
        _check_written(handle)
    elif stacked.dtype.kind == 'S':  # bytes elements: a string tensor holds Python bytes
        stacked = stacked.astype(object)
    return stacked


def _check_written(items):
    if _NONE in map(type, items):
        missing = [i for i, item in enumerate(items) if item is None]
        raise errors.InvalidArgumentError(
            message=f'TensorArray.stack(): elements {missing} were never written.')


def _length(handle):
    return np.int32(len(handle))


def _variant_scalar(inputs, attrs):
    return [(dtypes.variant, TensorShape([]))]


def stack_list(handle, element_dtype, element_shape):
    """All elements of list `handle` stacked (op `TensorListStack`)."""
    return apply(STACK, [handle], {'element_dtype': element_dtype,
                                   'element_shape': element_shape})


RESERVE = register('TensorListReserve', _reserve, _variant_scalar,
                   inputs=('num_elements',), outputs=('handle',), type_attrs=(),
                   fresh_output=True)
SET_ITEM = register('TensorListSetItem', _set_item, _variant_scalar,
                    inputs=('input_handle', 'index', 'item'), outputs=('output_handle',),
                    type_attrs=(('element_dtype', 2),), defaults={'dynamic_size': False},
                    in_place=_set_item_in_place)
GET_ITEM = register('TensorListGetItem', _get_item,
                    lambda inputs, attrs: [(attrs['element_dtype'], attrs['_element_shape'])],
                    inputs=('input_handle', 'index'), outputs=('item',), type_attrs=())
STACK = register('TensorListStack', _stack,
                 lambda inputs, attrs: [(attrs['element_dtype'], TensorShape(
                     [None if attrs.get('num_elements', -1) < 0 else attrs['num_elements']]
                 ).concatenate(attrs['element_shape']))],
                 inputs=('input_handle',), outputs=('tensor',), type_attrs=(),
                 defaults={'num_elements': -1})
LENGTH = register('TensorListLength', _length,
                  lambda inputs, attrs: [(dtypes.int32, TensorShape([]))],
                  inputs=('input_handle',), outputs=('length',), type_attrs=())


# ---- whole-tensor ops: TensorArray.unstack / gather / scatter / concat --------------------------

def _written(items, indices, what):
    for i in indices:
        if not 0 <= i < len(items) or items[i] is None:
            raise errors.InvalidArgumentError(
                message=f'TensorArray.{what}(): index {i} was never written (size '
                        f'{len(items)}).')


def _empty(element_dtype, element_shape, leading=0):
    dims = [d or 0 for d in (element_shape or TensorShape([])).as_list()] \
        if element_shape is not None and element_shape.rank is not None else []
    return np.zeros([leading] + dims, dtype=element_dtype.np_dtype)


def from_tensor(tensor):
    """The list of `tensor`'s rows (op `TensorListFromTensor`; its element shape, -1 for an
    unknown dim, is an input as in TensorFlow)."""
    shape = tensor.shape
    element = [] if shape.rank is None else [-1 if d is None else d for d in shape.as_list()[1:]]
    return apply(FROM_TENSOR, [tensor, np.array(element, dtype=np.int32)],
                 {'element_dtype': tensor.dtype})


def _gather(handle, indices, element_dtype=None, element_shape=None):
    items = handle.items()
    indices = [int(i) for i in np.ravel(indices)]
    _written(items, indices, 'gather')
    if not indices:
        return _empty(element_dtype, element_shape)
    return np.stack([items[i] for i in indices])


def _scatter(handle, tensor, indices, dynamic_size=False):
    items = list(handle.items())
    indices = [int(i) for i in np.ravel(indices)]
    if len(indices) != len(tensor):
        raise errors.InvalidArgumentError(
            message=f'TensorArray.scatter(): {len(indices)} indices for {len(tensor)} values.')
    for i, value in zip(indices, tensor):
        if i < 0 or i >= len(items) and not dynamic_size:
            raise errors.InvalidArgumentError(
                message=f'TensorArray index {i} is out of range for size {len(items)}; create '
                        f'it with dynamic_size=True to let it grow.')
        if i >= len(items):
            items.extend([None] * (i + 1 - len(items)))
        items[i] = value
    return TensorList(items)


def _concat(handle, element_dtype=None, element_shape=None):
    items = handle.items()
    _written(items, range(len(items)), 'concat')
    lengths = np.array([np.shape(item)[0] for item in items], dtype=np.int64)
    if not items:
        return _empty(element_dtype, element_shape), lengths
    return np.concatenate(items), lengths


def _list_tensor_infer(leading):
    def infer(inputs, attrs):
        return [(attrs['element_dtype'], TensorShape([leading(inputs)]).concatenate(
            attrs['element_shape']))]
    return infer


def _concat_infer(inputs, attrs):
    shape = attrs['element_shape']
    rest = TensorShape(None) if shape.rank is None else TensorShape([None]).concatenate(shape[1:])
    return [(attrs['element_dtype'], rest), (dtypes.int64, TensorShape([None]))]


def _split(tensor, element_shape, lengths, element_dtype=None):
    ends = np.cumsum(np.asarray(lengths, dtype=np.int64))
    if len(ends) and ends[-1] != np.shape(tensor)[0]:
        raise errors.InvalidArgumentError(
            message=f'TensorListSplit: the lengths add up to {int(ends[-1])}, but the tensor has '
                    f'{np.shape(tensor)[0]} rows.')
    return TensorList(np.split(tensor, ends[:-1]) if len(ends) else [])


FROM_TENSOR = register('TensorListFromTensor',
                       lambda tensor, element_shape, element_dtype=None: TensorList(list(tensor)),
                       _variant_scalar,
                       inputs=('tensor', 'element_shape'), outputs=('output_handle',),
                       type_attrs=(('shape_type', 1),))
GATHER = register('TensorListGather', _gather,
                  _list_tensor_infer(lambda inputs: inputs[1].shape[0]
                                     if inputs[1].shape.rank == 1 else None),
                  inputs=('input_handle', 'indices'), outputs=('values',), type_attrs=())
SCATTER = register('TensorListScatterIntoExistingList', _scatter, _variant_scalar,
                   inputs=('input_handle', 'tensor', 'indices'), outputs=('output_handle',),
                   type_attrs=(('element_dtype', 1),), defaults={'dynamic_size': False})
CONCAT = register('TensorListConcatV2', _concat, _concat_infer, inputs=('input_handle',),
                  outputs=('tensor', 'lengths'), type_attrs=())
SPLIT = register('TensorListSplit', _split, _variant_scalar,
                 inputs=('tensor', 'element_shape', 'lengths'), outputs=('output_handle',),
                 type_attrs=(('element_dtype', 0), ('shape_type', 1)))
