"""Python lists that a tensor loop appends to, staged as TensorArrays (see docs/reference.md).

The compiler rewrites `l.append(x)` inside a loop into `l = ag__.list_append(l, x)` when the
loop only appends to `l`, and names `l` in the loop's `opts['appended_lists']`. On Python values
`list_append` is `l.append(x)`. When the loop is a graph loop, `control_flow` replaces the list
by a `StagedList` (a TensorArray holding the list's elements) before the loop; `rt.stack(l)`,
`rt.concat(l, axis)`, `l[i]` and `len(l)` read it after the loop.

Any other mutation of a list inside a tensor loop (`pop`, `l[i] = v`, `extend`, ...) is refused
by `check_list_mutation`, which the compiler puts before it.
"""
from typing import Any

import runtime as rt
from autograph.operators import located
from runtime.core.tensor import is_symbolic

# How many graph loop bodies are being traced (mutating a list there happens once, at trace time)
tracing_loops = [0]


def traced_loop_body(body, *args):
    """`body(*args)` counted in `tracing_loops` (a graph loop body being traced)."""
    tracing_loops[0] += 1
    try:
        return body(*args)
    finally:
        tracing_loops[0] -= 1


# How many lists were staged so far: a converted function's return value is searched for staged
# lists only if some were staged while it ran (plain Python values are returned as they are)
staged_count = [0]


class StagedList:
    """The list `name` while and after a tensor loop appends to it: a TensorArray of its
    elements. A composite value (`__nest_components__`), so it travels as one loop variable."""

    __slots__ = ('array', 'name')

    def __init__(self, array, name):
        self.array = array
        self.name = name

    def __nest_components__(self):   # the composite protocol of runtime.core.nest
        return rt.nest.flatten(self.array)

    def __nest_from_components__(self, components):
        return StagedList(rt.nest.pack_sequence_as(self.array, components), self.name)

    def append(self, value):
        return StagedList(self.array.write(self.array.size(), value), self.name)

    def size(self):
        return self.array.size()

    def stack(self, axis=0):
        stacked = self.array.stack()
        if axis == 0:
            return stacked
        rank = stacked.shape.rank
        if axis < 0:
            axis += rank
        perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
        return rt.transpose(stacked, perm)

    def concat(self, axis=0):
        if axis == 0:
            return self.array.concat()
        stacked = self.stack(axis)        # (..., n, d_axis, ...): merge n and d_axis
        shape = rt.shape(stacked)
        axis = axis if axis >= 0 else axis + stacked.shape.rank - 1
        merged = rt.concat([shape[:axis], [-1], shape[axis + 2:]], 0)
        return rt.reshape(stacked, merged)

    def __getitem__(self, index):
        if isinstance(index, slice):
            raise TypeError(located.message(
                f"the list '{self.name}' is staged as a TensorArray (a tensor loop appended to "
                f'it); slice rt.stack({self.name}) instead of the list.'))
        if is_symbolic(index):
            index = rt.where(index < 0, index + self.size(), index)
        elif index < 0:
            index = self.size() + index
        return self.array.read(index)

    def __iter__(self):
        raise TypeError(located.message(
            f"the list '{self.name}' is staged as a TensorArray (a tensor loop appended to it) "
            f'and has no Python length; iterate over rt.stack({self.name}), or index it with a '
            f'tensor loop (for i in rt.range(len({self.name})))'))

    __len__ = __iter__

    def __repr__(self):
        return f'<list {self.name!r} staged as {self.array!r}>'


def list_append(target: Any, value: Any) -> Any:
    """`target.append(value)`; the new value of `target`."""
    if isinstance(target, StagedList):
        return target.append(value)
    target.append(value)
    return target


def stage(value, name, dtype, element_shape):
    """The list `value` as a StagedList of elements of `dtype` and `element_shape`."""
    staged_count[0] += 1
    array = rt.TensorArray(dtype, size=0, dynamic_size=True, element_shape=element_shape)
    for index, item in enumerate(value):
        array = array.write(index, item)
    return StagedList(array, name)


def check_list_mutation(value: Any, name: str, what: str) -> None:
    """Refuses `what` (e.g. "`l.pop()` (line 12)") on the Python list `name` while a tensor loop
    is traced: it would happen once, at trace time, with tensors of the loop's graph."""
    if tracing_loops[0] and isinstance(value, (list, StagedList)):
        raise located.error(TypeError, (
            f"the Python list '{name}' is changed by {what} inside a loop on a tensor: it would "
            f'change once, while the loop is traced, so this is not allowed in a loop on a '
            f'tensor. A tensor loop may only append to a list or set its elements (`y[0] = v`) '
            f'(it is then staged as a TensorArray); for anything else use an rt.TensorArray '
            f'(ta = ta.write(i, v)) or a tensor.'))


def stack_(values, axis=0, name=None):
    if isinstance(values, StagedList):
        return values.stack(axis)
    return rt.stack(values, axis, name=name)


def concat_(values, axis, name=None):
    if isinstance(values, StagedList):
        return values.concat(axis)
    return rt.concat(values, axis, name=name)



def stacked(value, _seen=None):
    """`value` with each StagedList in it (also inside tuples, lists and dicts) stacked into one
    tensor: what a function that returns a staged list gives back. A container that holds
    itself is walked once."""
    if isinstance(value, StagedList):
        return value.stack()
    if type(value) not in (tuple, list, dict):
        return value
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return value
    seen.add(id(value))
    if type(value) is dict:
        parts = {k: stacked(v, seen) for k, v in value.items()}
        return parts if any(parts[k] is not value[k] for k in value) else value
    parts = [stacked(v, seen) for v in value]
    changed = any(p is not v for p, v in zip(parts, value))
    return type(value)(parts) if changed else value
