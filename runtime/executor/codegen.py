"""Lower a Program to one straight-line Python function (`python_code`), then compile it (`load`):
the numpy backend of the walk both backends share (runtime/executor/emit.py).

Each value becomes a local named after its op (`greater_1 = x > greater_y`, names from a
`Namespace`: legal, unique identifiers) and each node one line: its Python operator when the
OpDef has the `operator` tag, else a call of its numpy kernel, bound as a global of the
generated module named after the op type (`gather_v2 = GatherV2(x, indices)`); constants are
globals too. If becomes a Python `if` and While a Python `while` (or a counted `for`), with the
code of their library functions inlined.

Memory: a large intermediate is deleted (`del`) right after its last use, and an elementwise
op whose operand dies at that op writes its result into the operand's buffer when the operand
is a fresh intermediate of the result's dtype and shape (never a parameter, capture, constant
or a view), so a chain of elementwise ops holds about as much memory as numpy's own temporary
elision gives.

Errors: `load` registers the source with `linecache`, so tracebacks show it; when a kernel
fails, the line number of the failing frame tells which node it was (`line_nodes`), so the
error names the op and where the user built it, at no cost on the normal path.
"""
import itertools
import linecache
import operator
import weakref
from dataclasses import dataclass, field

import numpy as np

from runtime.core import errors
from runtime.executor import emit, parallel
from runtime.executor.ir import Node, Value
from runtime.ops.registry import CONST, PLACEHOLDER, PYTHON_OPERATORS, check_nonzero

_files = itertools.count()
_LITERALS = (bool, int, float, str, type(None))
_HEADER_LINES = 2  # `def run(...):` and `try:`
_FREE_ELEMENTS = 1024  # values this small (or scalars) are not worth a `del`
_RUNTIME_NAMES = {'run': None, 'e': None, '_reraise': None, '_line_nodes': None, '_code': None,
                  '_submit': parallel.submit, '_counted': None, '_counted_end': None,
                  '_check_nonzero': check_nonzero}
_RUNTIME_NAMES.update((f'in_place_{python.in_place.__name__[1:]}', python.in_place)
                      for python in PYTHON_OPERATORS.values() if python.in_place is not None)


@dataclass(frozen=True, slots=True, eq=False)
class PythonCode:
    """Generated source, the globals it needs (kernels, constants, helpers) and a map from
    its line numbers to the Nodes they run."""
    source: str
    globals: dict
    line_nodes: dict


def generate(program):
    """A function (*param values) -> tuple of output values."""
    return load(python_code(program), program.name)


def python_code(program):
    """The source of `def run(*params)` for `program`, with its globals and line map."""
    emitter = _Emitter()
    params = [emitter.namespace.create_name(node.name) for node in program.params]
    results, _ = emitter.emit(program, params, 2)
    source = '\n'.join(
        [f'def run({", ".join(params)}):', '    try:'] + emitter.lines +
        [f'        return ({"".join(r + ", " for r in results)})', '    except Exception as e:',
         '        _reraise(e, _line_nodes, _code)']) + '\n'
    return PythonCode(source, emitter.globals, emitter.line_nodes)


def load(code, name='graph'):
    """Compile `code` (a PythonCode) into its function `run`; `run.source` is the source."""
    filename = f'<rt plan {next(_files)}: {name}>'
    namespace = dict(code.globals)
    namespace.update(_reraise=_reraise, _line_nodes=code.line_nodes)
    compiled = compile(code.source, filename, 'exec')
    exec(compiled, namespace)
    run = namespace['run']
    namespace['_code'] = run.__code__
    linecache.cache[filename] = (len(code.source), None, code.source.splitlines(True), filename)
    weakref.finalize(run, linecache.cache.pop, filename, None)  # the source goes with the plan
    run.source = code.source
    return run


def inline_expression(node, args):
    """The node as one Python expression over the names `args` (its Python operator), or None
    when it must be a call: no `operator` tag, a check to run first, attrs the kernel takes, or
    operands that are strings (numpy's `==` on bytes gives a Python bool)."""
    python = _python_operator(node)
    if (python is None or node.checks or len(node.outputs) != 1
            or node.opdef.kernel_attrs(node.attrs)
            or any(v.dtype.np_dtype.kind == 'O' for v in node.inputs)):
        return None
    return python.expression(*args)


def _python_operator(node):
    """The PythonOperator of the node's `operator` tag, or None."""
    function = node.opdef.operator
    return None if function is None else PYTHON_OPERATORS[function]


