"""`ag.explain`: which converted statements became graph ops while tracing, and which ran as
Python (and how often a Python loop was unrolled into the graph).

Two sources, both active only while `explain` traces:

- the operators: on their staged paths they tell `autograph.operators.recording.recorder` the
  statement's kind and the op it became, at the user's line that is running;
- Python's line events in converted code (`sys.settrace`, for frames of converted code only):
  converted code carries the user's file and lines, so the lines that ran are the user's, and a
  step from a loop's header line to the first line of its body, in one frame, is one iteration.
  Each converted statement whose line ran and that no operator staged ran as Python.

The statements themselves are those of the user's source (parsed once per file): `if`, `for`,
`while`, conditional expressions, `and`, `or`, `not` and `assert`.
"""
import ast
import linecache
import os
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field

from autograph.operators import control_flow, recording
from autograph.pyct import origin_info
from autograph.tracing import keys
from autograph.tracing.polymorphic_function import Function
from runtime.core import context, nest
from runtime.core import dtypes as rt_dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import is_symbolic
from runtime.core.tensor_spec import TensorSpec
from runtime.data import Dataset
from runtime.graph.graph import FuncGraph, uid

__all__ = ['explain', 'Explanation', 'Statement']

# the op types a staged statement of each kind becomes
_OPS = {'if': ('If', 'StatelessIf'), 'ifexp': ('If', 'StatelessIf'),
        'for': ('While', 'StatelessWhile'), 'while': ('While', 'StatelessWhile')}
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


@dataclass(frozen=True, slots=True)
class Statement:
    """One converted statement or expression that ran while tracing."""
    filename: str
    lineno: int
    kind: str          # 'if', 'for', 'while', 'ifexp', 'and', 'or', 'not' or 'assert'
    mode: str          # 'staged' (it became graph ops) or 'python' (it ran as Python)
    op: str | None     # the op type of a staged statement, e.g. 'StatelessIf'
    iterations: int | None   # times the body of a Python loop ran (was unrolled)


@dataclass
class Explanation:
    """What `ag.explain` saw: `statements` in source order (per file, by line), the number of
    ops of the traced graph (`graph_ops`) and of its branch and loop bodies (`body_ops`)."""
    function_name: str
    statements: list = field(default_factory=list)
    graph_ops: int = 0
    body_ops: int = 0

    def __str__(self):
        staged = sum(s.mode == 'staged' for s in self.statements)
        lines = [f'ag.explain({self.function_name}): a graph of {self.graph_ops} ops '
                 f'(and {self.body_ops} in branch and loop bodies); {staged} statements staged, '
                 f'{len(self.statements) - staged} ran as Python']
        unrolled = sorted((s for s in self.statements if s.iterations),
                          key=lambda s: -s.iterations)
        if unrolled:
            lines.append('largest unrolls: ' + ', '.join(
                f'{_where(s)} {s.kind} ({s.iterations} iterations)' for s in unrolled[:3]))
        rows = [(_where(s), s.kind, s.mode,
                 s.op if s.mode == 'staged' else
                 f'{s.iterations} iterations' if s.iterations is not None else '')
                for s in self.statements]
        widths = [max([len(h)] + [len(r[i]) for r in rows])
                  for i, h in enumerate(('location', 'kind', 'mode'))]
        for row in [('location', 'kind', 'mode', 'op / iterations')] + rows:
            lines.append('  '.join(cell.ljust(w) for cell, w in zip(row, widths + [0])).rstrip())
        return '\n'.join(lines)


def _where(statement):
    path = statement.filename
    relative = os.path.relpath(path) if os.path.isabs(path) else path
    return f'{path if relative.startswith(os.pardir) else relative}:{statement.lineno}'


def explain(fn, *args, **kwargs):
    """Traces `fn` (a function, method or `ag.Function`) on the arguments into a graph of its
    own, which is neither run nor kept (an `ag.Function`'s cache and trace count stay as they
    are), and returns an `Explanation` of the converted statements that ran while tracing."""
    function = fn if isinstance(fn, Function) else Function(fn)
    # tensors of a graph being built (explain called while tracing) are traced as their specs
    args, kwargs = nest.map_structure(
        lambda v: TensorSpec(v.shape, v.dtype) if is_symbolic(v) else v, (args, kwargs))
    python_callable, binder, key, values = function.tracing_inputs(args, kwargs)
    outer = context.current_graph()
    graph = FuncGraph(f'__explain_{binder.name}_{uid()}', outer)
    graph.deferred_initializers = []   # variables made from the inputs are not initialized
    library_before = set(graph.library)
    recorder = _Recorder()
    previous_recorder, previous_trace = recording.recorder, sys.gettrace()
    recording.recorder = recorder
    sys.settrace(recorder.trace_call)
    try:
        with graph.as_default():
            symbolic = [keys.rebuild(element, value, _placeholder_maker(graph, name))
                        for element, value, name in zip(key, values, binder.names)]
            call_args, call_kwargs = binder.call_arguments(symbolic)
            python_callable(*call_args, **call_kwargs)
    finally:
        sys.settrace(previous_trace)
        recording.recorder = previous_recorder
    bodies = [g for name, g in graph.library.items() if name not in library_before]
    return Explanation(binder.name, recorder.statements(), len(graph.operations),
                       sum(len(g.operations) for g in bodies))


