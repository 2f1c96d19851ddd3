"""TensorList alias analysis for the native backend: which list values are versions of one
list (through writes, loops, conds and Identity), each list's element dtype and shape, and
which writes may update a list in place (nothing else can see the old version).

In native code a list is a pair of arrays `(data, written)` allocated when it is reserved, and a
list that grows (`dynamic_size=True`) the triple `(data, written, size)`. A list whose elements
have no fixed shape is *boxed*: its ops call their numpy kernels (native/rules/kernel.py) on the
runtime's own TensorList.
"""
from typing import Any, Callable

import numpy as np

from runtime.core import dtypes
from runtime.core.dtypes import DType
from runtime.core.shapes import TensorShape
from runtime.executor import emit
from runtime.executor.ir import Node, Program, Value
from runtime.executor.native.rules import Unsupported, np_name
from runtime.executor.native.rules.lists import native_problem
from runtime.ops import list_ops, registry, state
from runtime.ops.state import VariableStorage


def mixed_boxing(node: Node, is_boxed: Callable[[Value], bool]) -> bool:
    """Whether a value crossing the control-flow `node` (a loop variable, a branch's operand
    or result) is boxed on one side and native on the other, which native code cannot pass:
    then the node runs as the default executor's plans. Lists and variables have forms of
    their own on both sides."""
    control_flow = node.opdef.control_flow
    if control_flow == 'while':
        cond, body = node.branches
        crossings = [[ref, cond.params[k].outputs[0], body.params[k].outputs[0],
                      body.outputs[k], node.outputs[k]] for k, ref in enumerate(node.inputs)]
    else:
        crossings = [[ref] + [branch.params[k].outputs[0] for branch in node.branches]
                     for k, ref in enumerate(node.inputs[1:])]
        crossings += [[value] + [branch.outputs[k] for branch in node.branches]
                      for k, value in enumerate(node.outputs)]
    return any(len({is_boxed(value) for value in values}) > 1 for values in crossings
               if values[0].dtype not in (dtypes.variant, dtypes.resource))


def writes_inline(node: Node, holds: Callable[[Value], bool], depth: int, loops: int) -> bool:
    """Whether the emitter writes the control-flow `node` inline (`Lowering.inlines`): room
    for it at `depth` inside `loops` loops (emit.py's limits), a predicate or index native
    code holds, and no value boxed on one side of it only (`holds`: as in `settle_boxing`)."""
    control_flow = node.opdef.control_flow
    return depth < emit.MAX_DEPTH and (control_flow != 'while' or loops < emit.MAX_LOOPS) and \
        (control_flow == 'while' or holds(node.inputs[0])) and \
        not mixed_boxing(node, lambda value: not holds(value))


def uses_of(program: Program) -> dict[Value, list[tuple[Any, int]]]:
    """Each Value of `program` that is used -> [(user node, operand position)], with
    ('output', k) for the program's outputs (a Value's `users` knows no positions)."""
    uses: dict[Value, list[tuple[Any, int]]] = {}
    for node in program.nodes:
        for position, value in enumerate(node.inputs):
            uses.setdefault(value, []).append((node, position))
    for k, value in enumerate(program.outputs):
        uses.setdefault(value, []).append(('output', k))
    return uses