def _is_fresh(value):
    """Whether `value` is a new, private buffer the generated code may overwrite: an array of
    known shape made by an elementwise op (not a view, parameter or constant) and read only by
    elementwise ops (so no view of it outlives it)."""
    shape = value.shape
    node = value.node
    return shape.is_fully_defined() and shape.rank != 0 and _makes_new_arrays(node) and \
        len(node.outputs) == 1 and node.opdef.bind_kernel is None and \
        all(_makes_new_arrays(user) for user in value.users)


def _makes_new_arrays(node):
    """Whether the node's results never alias its inputs (Python's arithmetic, comparison and
    matmul operators, numpy's ufuncs; not subscripts or views), so overwriting an input after
    the node ran cannot change them."""
    opdef = node.opdef
    if opdef.operator is not None:
        return opdef.operator is not operator.getitem
    return opdef.elementwise is not None and opdef.elementwise.ufunc is not None


def _worth_freeing(value):
    shape = value.shape
    if shape.rank is None:
        return True
    if shape.rank == 0:
        return False
    elements = shape.num_elements()
    return elements is None or elements >= _FREE_ELEMENTS


@dataclass(slots=True, eq=False)
class Step:
    """The schedule facts of one node: `frees`, the operands whose last use it is and that the
    block made (deleted after it); `awaits`, the results of nodes started on the thread pool
    that it reads first (awaited before it); `submit`, whether it starts on the pool itself;
    `reuse`, the position of an operand whose buffer its result takes, or None."""
    frees: list[Value] = field(default_factory=list)
    awaits: list[Value] = field(default_factory=list)
    submit: bool = False
    reuse: int | None = None


@dataclass(slots=True, eq=False)
class Schedule:
    """The schedule of one block (a Program): a Step per node, the futures still pending at its
    end (awaited before it returns), and the values it made that are worth freeing."""
    steps: dict[Node, Step]
    awaited_at_end: list[Value]
    owned: set[Value]


def schedule(program, skip=frozenset()):
    """Settle the schedule of `program` before emitting it (torch.fx's `register_last_uses`):
    last uses, the nodes started on the thread pool (runtime/executor/parallel.py) and where
    their results are awaited, and buffer reuse."""
    concurrent = parallel.concurrent_nodes(program)
    last_use = {}
    for j, node in enumerate(program.nodes):
        for value in node.inputs:
            last_use[value] = j
    outputs = set(program.outputs)
    steps, owned, pending = {}, set(), set()
    for j, node in enumerate(program.nodes):
        if node in skip or node.opdef is PLACEHOLDER or node.opdef is CONST:
            continue
        step = steps[node] = Step()
        step.awaits = [v for v in dict.fromkeys(node.inputs) if v in pending]
        pending.difference_update(step.awaits)
        step.frees = [v for v in dict.fromkeys(node.inputs)
                      if last_use.get(v) == j and v in owned and v not in outputs]
        owned.update(v for v in node.outputs if _worth_freeing(v))
        if node in concurrent:
            step.submit = True
            pending.add(node.outputs[0])
        elif node.opdef.control_flow is None and not concurrent:
            step.reuse = _reusable(node, step.frees)
    awaited_at_end = [v for v in dict.fromkeys(program.outputs) if v in pending]
    return Schedule(steps, awaited_at_end, owned)


def _reusable(node, dying):
    """The position of an input whose buffer the node's result may take, or None."""
    if len(node.outputs) != 1 or node.checks or node.opdef.bind_kernel is not None:
        return None
    out = node.outputs[0]
    for pos, value in enumerate(node.inputs):
        if value in dying and _is_fresh(value) and value.dtype is out.dtype and \
                value.shape == out.shape and out.shape.is_fully_defined():
            python = _python_operator(node)
            elementwise = node.opdef.elementwise
            if python is not None:
                if pos == 0 and python.in_place is not None and \
                        inline_expression(node, ['a', 'b']) is not None:
                    return pos
            elif elementwise is not None and elementwise.ufunc is not None and \
                    not node.opdef.kernel_attrs(node.attrs):
                return pos
    return None