def _placeholder_maker(graph, name):
    """The leaf function for `keys.rebuild`: placeholders for an argument's tensors."""
    def leaf(element, value):
        kind = type(element)
        if kind is keys.TensorKey:
            return graph.add_input(element.dtype, TensorShape(element.shape), name)
        if kind is keys.DatasetKey:
            return Dataset(graph.add_input(rt_dtypes.variant, TensorShape([]), name),
                           element.spec.element_spec)
        if kind is keys.VariableKey:
            graph.add_resource_input(value.storage, name)
        return value
    return leaf


class _Recorder:
    """Collects the staged statements (from the operators) and the lines and loop iterations
    that ran (from line events of converted code)."""

    def __init__(self):
        self.thread = threading.get_ident()   # line events are this thread's only: so are these
        self.staged_at = {}        # (filename, lineno, kind) -> op type or None
        self.lines_run = {}        # filename -> set of lines that ran, in order of first run
        self.iterations = Counter()   # (filename, header line) -> iterations
        self.loop_starts = {}      # filename -> {first body line: {header lines}}

    # ---- the operators' side (autograph.operators.recording) ----------------------------------

    def mark(self):
        graph = context.current_graph()
        return graph, len(graph.operations) if graph is not None else 0

    def staged(self, kind, mark, op=None):
        origin = origin_info.user_location()
        if origin is None or threading.get_ident() != self.thread:
            return
        if mark is not None:
            graph, start = mark
            made = graph.operations[start:] if graph is not None else ()
            op = next((o.type for o in reversed(made) if o.type in _OPS[kind]), None)
        where = (origin.filename, origin.lineno, kind)
        if self.staged_at.get(where) is None:
            self.staged_at[where] = op

    # ---- line events ----------------------------------------------------------------------------

    def trace_call(self, frame, event, arg):
        code = frame.f_code
        if event != 'call' or not origin_info.is_generated_code(code):
            return None
        filename = code.co_filename
        lines = self.lines_run.get(filename)
        if lines is None:
            lines = self.lines_run[filename] = {}
            self.loop_starts[filename] = _loop_starts(filename)
        starts, iterations, last = self.loop_starts[filename], self.iterations, [None]

        def trace_line(frame, event, arg):
            if event == 'line':
                line = frame.f_lineno
                lines[line] = True
                headers = starts.get(line)
                if headers is not None and last[0] in headers and not control_flow.probing():
                    iterations[filename, last[0]] += 1
                last[0] = line
            return trace_line
        return trace_line

    # ---- the report -----------------------------------------------------------------------------

    def statements(self):
        found = []
        for filename, lines in self.lines_run.items():
            constructs = _constructs(filename)
            staged = {}
            for (file, lineno, kind), op in self.staged_at.items():
                if file == filename:
                    node = _innermost(constructs, lineno, kind)
                    if node is not None:
                        staged[id(node)] = op
            for node, kind in constructs:
                if node.lineno not in lines:
                    continue
                if id(node) in staged:
                    found.append(Statement(filename, node.lineno, kind, 'staged',
                                           staged[id(node)], None))
                else:
                    found.append(Statement(
                        filename, node.lineno, kind, 'python', None,
                        self.iterations[filename, node.lineno] if isinstance(node, _LOOPS)
                        else None))
        return found


def _source_tree(filename):
    try:
        return ast.parse(''.join(linecache.getlines(filename)), filename)
    except (SyntaxError, ValueError):
        return None


def _constructs(filename):
    """[(node, kind)] of the statements and expressions the converter converts, in source
    order."""
    tree = _source_tree(filename)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        kind = _kind(node)
        if kind is not None:
            found.append((node, kind))
    found.sort(key=lambda pair: (pair[0].lineno, pair[0].col_offset))
    return found


def _kind(node):
    if isinstance(node, ast.If):
        return 'if'
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return 'for'
    if isinstance(node, ast.While):
        return 'while'
    if isinstance(node, ast.IfExp):
        return 'ifexp'
    if isinstance(node, ast.BoolOp):
        return 'and' if isinstance(node.op, ast.And) else 'or'
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return 'not'
    if isinstance(node, ast.Assert):
        return 'assert'
    return None


def _innermost(constructs, lineno, kind):
    """The construct of `kind` that starts at `lineno`, else the innermost one of that kind
    whose lines hold it (an expression over several lines)."""
    best = None
    for node, node_kind in constructs:
        if node_kind != kind or not node.lineno <= lineno <= (node.end_lineno or node.lineno):
            continue
        if node.lineno == lineno:
            return node
        if best is None or node.lineno >= best.lineno:
            best = node
    return best


def _loop_starts(filename):
    """{first line of a loop's body: {its header lines}}: a step from the header to it in one
    frame is an iteration (a one-line loop steps from its line to itself)."""
    starts = {}
    tree = _source_tree(filename)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, _LOOPS):
            starts.setdefault(node.body[0].lineno, set()).add(node.lineno)
    return starts
