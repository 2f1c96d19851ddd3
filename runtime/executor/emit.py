"""The structured walk of a Program that both backends share: the default executor's code
generator (codegen.py, numpy) and `jit_compile=True`'s (native/emitter.py, numba).

`Emitter.emit` walks a Program's nodes in order with its params bound to names: params,
constants, If as `if`/`else`, Case as `if`/`elif`/`else` on its index (an index out of range
runs the last branch, as TensorFlow's Case does), While as `while` (a counted loop as a `for`
over the counter's values), with the functions of the control-flow nodes inlined at the next
depth, and the loop variables that changed reassigned at the end of the body. A backend
subclasses it and fills the hooks:

- `plan(program, skip)`: the schedule facts of a block, settled in one pass before any of it
  is written (torch.fx's last uses): a record the backend's other hooks read;
- `before(node, plan, depth)` / `after(...)`: lines around each node (awaiting a future,
  freeing the operands the node used last);
- `constant(node, depth)`, `unfed(node)`, `emit_op(node, inputs, depth, plan, targets)`: what
  a Const, a param nobody feeds and every other op become;
- `inlines(node, depth)`: whether a control-flow node is written inline (else `emit_op`;
  `has_room` says whether Python's limits leave room for it), `deep_branch`: a branch nested
  deeper than `MAX_DEPTH`, or the body of a loop inside `MAX_LOOPS` others, written out of line
  (by a backend that inlines every control-flow node);
- the names of results and loop variables, the direct targets (`total = total + i` rather than
  `add = total + i; total = add`), the counted loop's head and end, and `free(depth, names)`.

Names come from one `Namespace` (torch.fx's `_Namespace`): legal identifiers, unique in the
generated function, never a reserved name of the backend (its helpers).
"""
import abc
import builtins
import keyword
import re
from typing import Any, Collection, Generic, Iterable, Sequence, TypeVar, cast

from runtime.core import errors
from runtime.core.dtypes import DType
from runtime.executor.ir import Counted, Node, Program, Value
from runtime.executor.recursion import room
from runtime.ops.registry import CONST, PLACEHOLDER

MAX_DEPTH = 40  # Python refuses code nested 100 blocks deep; loop nests need some of them
MAX_LOOPS = 12  # Python refuses more than 20 loops (and `try`s) nested in one function

_PYTHON_NAMES = frozenset(keyword.kwlist) | frozenset(dir(builtins))
# the schedule facts of a block, whatever record a backend's `plan` makes
Plan = TypeVar('Plan')
# a bound of a counted loop as the generated code writes it: a name or a literal
Source = str


class Namespace:
    """Unique, legal Python identifiers made from op names (torch.fx's `_Namespace`)."""

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self._taken = set(reserved) | _PYTHON_NAMES
        self._counts: dict[str, int] = {}

    def create_name(self, candidate: str, snake_case: bool = True) -> str:
        """A new name from `candidate` (an op or tensor name; `snake_case=False` keeps an op
        type's capitals, as for kernels: `GatherV2`)."""
        base = _identifier(candidate) if snake_case else re.sub(r'\W', '_', candidate)
        name = base
        while name in self._taken:
            count = self._counts[base] = self._counts.get(base, 0) + 1
            name = f'{base}_{count}'
        self._taken.add(name)
        return name


def _identifier(candidate: str) -> str:
    """`while/Greater` -> `greater`, `GatherV2` -> `gather_v2`, `Greater/y` -> `greater_y`."""
    parts = [p for p in candidate.split('/') if p]
    text = '_'.join(parts[-2:]) if len(parts) > 1 and len(parts[-1]) <= 2 else \
        (parts[-1] if parts else 'v')
    text = re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', text).lower()
    text = re.sub(r'\W', '_', text)
    if not text or text[0].isdigit():
        text = '_' + text
    return text


def targets(names: Iterable[str | None]) -> str:
    """`a, b`: either side of an assignment of `names` (each named by then: only the output of
    a node `emit` skipped has no name, and no assignment takes it)."""
    return ', '.join(cast(Iterable[str], names))