class _Emitter(emit.Emitter):
    """The numpy backend of the walk (runtime/executor/emit.py)."""

    header_lines = _HEADER_LINES
    assigns_directly = True

    def __init__(self):
        super().__init__(_RUNTIME_NAMES)
        self.globals = {}
        self.kernels = {}  # (OpDef, in place) -> global name of its kernel
        self.futures = {}  # Value -> the name of the future computing it

    def global_constant(self, name, value):
        name = self.namespace.create_name(name)
        self.globals[name] = value
        return name

    def runtime(self, name):
        """A helper of this module the generated code calls (`_counted`, `_submit`...)."""
        self.globals[name] = _RUNTIME_NAMES[name] or globals()[name]
        return name

    # ---- the hooks of the walk ----------------------------------------------------------------

    def plan(self, program, skip):
        return schedule(program, skip)

    def before(self, node, plan, depth):
        for value in plan.steps[node].awaits:
            self.await_result(value, depth)

    def after(self, node, plan, depth):
        freed = [self.names[v] for v in plan.steps[node].frees]
        if freed:
            self.line(depth, f'del {", ".join(freed)}')

    def finish(self, program, plan, depth):
        for value in plan.awaited_at_end:
            self.await_result(value, depth)
        return [self.names[v] for v in dict.fromkeys(program.outputs) if v in plan.owned]

    def unfed(self, node):
        raise emit.unfed_placeholder(node)

    def constant(self, node, depth):
        return self.global_constant(node.name, node.attrs['value'])

    def result_names(self, node, targets):
        return [targets.get(v) or self.namespace.create_name(
            node.name if len(node.outputs) == 1 else f'{node.name}_{i}')
            for i, v in enumerate(node.outputs)]

    def emit_op(self, node, inputs, depth, plan, targets):
        step = plan.steps[node]
        outs = self.result_names(node, targets)
        if step.submit:  # `matmul_future = _submit(MatMul, a, b)`, awaited before its use
            future = self.namespace.create_name(f'{node.name}_future')
            self.emit_call(node, inputs, [future], depth, submit=True)
            self.futures[node.outputs[0]] = future
        else:
            self.emit_call(node, inputs, outs, depth, reuse=step.reuse)
        return outs

    def deep_branch(self, node, branch, args, outs, depth):
        plan = self.global_constant(f'{node.name}_branch', generate(branch))
        results = [self.namespace.create_name(out) for out in outs]
        call = f'{plan}({", ".join(args)})'
        self.line(depth, f'{", ".join(results)}, = {call}' if results else call, node)
        return results

    def loop_variables(self, node, inputs):
        return [self.namespace.create_name(p.name) for p in node.branches[1].params]

    def loop_results(self, node, loop_vars, outs, depth):
        self.line(depth, f'{emit.targets(outs)} = {emit.targets(loop_vars[:len(outs)])}')
        return outs

    def loop_test(self, cond, loop_vars):
        """The loop condition as one expression, when `cond` is one inline op on its params
        and constants."""
        computed = [n for n in cond.nodes if n not in cond.params and n.opdef is not CONST]
        if len(computed) != 1 or cond.outputs[0] is not computed[0].outputs[0]:
            return None
        test = computed[0]
        params = {p.outputs[0]: name for p, name in zip(cond.params, loop_vars)}
        args = []
        for value in test.inputs:
            if value in params:
                args.append(params[value])
            elif value.constant is not None:
                args.append(self.global_constant(value.node.name, value.constant))
            else:
                return None
        return inline_expression(test, args)

    def counted_bound(self, node, name, value, dtype):
        return self.global_constant(f'{node.name}_{name}', value)

    def counted_head(self, node, counter, start, limit, step, depth):
        """`for i in <the counter's values>`, numpy scalars of its dtype."""
        self.line(depth, f'for {counter} in {self.runtime("_counted")}({start}, {limit}, '
                         f'{step}):', node)

    def counted_end(self, node, counter, start, limit, step, depth):
        self.line(depth, f'{counter} = {self.runtime("_counted_end")}({start}, {limit}, '
                         f'{step})')

    def free(self, depth, names, keep=()):
        names = [n for n in names if n not in keep]
        if names:
            self.line(depth, f'del {", ".join(dict.fromkeys(names))}')

    # ---- ops ----------------------------------------------------------------------------------

    def await_result(self, value, depth):
        future = self.futures.pop(value)
        self.line(depth, f'{self.names[value]} = {future}.result()', value.node)
        self.line(depth, f'del {future}')

    def kernel(self, node):
        opdef = node.opdef
        if opdef.bind_kernel is not None:
            name = self.namespace.create_name(opdef.name, snake_case=False)
            self.globals[name] = opdef.bind_kernel(node.attrs, node.payload)
            return name
        in_place = node.in_place  # passes/in_place.py proved it safe
        name = self.kernels.get((opdef, in_place))
        if name is None:
            name = self.namespace.create_name(opdef.name + ('InPlace' if in_place else ''),
                                              snake_case=False)
            self.kernels[opdef, in_place] = name
            self.globals[name] = opdef.in_place if in_place else opdef.kernel
        return name

    def emit_call(self, node, inputs, outs, depth, submit=False, reuse=None):
        for i in node.checks:
            self.line(depth, f'{self.runtime("_check_nonzero")}({inputs[i]})', node)
        if not submit:
            expression = inline_expression(node, inputs)
            if expression is not None:
                if reuse is not None:  # `a += b`: the result takes the dead operand's buffer
                    op = _python_operator(node).in_place
                    name = f'in_place_{op.__name__[1:]}'
                    self.globals[name] = op
                    self.line(depth, f'{outs[0]} = {name}({inputs[0]}, {inputs[1]})', node)
                else:
                    self.line(depth, f'{outs[0]} = {expression}', node)
                return
        args = list(inputs)
        if node.opdef.bind_kernel is None:
            for key, value in node.opdef.kernel_attrs(node.attrs).items():
                if type(value) in _LITERALS:
                    args.append(f'{key}={value!r}')
                else:
                    args.append(f'{key}={self.global_constant(f"{node.name}_{key}", value)}')
        if reuse is not None:
            args.append(f'out={inputs[reuse]}')
        kernel = self.kernel(node)
        call = f'{kernel}({", ".join(args)})'
        if submit:
            call = f'{self.runtime("_submit")}({", ".join([kernel] + args)})'
        if not outs:
            self.line(depth, call, node)
        elif len(outs) == 1 and not isinstance(node.opdef.outputs, str):
            self.line(depth, f'{outs[0]} = {call}', node)
        else:
            self.line(depth, f'{", ".join(outs)}, = {call}', node)


