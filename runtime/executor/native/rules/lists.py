"""Native rules of the TensorList ops of TensorArrays whose elements have one shape: a list is
`(data, written)`, reserved once, written in place when nothing else sees the old version
(native/lists.py decides), else copied first; a list of dynamic size is `(data, written,
size)`, whose first `size` elements are its elements, reallocated twice as large when a write
goes past its room (reserve, write, read, stack and length; its other ops call kernels)."""
from typing import Any, Callable

import numpy as np

from runtime.core.shapes import TensorShape
from runtime.executor.ir import Node, Value
from runtime.executor.native.rules import Lowers, Rule, cast, lowers, spec
from runtime.ops import list_ops
from runtime.ops.registry import OpDef

# the ops whose list is the one they make (the others': their first operand)
_MAKERS = (list_ops.RESERVE, list_ops.FROM_TENSOR, list_ops.SPLIT)
# the ops native code writes only on a list of fixed size
_FIXED_SIZE = (list_ops.FROM_TENSOR, list_ops.SPLIT, list_ops.GATHER, list_ops.SCATTER,
               list_ops.CONCAT)


_RULES: set[OpDef] = set()  # the ops with a rule here


def _rule(opdef: OpDef) -> Callable[[Rule], Rule]:
    """Register the decorated function as the rule of the list op `opdef`."""
    _RULES.add(opdef)
    return lowers(opdef)


def native_problem(lists: Any, node: Node) -> str | None:
    """Why native code cannot write the TensorList op `node` with its list native (then the
    list analysis boxes the list, and the op calls its kernel), or None when the rules here
    write it. `lists`: the analysis (native/lists.py), its lists' layouts known."""
    opdef = node.opdef
    if opdef not in _RULES:
        return 'native code holds TensorLists in the list ops of native/rules/lists.py only'
    ref = node.outputs[0] if opdef in _MAKERS else node.inputs[0]
    if opdef in _FIXED_SIZE and lists.grows(ref):
        return 'native code has no form for it on a TensorArray of dynamic size'
    if opdef is list_ops.LENGTH:
        return None
    problem = lists.layout_problem(ref)
    if problem is not None:
        return problem
    if opdef in (list_ops.SPLIT, list_ops.CONCAT) and not lists.element_dims(ref):
        return 'its TensorArray elements are scalars, which have no rows to split or join'
    indices = {list_ops.GATHER: 1, list_ops.SCATTER: 2}.get(opdef)
    if indices is not None and node.inputs[indices].shape.rank != 1:
        return 'native code gathers and scatters with a vector of indices'
    return None