class Lists:
    """TensorList values: which belong to one list (through writes, loops and conds), the
    element dtype and shape of each list, and whether its writes may update it in place."""

    def __init__(self, program: Program) -> None:
        """The lists of `program`; none is boxed until `settle_boxing`."""
        self.parent: dict[Value, Value] = {}  # union-find: a list Value -> one of its list's
        self.element_shape: dict[Value, TensorShape] = {}  # root -> its elements' shape
        self.element_dtype: dict[Value, DType] = {}  # root -> its elements' dtype
        self.owned: set[Value] = set()  # list Values that a write may update in place
        self.unconsumed: set[Value] = set()  # list Values that are only read
        self.growing: set[Value] = set()
        self.entry_copies: set[tuple[Node, int]] = set()  # (While node, k): loop var k
        # starts as a copy of its input
        self.boxed: set[Value] = set()  # the roots of the lists held as the runtime's own
        self._collect(program)

    def find(self, key: Value) -> Value:
        while self.parent.get(key, key) != key:
            key = self.parent[key]
        return key

    def union(self, a: Value, b: Value) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[a] = b
            if a in self.element_dtype:
                self.element_dtype.setdefault(b, self.element_dtype.pop(a))
            if a in self.element_shape:
                self.describe(b, shape=self.element_shape.pop(a))

    def describe(self, key: Value, dtype: DType | None = None,
                 shape: TensorShape | None = None) -> None:
        root = self.find(key)
        self.parent.setdefault(root, root)
        if dtype is not None:
            self.element_dtype.setdefault(root, dtype)
        known = self.element_shape.get(root, TensorShape(None))
        if shape is _RAGGED:
            self.element_shape[root] = _RAGGED
        elif shape is not None and known is not _RAGGED:
            try:
                self.element_shape[root] = known.merge_with(shape)
            except ValueError:  # elements of different shapes: the list has no native layout
                self.element_shape[root] = _RAGGED

    def _collect(self, program: Program) -> None:
        self._link(program)
        self._ownership(program, set())

    def _ownership(self, program: Program, owned_params: set[int]) -> None:
        """Mark the list values of `program` a write may update in place: one consumer (a
        write, loop, cond or output), no read after it, and, for a param, an owned value
        outside (`owned_params`: the indices of those)."""
        order = {node: i for i, node in enumerate(program.nodes)}
        params = {p.outputs[0]: k for k, p in enumerate(program.params)}
        for key, users in uses_of(program).items():
            if key not in self.parent:
                continue
            consumers = [u for u in users if u[0] == 'output' or u[0].opdef not in _READS]
            last = max((order[u[0]] for u in consumers if u[0] != 'output'),
                       default=len(program.nodes))
            late_read = any(u[0] != 'output' and u[0].opdef in _READS and order[u[0]] > last
                            for u in users)
            if len(consumers) <= 1 and not late_read and params.get(key, -1) in \
                    owned_params | ({-1} if key not in params else set()):
                self.owned.add(key)
            if not consumers:
                self.unconsumed.add(key)
        for node in program.nodes:
            control_flow = node.opdef.control_flow
            if control_flow == 'while':
                # a list the loop writes that something else also sees (two loop vars
                # starting as one reserved list, as a While gradient's accumulators do) is
                # copied once when the loop starts, rather than at every write
                lists = {k for k, ref in enumerate(node.inputs) if ref in self.parent}
                owned = {k for k in lists if node.inputs[k] in self.owned}
                cond, body = node.branches
                self._ownership(cond, set())  # the body gets the values the condition saw
                self._ownership(body, lists)
                self.entry_copies.update((node, k) for k in lists - owned
                                         if body.params[k].outputs[0] in self.owned)
            elif control_flow in ('if', 'case'):
                owned = {k for k, ref in enumerate(node.inputs[1:]) if ref in self.owned}
                for branch in node.branches:
                    self._ownership(branch, owned)

    def _link(self, program: Program) -> None:
        for node in program.nodes:
            opdef = node.opdef
            # the list a list op makes (every list op has an output; other nodes may have none)
            out: Any = node.outputs[0] if node.outputs else None
            if opdef is list_ops.RESERVE:
                self.describe(out, node.attrs['element_dtype'], node.attrs['element_shape'])
            elif opdef is list_ops.SET_ITEM:
                self.union(node.inputs[0], out)
                self.describe(out, node.attrs['element_dtype'], node.inputs[2].shape)
                if node.attrs.get('dynamic_size'):
                    self.growing.add(out)
            elif opdef is list_ops.GET_ITEM:
                self.describe(node.inputs[0], node.attrs['element_dtype'],
                              node.attrs['_element_shape'])
            elif opdef is list_ops.STACK:
                self.describe(node.inputs[0], node.attrs['element_dtype'],
                              node.attrs['element_shape'])
            elif opdef is list_ops.LENGTH:
                self.describe(node.inputs[0])
            elif opdef in (list_ops.GATHER, list_ops.CONCAT):
                self.describe(node.inputs[0], node.attrs['element_dtype'],
                              node.attrs['element_shape'] if opdef is list_ops.GATHER else None)
            elif opdef is list_ops.SCATTER:
                self.union(node.inputs[0], out)
                self.describe(out, node.inputs[1].dtype, node.inputs[1].shape[1:]
                              if node.inputs[1].shape.rank else None)
                if node.attrs.get('dynamic_size'):
                    self.growing.add(out)
            elif opdef is list_ops.FROM_TENSOR:
                self.describe(out, node.inputs[0].dtype, node.inputs[0].shape[1:]
                              if node.inputs[0].shape.rank else None)
            elif opdef is list_ops.SPLIT:
                self.describe(out, node.inputs[0].dtype, split_element_shape(node))
            control_flow = opdef.control_flow
            if control_flow == 'while':
                cond, body = node.branches
                for k, ref in enumerate(node.inputs):
                    if ref.dtype is dtypes.variant:
                        for other in (cond.params[k].outputs[0], body.params[k].outputs[0],
                                      body.outputs[k], node.outputs[k]):
                            self.union(ref, other)
            elif control_flow in ('if', 'case'):
                for k, ref in enumerate(node.inputs[1:]):
                    if ref.dtype is dtypes.variant:
                        for branch in node.branches:
                            self.union(ref, branch.params[k].outputs[0])
                for k, value in enumerate(node.outputs):
                    if value.dtype is dtypes.variant:
                        for branch in node.branches:
                            self.union(node.outputs[k], branch.outputs[k])
            elif opdef is registry.IDENTITY and node.inputs[0].dtype is dtypes.variant:
                self.union(node.inputs[0], out)
            for branch in node.branches:
                self._link(branch)
        self.growing = {self.find(key) for key in self.growing}

    def layout(self, node: Node, ref: Value) -> tuple[str, list[int]]:
        """(numpy dtype name, element dims) of the list that `ref` is a value of; raises
        Unsupported when it has none (the analysis boxed it)."""
        problem = 'its TensorArray is held by the runtime' if self.is_boxed(ref) else \
            self.layout_problem(ref)
        if problem is not None:
            raise Unsupported(node, problem)
        root = self.find(ref)
        name = np_name(self.element_dtype[root])
        assert name is not None  # layout_problem checked it
        return name, self.element_shape[root].as_list()

    def layout_problem(self, ref: Value) -> str | None:
        """Why the list of `ref` has no native layout (elements of no fixed shape, or of a
        dtype native code cannot hold), or None."""
        root = self.find(ref)
        shape = self.element_shape.get(root, TensorShape(None))
        dtype = self.element_dtype.get(root)
        if dtype is None or not shape.is_fully_defined() or np_name(dtype) is None:
            return f'its TensorArray elements have shape {shape}, not a fixed one'
        return None

    def element_dims(self, ref: Value) -> list[int] | None:
        """The element dims of the list of `ref` when they are fixed, else None."""
        root = self.find(ref)
        shape = self.element_shape.get(root, TensorShape(None))
        if not shape.is_fully_defined():
            return None
        return shape.as_list()

    def grows(self, ref: Value) -> bool:
        """Whether the list of `ref` has dynamic_size=True: then it is `(data, written, size)`
        with room for more than `size` elements, reallocated twice as large when full."""
        return self.find(ref) in self.growing

    def is_boxed(self, ref: Value) -> bool:
        return self.find(ref) in self.boxed

    def settle_boxing(self, program: Program, holds: Callable[[Value], bool]) -> None:
        """Decide which lists are boxed, before anything is written: those a kernel call
        reads or makes (an op native code has no rule for, a list op whose `native_problem`
        says why not, control flow that calls its kernel), the program's params and outputs,
        and every list a native list op reads or writes with a boxed one, until no more are.
        `holds(value)`: whether native code holds a value that is neither a list nor a
        resource (as the emitter decides). It mirrors the emitter's walk: the same nodes
        call kernels there."""
        groups: list[list[Value]] = []  # the lists of each natively written list op
        # (boxed together)
        self._box_walk(program, holds, groups, 1, 0)
        self.boxed.update(self.find(node.outputs[0]) for node in program.params
                          if node.outputs[0].dtype is dtypes.variant)
        self.boxed.update(self.find(ref) for ref in program.outputs if ref.dtype is dtypes.variant)
        changed = True
        while changed:
            changed = False
            for group in groups:
                roots = {self.find(ref) for ref in group}
                if roots & self.boxed and not roots <= self.boxed:
                    self.boxed |= roots
                    changed = True

    def _box_walk(self, program: Program, holds: Callable[[Value], bool],
                  groups: list[list[Value]], depth: int, loops: int) -> None:
        """The lists of `program` that kernel calls read or make boxed (`depth` and `loops`:
        the block depth and the loops around it, as in the emitter's walk)."""
        for node in program.nodes:
            if node.opdef is registry.PLACEHOLDER:
                continue  # a branch's params are its operands' lists
            lists = [ref for ref in node.inputs + node.outputs if ref.dtype is dtypes.variant]
            control_flow = node.opdef.control_flow
            if control_flow is not None:
                if not writes_inline(node, holds, depth, loops):
                    self.boxed.update(self.find(ref) for ref in lists)
                elif control_flow == 'while':
                    for branch in node.branches:
                        self._box_walk(branch, holds, groups, depth + 1, loops + 1)
                else:
                    inner = depth + (len(node.branches) > 1)  # a lone default branch: no block
                    for branch in node.branches:
                        self._box_walk(branch, holds, groups, inner, loops)
            elif lists:
                if native_problem(self, node) is None and \
                        all(holds(ref) for ref in node.inputs + node.outputs
                            if ref.dtype not in (dtypes.variant, dtypes.resource)):
                    groups.append(lists)
                else:
                    self.boxed.update(self.find(ref) for ref in lists)

    def root(self, ref: Value) -> Value:
        return self.find(ref)

    def in_place(self, ref: Value) -> bool:
        return ref in self.owned