_COUNTER_CHUNK = 4096  # counter values made at a time: constant memory however many steps


def _counter_chunks(start, limit, step):
    """The values a counted loop's counter takes, numpy scalars of its dtype, as arrays of up to
    `_COUNTER_CHUNK` values: a loop of 2e9 steps starts at once and holds one chunk (TensorFlow
    runs it in constant memory too)."""
    dtype = np.asarray(start).dtype
    start, limit, step = int(start), int(limit), int(step)
    span = step * _COUNTER_CHUNK
    if limit - start <= span:  # the common case: one chunk
        return (np.arange(start, limit, step, dtype=dtype),)
    return (np.arange(first, min(first + span, limit), step, dtype=dtype)
            for first in range(start, limit, span))


def _counted(start, limit, step):
    """The counter's values, iterated by one `for` (a nested `for` over chunks would be faster
    by a few percent on long loops, but spends two of the 20 blocks Python lets code nest)."""
    chunks = _counter_chunks(start, limit, step)
    return chunks[0] if type(chunks) is tuple else itertools.chain.from_iterable(chunks)


def _counted_end(start, limit, step):
    """The counter's value after the loop: the first value not below `limit`, or `start`."""
    taken = len(range(int(start), int(limit), int(step)))
    scalar = np.asarray(start).dtype.type
    return scalar(start) + scalar(taken * int(step))


def _reraise(error, line_nodes, code):
    """Re-raise `error` from the generated function `code`: a kernel's failure as an OpError
    naming the node; any other exception (a signal handler's, an output stream's, Python code a
    kernel called back) as it is, with a note naming the node (`errors.raised_by_kernel`)."""
    if isinstance(error, errors.OpError) and error.op is not None:
        raise error
    tb = error.__traceback__
    node = None
    while tb is not None:
        if tb.tb_frame.f_code is code:
            node = line_nodes.get(tb.tb_lineno)
        tb = tb.tb_next
    if node is None:
        raise error
    raise_for_node(error, node)


def raise_for_node(error, node):
    """Raise `error`, which running `node` raised, as the default executor reports it: a
    kernel's failure as an OpError naming the node and the user's line; any other exception as
    it is, with a note naming the node."""
    if isinstance(error, errors.OpError) and error.op is not None:
        raise error
    where = ''
    if node.origin is not None:
        filename, lineno = errors.user_location(*node.origin)
        where = f' defined at {filename}:{lineno}'
    op_type = node.op.type if node.op is not None else node.type
    if not errors.raised_by_kernel(error):
        error.add_note(f'(raised while the graph ran node {node.name} ({op_type}){where})')
        raise error
    message = (f'{getattr(error, "message", None) or error}\n\t [[node {node.name} '
               f'({op_type}){where}]]')
    cls = type(error) if isinstance(error, errors.OpError) else errors.InvalidArgumentError
    raise cls(None, node.op, message) from error