@_rule(list_ops.RESERVE)
def _list_reserve(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    dtype, dims = lowering.lists.layout(node, node.outputs[0])
    template = lowering.array_constant(np.empty([0] + dims, dtype))  # of the element rank
    out = lowering.result(node)
    if lowering.lists.grows(node.outputs[0]):
        rooms, slot = lowering.room(node.outputs[0])
        lowering.line(depth, f'{out} = list_reserve_growing({inputs[0]}, {template}, {rooms}, '
                             f'{slot})')
    else:
        lowering.line(depth, f'{out} = list_reserve({inputs[0]}, {template})')
    return [out]


def _elements(lowering: Lowers, ref: Value, handle: str) -> tuple[str, str]:
    """The expressions of the data and written flags of the elements of list `handle`."""
    if lowering.lists.grows(ref):
        return f'{handle}[0][:{handle}[2]]', f'{handle}[1][:{handle}[2]]'
    return f'{handle}[0]', f'{handle}[1]'


def _copy(lowering: Lowers, ref: Value, handle: str) -> str:
    """The expression of a copy of the native list `handle` (a value of `ref`'s list)."""
    if lowering.lists.grows(ref):
        return f'(copied({handle}[0]), copied({handle}[1]), {handle}[2])'
    return f'(copied({handle}[0]), copied({handle}[1]))'


def _list_to_write(lowering: Lowers, node: Node, handle: str, depth: int) -> str:
    """The local of the list that `node` writes: `handle` itself when nothing else can see
    it, else a copy."""
    out = lowering.result(node)
    if lowering.lists.in_place(node.inputs[0]):
        lowering.line(depth, f'{out} = {handle}')
    else:
        lowering.line(depth, f'{out} = {_copy(lowering, node.inputs[0], handle)}')
    return out


def loop_entry(lowering: Lowers, node: Node, k: int, name: str) -> str:
    """The initial value of loop var `k` of the While `node`, whose input is `name`: a copy
    of a native list its body writes in place while something else sees the input
    (`Lists.entry_copies`), else `name`."""
    ref = node.inputs[k]
    if (node, k) not in lowering.lists.entry_copies or lowering.lists.is_boxed(ref):
        return name
    return _copy(lowering, ref, name)


@_rule(list_ops.SET_ITEM)
def _list_set(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    handle, index, item = inputs
    _, dims = lowering.lists.layout(node, node.inputs[0])
    out = _list_to_write(lowering, node, handle, depth)
    if lowering.lists.grows(node.inputs[0]):
        grown = lowering.fresh('grown')
        rooms, slot = lowering.room(node.inputs[0])
        lowering.line(depth, f'{grown} = list_grow({out}[0], {out}[1], {out}[2], {index}, '
                             f'{rooms}, {slot})')
        out = grown
    fused = lowering.fused.pop(node.inputs[2], None)
    if fused is None:
        lowering.line(depth, f'list_set({out}[0], {out}[1], {index}, {item})')
        return [out]
    lowering.line(depth, f'list_check_index({out}[1], {index})')  # the item, row by row
    indexes = lowering.loop_nest(dims, depth)
    lowering.line(depth + len(dims),
                  f'{out}[0][{", ".join([index] + indexes)}] = {fused(indexes).render()}')
    lowering.line(depth, f'{out}[1][{index}] = True')
    return [out]


@_rule(list_ops.GET_ITEM)
def _list_get(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    handle, index = inputs
    _, dims = lowering.lists.layout(node, node.inputs[0])
    out = lowering.result(node)
    data, written = _elements(lowering, node.inputs[0], handle)
    expr = f'list_get({data}, {written}, {index})'
    if dims:
        expr = f'copied({expr})'
    spec = (node.outputs[0].dtype, TensorShape(dims))
    lowering.line(depth, f'{out} = {cast(node, expr, spec, same=True)}')
    return [out]


@_rule(list_ops.STACK)
def _list_stack(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    (handle,) = inputs
    lowering.lists.layout(node, node.inputs[0])
    out = lowering.result(node)
    data, written = _elements(lowering, node.inputs[0], handle)
    lowering.line(depth, f'list_check_written({written})')
    # no copy when nothing writes the list afterwards
    expr = data if node.inputs[0] in lowering.lists.unconsumed else f'copied({data})'
    lowering.line(depth, f'{out} = {expr}')
    return [out]


@_rule(list_ops.LENGTH)
def _list_length(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    out = lowering.result(node)
    _, written = _elements(lowering, node.inputs[0], inputs[0])
    lowering.line(depth, f'{out} = np.int32(len({written}))')
    return [out]


@_rule(list_ops.FROM_TENSOR)
def _list_from_tensor(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    """TensorArray.unstack: the rows of a tensor (copied: writes may update the list)."""
    lowering.lists.layout(node, node.outputs[0])
    tensor = inputs[0]
    out = lowering.result(node)
    lowering.line(depth, f'{out} = (copied(np.ascontiguousarray({tensor})), '
                         f'np.ones({tensor}.shape[0], np.bool_))')
    return [out]


@_rule(list_ops.SPLIT)
def _list_split(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    """TensorListSplit into pieces of one length (the elements' first dim): the tensor
    reshaped, after checking the lengths."""
    tensor, _, lengths = inputs
    _, dims = lowering.lists.layout(node, node.outputs[0])
    out = lowering.result(node)
    lowering.line(depth, f'{out} = (list_split({tensor}, {lengths}, {dims[0]}), '
                         f'np.ones({tensor}.shape[0] // {dims[0]}, np.bool_))')
    return [out]


@_rule(list_ops.GATHER)
def _list_gather(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    handle, indices = inputs
    lowering.lists.layout(node, node.inputs[0])
    return lowering.assign(node, f'list_gather({handle}[0], {handle}[1], {indices})', depth,
                           same=True)


@_rule(list_ops.SCATTER)
def _list_scatter(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    handle, tensor, indices = inputs
    lowering.lists.layout(node, node.inputs[0])
    out = _list_to_write(lowering, node, handle, depth)
    lowering.line(depth, f'list_scatter({out}[0], {out}[1], {indices}, {tensor})')
    return [out]


@_rule(list_ops.CONCAT)
def _list_concat(lowering: Lowers, node: Node, inputs: list[str], depth: int) -> list[str]:
    """TensorArray.concat of elements of one shape: the data with its first two axes merged,
    and the elements' lengths."""
    (handle,) = inputs
    _, dims = lowering.lists.layout(node, node.inputs[0])
    lowering.line(depth, f'list_check_written({handle}[1])')
    rows = f'{handle}[0].shape[0] * {dims[0]}'
    tensor = lowering.assign(node, f'reshaped(copied({handle}[0]), ({rows}, '
                                   f'{"".join(f"{d}, " for d in dims[1:])}))', depth, same=True)
    lengths = lowering.assign(node, f'np.full({handle}[1].shape[0], {dims[0]}, np.int64)', depth,
                              spec(node.outputs[1]))
    return tensor + lengths