def direct_targets(program: Program, args: Sequence[str | None],
                   outputs: Sequence[str | None], counter: int | None = None
                   ) -> dict[Value, str]:
    """{value: name} for outputs of `program` (a branch or loop body whose params are bound to
    the names `args`) that can be assigned to their target names `outputs` at once
    (`total = total + i`, not `add = total + i` and later `total = add`): an output computed by
    a node of the program, that is no other output, into a name whose bound params are not read
    after that node nor returned."""
    position = {node: j for j, node in enumerate(program.nodes)}
    direct: dict[Value, str] = {}
    for k, (value, target) in enumerate(zip(program.outputs, outputs)):
        node = value.node
        if k == counter or target is None or node in program.params or \
                node.opdef is CONST or value in direct or \
                sum(v is value for v in program.outputs) != 1:
            continue
        bound = [p.outputs[0] for p, name in zip(program.params, args) if name == target]
        if any(old in program.outputs or
               any(position.get(user, -1) > position[node] for user in old.users)
               for old in bound):
            continue
        direct[value] = target
    return direct


class Emitter(abc.ABC, Generic[Plan]):
    """The walk (see the module docstring). `lines` are the body's lines; `names` maps each
    Value to the local (or constant) holding it; `namespace` makes the names. A backend
    implements the abstract hooks (a class missing one cannot be made) and may override the
    others; `Plan` is the type of the record its `plan` makes."""

    header_lines = 0  # lines of the generated function before `lines` (for `line_nodes`)
    assigns_directly = False  # results assigned to their targets at once (direct_targets)

    def __init__(self, reserved: Iterable[str] = ()) -> None:
        self.namespace = Namespace(reserved)
        self.names: dict[Value, str | None] = {}
        self.lines: list[str] = []
        self.line_nodes: dict[int, Node] = {}  # line in the generated function -> its Node
        self.loop_nesting = 0  # the loops around the line being written

    def line(self, depth: int, text: str, node: Node | None = None) -> None:
        self.lines.append('    ' * depth + text)
        if node is not None:
            self.line_nodes[len(self.lines) + self.header_lines] = node

    # ---- the hooks ----------------------------------------------------------------------------

    @abc.abstractmethod
    def plan(self, program: Program, skip: Collection[Node]) -> Plan:
        """The schedule facts of `program`'s nodes, read by the other hooks."""

    def before(self, node: Node, plan: Plan, depth: int) -> None:
        """Lines before `node` (not a param or a constant)."""

    def after(self, node: Node, plan: Plan, depth: int) -> None:
        """Lines after `node`."""

    def finish(self, program: Program, plan: Plan, depth: int) -> list[str]:
        """Lines at the end of the block; returns the names of locals the block made that its
        caller may free once it has copied them."""
        return []

    @abc.abstractmethod
    def unfed(self, node: Node) -> None:
        """A param with no value bound: raise."""

    @abc.abstractmethod
    def constant(self, node: Node, depth: int) -> str:
        """The name holding the value of the Const `node`."""

    @abc.abstractmethod
    def emit_op(self, node: Node, inputs: list[str | None], depth: int, plan: Plan,
                targets: dict[Value, str]) -> Sequence[str | None] | None:
        """Write `node` (no control flow written inline) with its operands in the locals
        `inputs`; return its outputs' names (None: the names are set already)."""

    def inlines(self, node: Node, depth: int) -> bool:
        """Whether the control-flow `node` is written inline as `if`/`while`."""
        return True

    def has_room(self, node: Node, depth: int) -> bool:
        """Whether Python's limits leave room for the control-flow `node` at `depth` inline
        with its blocks whole: nested less than MAX_DEPTH deep, a loop inside fewer than
        MAX_LOOPS others (a backend inlining only then never needs `deep_branch`)."""
        return depth < MAX_DEPTH and \
            (node.opdef.control_flow != 'while' or self.loop_nesting < MAX_LOOPS)

    def deep_branch(self, node: Node, branch: Program, args: Sequence[str | None],
                    outs: Sequence[str | None], depth: int) -> Sequence[str | None]:
        """A branch nested deeper than MAX_DEPTH, or a loop's body inside more than MAX_LOOPS
        loops, written out of line: the names of its results (`outs` suggests them). Only a
        backend whose `inlines` goes beyond `has_room` reaches it."""
        raise NotImplementedError(
            f'{type(self).__name__} inlines {node.name!r} deeper than Python allows: its '
            f'`inlines` must keep to `has_room`, or it must write such blocks out of line '
            f'(`deep_branch`).')

    @abc.abstractmethod
    def result_names(self, node: Node, targets: dict[Value, str]) -> list[str]:
        """The names of a control-flow node's results (`targets`: those assigned directly; a
        While's are passed to `loop_results`)."""

    @abc.abstractmethod
    def loop_variables(self, node: Node, inputs: list[str | None]) -> list[str]:
        """The names of a While's loop variables (its inputs are in `inputs`)."""

    def loop_entry(self, node: Node, k: int, name: str | None) -> str | None:
        """The value loop variable `k` of the While `node` starts from (its input is in the
        local `name`): `name`, or a copy the backend makes."""
        return name

    @abc.abstractmethod
    def loop_results(self, node: Node, loop_vars: list[str], outs: list[str],
                     depth: int) -> Sequence[str | None]:
        """The names of a While's results after the loop (`outs`: from `result_names`)."""

    def loop_test(self, cond: Program, loop_vars: list[str]) -> str | None:
        """The loop condition as one expression over the loop variables, or None."""
        return None

    @abc.abstractmethod
    def counted_head(self, node: Node, counter: str, start: str, limit: Source, step: Source,
                     depth: int) -> None:
        """The `for` line(s) of a counted loop: `counter` takes the values from `start` by
        `step` below `limit` (each a name or a literal)."""

    @abc.abstractmethod
    def counted_end(self, node: Node, counter: str, start: str, limit: Source, step: Source,
                    depth: int) -> None:
        """The line giving `counter` its value after the loop."""

    @abc.abstractmethod
    def counted_bound(self, node: Node, name: str, value: Any, dtype: DType) -> Source:
        """The source of the constant `value` (`name`: 'limit' or 'step') of a counted loop
        whose counter has `dtype`."""

    def free(self, depth: int, names: Iterable[str | None], keep: Collection[str | None] = ()
             ) -> None:
        """Free the locals `names` but `keep` (no-op for a backend that never frees)."""

    # ---- the walk -----------------------------------------------------------------------------

    @room()  # it recurses per nesting level, whatever the caller's recursion limit
    def emit(self, program: Program, args: Sequence[str | None], depth: int,
             skip: Collection[Node] = frozenset(), targets: dict[Value, str] | None = None
             ) -> tuple[list[str | None], list[str]]:
        """Emit `program` with its params bound to the names `args` (None for an output of a
        node in `skip`, which is not emitted). Returns its outputs' names and the names the
        caller may free (see `finish`). `targets` maps values to the names they are assigned to
        (a loop variable)."""
        targets = targets or {}
        names = self.names
        names.update((p.outputs[0], a) for p, a in zip(program.params, args))
        plan = self.plan(program, skip)
        for node in program.nodes:
            if node in skip:
                continue
            opdef = node.opdef
            if opdef is PLACEHOLDER:
                if node.outputs[0] not in names:
                    self.unfed(node)
                continue
            if opdef is CONST:
                names[node.outputs[0]] = self.constant(node, depth)
                continue
            self.before(node, plan, depth)
            inputs = [names.get(v) for v in node.inputs]
            outs: Sequence[str | None] | None
            if opdef.control_flow is not None and self.inlines(node, depth):
                outs = self.emit_control_flow(node, inputs, depth, targets)
            else:
                outs = self.emit_op(node, inputs, depth, plan, targets)
            if outs is not None:
                names.update(zip(node.outputs, outs))
            self.after(node, plan, depth)
        leftovers = self.finish(program, plan, depth)
        return [names.get(v) for v in program.outputs], leftovers

    def emit_control_flow(self, node: Node, inputs: list[str | None], depth: int,
                          targets: dict[Value, str]) -> Sequence[str | None]:
        outs = self.result_names(node, targets)
        if node.opdef.control_flow == 'while':
            return self.emit_while(node, inputs, outs, depth)
        test, args = inputs[0], inputs[1:]
        headers: list[str | None]
        if node.opdef.control_flow == 'if':
            headers = [f'if {test}:', 'else:']
        else:
            headers = [f'{"el" if k else ""}if {test} == {k}:'
                       for k in range(len(node.branches) - 1)]
            headers.append('else:')
            if len(headers) == 1:  # only the default branch: no block
                headers = [None]
        for k, (branch, header) in enumerate(zip(node.branches, headers)):
            if header is not None:
                self.line(depth, header, node if k == 0 else None)
            self.emit_branch(node, branch, args, outs, depth + (header is not None),
                             block=header is not None)
        return outs

    def emit_branch(self, node: Node, branch: Program, args: Sequence[str | None],
                    outs: Sequence[str | None], depth: int, block: bool = True) -> None:
        """One branch of an If or a Case at `depth`, its results assigned to `outs` (`block`:
        it is the body of an `if`/`else`, which must not be empty)."""
        start = len(self.lines)
        results: Sequence[str | None]
        leftovers: list[str] = []
        if depth > MAX_DEPTH:  # e.g. a long if/elif chain: Python refuses code nested
            results = self.deep_branch(node, branch, args, outs, depth)
        else:
            direct = direct_targets(branch, args, outs) if self.assigns_directly else None
            results, leftovers = self.emit(branch, args, depth, targets=direct)
        copies = [(out, result) for out, result in zip(outs, results) if out != result]
        if copies:
            self.line(depth, f'{targets([o for o, _ in copies])} = '
                             f'{targets([r for _, r in copies])}')
            self.free(depth, leftovers, outs)
        elif block and len(self.lines) == start:
            self.line(depth, 'pass')

    def emit_while(self, node: Node, inputs: list[str | None], outs: list[str],
                   depth: int) -> Sequence[str | None]:
        self.loop_nesting += 1
        try:
            return self.emit_loop(node, inputs, outs, depth)
        finally:
            self.loop_nesting -= 1

    def emit_loop(self, node: Node, inputs: list[str | None], outs: list[str],
                  depth: int) -> Sequence[str | None]:
        cond, body = node.branches
        loop_vars = self.loop_variables(node, inputs)
        fresh = [(var, self.loop_entry(node, k, name))
                 for k, (var, name) in enumerate(zip(loop_vars, inputs)) if var != name]
        if fresh:
            self.line(depth, f'{targets([v for v, _ in fresh])} = '
                             f'{targets([n for _, n in fresh])}')
        counted = node.counted
        if counted is not None:
            self.emit_counted(node, loop_vars, counted, depth)
            return self.loop_results(node, loop_vars, outs, depth)
        test = self.loop_test(cond, loop_vars)
        if test is not None:  # the condition is one expression: `while a < b:`
            head = len(self.lines)
            self.line(depth, f'while {test}:', node)
        else:
            self.line(depth, 'while True:', node)
            (keep_going,), leftovers = self.emit(cond, loop_vars, depth + 1)
            self.line(depth + 1, f'if not {keep_going}:')
            self.line(depth + 2, 'break')
            self.free(depth + 1, leftovers)
            head = None
        self.emit_body(node, body, loop_vars, depth, head)
        return self.loop_results(node, loop_vars, outs, depth)

    def emit_counted(self, node: Node, loop_vars: list[str], counted: Counted,
                     depth: int) -> None:
        """`for` over the counter's values from its value on entry, by the loop's step, below
        its limit (a loop variable or a constant); the increment is not emitted."""
        k = counted.counter
        dtype = node.outputs[k].dtype
        limit = loop_vars[counted.limit_param] if counted.limit_param is not None else \
            self.counted_bound(node, 'limit', counted.limit_constant, dtype)
        step = self.counted_bound(node, 'step', counted.step, dtype)
        counter = loop_vars[k]
        start = self.namespace.create_name(f'{counter}_start')
        self.line(depth, f'{start} = {counter}')
        head = len(self.lines)
        self.counted_head(node, counter, start, limit, step, depth)
        self.emit_body(node, node.branches[1], loop_vars, depth, head, counter=k,
                       skip={counted.increment})
        self.counted_end(node, counter, start, limit, step, depth)

    def emit_body(self, node: Node, body: Program, loop_vars: list[str], depth: int,
                  head: int | None, counter: int | None = None,
                  skip: Collection[Node] = frozenset()) -> None:
        """The loop body of the While `node`, then the loop variables that changed take their
        new values."""
        results: Sequence[str | None]
        leftovers: list[str] = []
        if depth + 1 > MAX_DEPTH or self.loop_nesting > MAX_LOOPS:  # out of line (a counted
            # loop's increment then runs too: its result is not taken)
            results = self.deep_branch(node, body, loop_vars, loop_vars, depth + 1)
        else:
            direct = direct_targets(body, loop_vars, loop_vars, counter) \
                if self.assigns_directly else None
            results, leftovers = self.emit(body, loop_vars, depth + 1, skip=skip, targets=direct)
        changed = [(var, new) for i, (var, new) in enumerate(zip(loop_vars, results))
                   if i != counter and var != new]
        if changed:
            self.line(depth + 1, f'{targets([v for v, _ in changed])} = '
                                 f'{targets([n for _, n in changed])}')
            self.free(depth + 1, leftovers, loop_vars)
        elif head is not None and len(self.lines) == head + 1:
            self.line(depth + 1, 'pass')


def unfed_placeholder(node: Node) -> errors.InvalidArgumentError:
    """The error of a Placeholder that is not fed (TensorFlow's)."""
    return errors.InvalidArgumentError(
        None, node.op, f'You must feed a value for placeholder tensor {node.name!r} with dtype '
                       f'{node.attrs["dtype"].name} and shape {node.attrs["shape"]}.')