_RAGGED = TensorShape(None)  # the element shape of a list written with elements of two shapes
_READS = {list_ops.GET_ITEM, list_ops.STACK, list_ops.LENGTH, list_ops.GATHER, list_ops.CONCAT}


def split_element_shape(node: Node) -> TensorShape | None:
    """The element shape of TensorListSplit's list when its lengths are one constant, else
    None (then the list's readers tell it)."""
    lengths, shape = node.inputs[2].constant, node.inputs[0].shape
    if lengths is None or not np.size(lengths) or len(set(np.ravel(lengths).tolist())) != 1 \
            or not shape.rank:
        return None
    return TensorShape([int(np.ravel(lengths)[0])]).concatenate(shape[1:])


def refine_shapes(lists: Lists, program: Program,
                  storages: dict[Value, VariableStorage] | None = None) -> None:
    """Give the values read from a list of fixed element shape (a TensorArray whose element
    shape only its writes tell), the values read from a variable of known shape (a restored
    graph's reads have no shape), and the elementwise ops on them (their `elementwise` tag;
    their shape follows from their operands'), the rank that implies: native code holds
    values of known rank only. The Program is the executor's copy. `storages`: the resource
    Values whose VariableStorage is known (the handles, through branches and loops)."""
    storages = {} if storages is None else storages
    for node in program.nodes:
        if node.opdef in (state.VAR_HANDLE, registry.PLACEHOLDER) and \
                isinstance(node.payload, VariableStorage):
            storages[node.outputs[0]] = node.payload
        for branch in node.branches:
            first = 0 if node.opdef.control_flow == 'while' else 1  # after If's predicate
            storages.update((param.outputs[0], storages[ref]) for param, ref in
                            zip(branch.params, node.inputs[first:]) if ref in storages)
            refine_shapes(lists, branch, storages)
        if not node.outputs or node.outputs[0].shape.rank is not None:
            continue
        opdef = node.opdef
        if opdef in _READS and opdef is not list_ops.LENGTH:
            dims = lists.element_dims(node.inputs[0])
            if dims is None:
                continue
            shape = {list_ops.GET_ITEM: dims, list_ops.STACK: [None] + dims,
                     list_ops.GATHER: [None] + dims, list_ops.CONCAT: [None] + dims[1:]}[opdef]
            node.outputs[0].shape = TensorShape(shape)
        elif opdef is state.READ and node.inputs[0] in storages:
            node.outputs[0].shape = storages[node.inputs[0]].shape
        elif opdef.elementwise is not None and opdef.infer is not None and len(node.outputs) == 1:
            try:
                ((_, shape),) = opdef.infer(node.inputs, node.attrs)
            except (ValueError, IndexError):
                continue
            node.outputs[0].shape = shape
