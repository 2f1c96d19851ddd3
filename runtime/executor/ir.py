"""The executor's IR: a small, private copy of a graph that optimization passes may rewrite.

A `Program` is a list of `Node`s in program order (a topological order in which stateful nodes
keep the order the user wrote them), its parameter nodes (Placeholders fed by the caller), and
its outputs, a list of `Value`s. Each node's outputs are `Value`s, and a value knows the nodes
that use it (`users`), so a pass rewrites every use at once with
`Program.replace_all_uses_with(old, new)` (the role of fx's `Node.replace_all_uses_with` and of
JAX's `Var`). Lowering copies a graph, so the user's graph is never changed; `str(program)`
prints the optimized form, one node per line (runtime/executor/printer.py).
"""
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from runtime.core.dtypes import DType
from runtime.core.shapes import TensorShape
from runtime.executor.printer import format_program
from runtime.executor.recursion import room
from runtime.ops.registry import CONST, OpDef

# (file, line) where the user created an op, for errors
Origin = tuple[str, int]


class SourceTensor(Protocol):
    """A tensor of the graph being lowered, as lowering reads it (runtime/graph/graph.py's
    SymbolicTensor: the graph imports the executor, not the other way round)."""

    @property
    def op(self) -> 'SourceOp': ...

    @property
    def value_index(self) -> int: ...

    @property
    def dtype(self) -> DType: ...

    @property
    def shape(self) -> TensorShape: ...


class SourceOp(Protocol):
    """The graph Operation a Node copies: what lowering reads, and what errors name
    (`node.op`, an `OpError`'s `.op`)."""

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def opdef(self) -> OpDef: ...

    @property
    def inputs(self) -> Sequence[SourceTensor]: ...

    @property
    def outputs(self) -> Sequence[SourceTensor]: ...

    @property
    def control_inputs(self) -> Sequence['SourceOp']: ...

    @property
    def attrs(self) -> Mapping[str, Any]: ...

    @property
    def payload(self) -> Any: ...

    @property
    def origin(self) -> Origin | None: ...


class SourceGraph(Protocol):
    """A graph being lowered: its ops in order and the functions its control-flow ops name."""

    @property
    def operations(self) -> Iterable[SourceOp]: ...

    @property
    def library(self) -> Mapping[str, 'SourceFunction']: ...


class SourceFunction(SourceGraph, Protocol):
    """A library function of the graph: a graph with its parameters and results."""

    @property
    def inputs(self) -> Sequence[SourceTensor]: ...

    @property
    def outputs(self) -> Sequence[SourceTensor]: ...


@dataclass(slots=True, eq=False, repr=False)
class Value:
    """One output of a node: `value.node.outputs[value.index]`.

    `dtype` and `shape` are the tensor's static type (shape may be partial); `users` is the
    set of nodes that take it as an input, in the order they started using it (an insertion-
    ordered dict used as a set). A Program's outputs are not users; passes that redirect uses
    go through `Program.replace_all_uses_with`, which updates both. Values compare and hash by
    identity.
    """

    node: 'Node'
    index: int
    dtype: DType
    shape: TensorShape
    users: dict['Node', None] = field(default_factory=dict)

    @property
    def constant(self) -> Any:
        """The value if this is the output of a Const node, else None."""
        node = self.node
        return node.attrs['value'] if node.opdef is CONST else None

    def __repr__(self) -> str:
        return f'<Value {self.node.name}:{self.index} {self.dtype.name}{self.shape}>'


class Node:
    """One op of a Program.

    - `opdef`: the op's OpDef (the registry's facts: kernel, infix form, statefulness...);
      `type` is its op type name, `name` the graph op's name (`while/Greater`).
    - `inputs`: the Values it reads (assigning the list updates each value's `users`).
    - `outputs`: its Values, one per output.
    - `control`: Nodes that must run first; `attrs`: the op's attrs; `payload`: a variable's
      storage, a generator...
    - `op`: the graph Operation it copies and `origin` (file, line) where the user created it,
      for errors.
    - the facts passes proved, read by the code generators: `counted` (a `Counted` While,
      passes/loops.py), `in_place` (its first input may be written in place,
      passes/in_place.py).
    - `branches`: for control flow, its functions as Programs: (then, else) for an If,
      (cond, body) for a While, one per index for a Case; their params line up with the
      node's inputs after the predicate (If) or the index (Case), or with all its inputs
      (While).
    - `checks`: input positions whose run-time check (`opdef.nonzero`) still runs; a pass
      removes a position once it has proved the check passes.
    """

    __slots__ = ('op', 'opdef', 'name', '_inputs', 'outputs', 'control', 'attrs', 'payload',
                 'origin', 'branches', 'checks', 'counted', 'in_place')

    def __init__(self, op: SourceOp | None, opdef: OpDef, name: str, inputs: Sequence[Value],
                 control: list['Node'], attrs: dict[str, Any], payload: Any,
                 origin: Origin | None, specs: Iterable[tuple[DType, TensorShape]]) -> None:
        self.op = op
        self.opdef = opdef
        self.name = name
        self._inputs: list[Value] = []
        self.inputs = inputs
        self.outputs = [Value(self, i, dtype, shape) for i, (dtype, shape) in enumerate(specs)]
        self.control = control
        self.attrs = attrs
        self.payload = payload
        self.origin = origin
        self.branches: tuple[Program, ...] = ()
        self.checks: tuple[int, ...]
        self.checks = tuple(i for i in opdef.nonzero
                            if i < len(inputs) and inputs[i].dtype.is_integer)
        self.counted: Counted | None = None
        self.in_place = False

    @property
    def type(self) -> str:
        return self.opdef.name

    @property
    def inputs(self) -> list[Value]:
        return self._inputs

    @inputs.setter
    def inputs(self, values: Iterable[Value]) -> None:
        values = list(values)
        for value in self._inputs:
            value.users.pop(self, None)
        for value in values:
            value.users[self] = None
        self._inputs = values

    def make_const(self, value: Any) -> None:
        """Turn this node into a Const holding `value` (a numpy value of its output dtype)."""
        self.opdef = CONST
        self.inputs = []
        self.control = []
        self.attrs = {'dtype': self.outputs[0].dtype, 'value': value}
        self.payload = None
        self.checks = ()

    def detach(self) -> None:
        """Stop using this node's inputs (it is leaving the program)."""
        self.inputs = []

    def __repr__(self) -> str:
        return f'<Node {self.name} ({self.type})>'


@dataclass(frozen=True, slots=True)
class Counted:
    """A While that counts (passes/loops.py): `while i < limit: ...; i = i + step` with an
    integer `i`, which the code generators write as a Python `for` over the values `i` takes.

    `counter`: the index of `i` among the loop variables; the limit is the invariant loop
    variable `limit_param` or, when that is None, the constant `limit_constant`; `step`: the
    positive constant step; `increment`: the body's node computing `i + step` (not emitted)."""

    counter: int
    limit_param: int | None
    limit_constant: Any
    step: Any
    increment: Node


@dataclass(slots=True, eq=False, repr=False)
class Program:
    """A function: `params` (Placeholder Nodes, fed in order), `nodes` in program order
    (params included), `outputs` (Values). `name` names it in printouts."""

    name: str
    nodes: list[Node]
    params: list[Node]
    outputs: list[Value]

    def replace_all_uses_with(self, old: Value, new: Value) -> None:
        """Make every user of Value `old`, and the program's outputs, read Value `new`."""
        if old is new:
            return
        for user in list(old.users):
            user.inputs = [new if value is old else value for value in user.inputs]
        self.outputs = [new if value is old else value for value in self.outputs]

    def retain(self, keep: Callable[[Node], bool]) -> None:
        """Keep the nodes for which `keep(node)` is true, in order; the others leave (and stop
        being users of their inputs)."""
        kept = []
        for node in self.nodes:
            if keep(node):
                kept.append(node)
            else:
                node.detach()
        self.nodes = kept

    def __str__(self) -> str:
        return format_program(self)


def lower(graph: SourceGraph, inputs: Sequence[SourceTensor],
          outputs: Sequence[SourceTensor]) -> Program:
    """A Program copying `graph`'s ops (and, into If/Case/While nodes, their library functions);
    `inputs` (tensors of Placeholders) become its parameters. It recurses once per nesting level
    of control flow, with room for that whatever the caller's recursion limit (recursion.py)."""
    with room():
        return _lower(graph, inputs, outputs)


def _lower(graph: SourceGraph, inputs: Sequence[SourceTensor],
           outputs: Sequence[SourceTensor]) -> Program:
    nodes: dict[SourceOp, Node] = {}
    order: list[Node] = []
    for op in graph.operations:
        node = Node(op, op.opdef, op.name,
                    [nodes[t.op].outputs[t.value_index] for t in op.inputs],
                    [nodes[c] for c in op.control_inputs], dict(op.attrs), op.payload,
                    op.origin, [(t.dtype, t.shape) for t in op.outputs])
        if op.opdef.control_flow:
            node.branches = tuple(_lower_function(graph.library[ref.name])
                                  for ref in op.opdef.functions(op.attrs))
        nodes[op] = node
        order.append(node)
    params = [nodes[t.op] for t in inputs]
    outs = [nodes[t.op].outputs[t.value_index] for t in outputs]
    return Program(getattr(graph, 'name', 'graph'), order, params, outs)


def _lower_function(func_graph: SourceFunction) -> Program:
    return _lower(func_graph, func_graph.inputs, func_graph.outputs)
