"""Lower a Program to one straight-line Python function (`python_code`), then compile it (`load`).

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
import builtins
import itertools
import keyword
import linecache
import operator
import re
import weakref
from dataclasses import dataclass

import numpy as np

from runtime.core import errors
from runtime.executor import parallel
from runtime.ops.registry import CONST, PLACEHOLDER, PYTHON_OPERATORS, check_nonzero

_files = itertools.count()
_LITERALS = (bool, int, float, str, type(None))
_HEADER_LINES = 2  # `def run(...):` and `try:`
_MAX_INLINE_DEPTH = 40  # branches of Ifs nested deeper run as plans of their own
_FREE_ELEMENTS = 1024  # values this small (or scalars) are not worth a `del`
_RUNTIME_NAMES = {'run': None, 'e': None, '_reraise': None, '_line_nodes': None, '_code': None,
                  '_submit': parallel.submit, '_counted': None, '_counted_end': None,
                  '_check_nonzero': check_nonzero}
_RUNTIME_NAMES.update((f'in_place_{python.in_place.__name__[1:]}', python.in_place)
                      for python in PYTHON_OPERATORS.values() if python.in_place is not None)


_PYTHON_NAMES = frozenset(keyword.kwlist) | frozenset(dir(builtins))


@dataclass(frozen=True, slots=True, eq=False)
class PythonCode:
    """Generated source, the globals it needs (kernels, constants, helpers) and a map from
    its line numbers to the Nodes they run."""
    source: str
    globals: dict
    line_nodes: dict


class Namespace:
    """Unique, legal Python identifiers made from op names (torch.fx's `_Namespace`)."""

    def __init__(self, reserved=()):
        self._taken = set(reserved) | _PYTHON_NAMES
        self._counts = {}

    def create_name(self, candidate, snake_case=True):
        """A new name from `candidate` (an op or tensor name; `snake_case=False` keeps an op
        type's capitals, as for kernels: `GatherV2`)."""
        base = _identifier(candidate) if snake_case else re.sub(r'\W', '_', candidate)
        name = base
        while name in self._taken:
            count = self._counts[base] = self._counts.get(base, 0) + 1
            name = f'{base}_{count}'
        self._taken.add(name)
        return name


def _identifier(candidate):
    """`while/Greater` -> `greater`, `GatherV2` -> `gather_v2`, `Greater/y` -> `greater_y`."""
    parts = [p for p in candidate.split('/') if p]
    text = '_'.join(parts[-2:]) if len(parts) > 1 and len(parts[-1]) <= 2 else \
        (parts[-1] if parts else 'v')
    text = re.sub(r'(?<=[a-z0-9])(?=[A-Z])', '_', text).lower()
    text = re.sub(r'\W', '_', text)
    if not text or text[0].isdigit():
        text = '_' + text
    return text


def generate(program):
    """A function (*param values) -> tuple of output values."""
    return load(python_code(program), program.name)


def python_code(program):
    """The source of `def run(*params)` for `program`, with its globals and line map."""
    emitter = _Emitter()
    params = [emitter.names.create_name(node.name) for node in program.params]
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


def _direct_targets(program, args, targets, counter=None):
    """{value: name} for outputs of `program` (a branch or loop body whose params are bound to
    the names `args`) that can be assigned to their target names at once (`total = total + i`,
    not `add = total + i` and later `total = add`): an output computed by a node of the
    program, that is no other output, into a name whose bound params are not read after that
    node nor returned."""
    position = {node: j for j, node in enumerate(program.nodes)}
    direct = {}
    for k, (value, target) in enumerate(zip(program.outputs, targets)):
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


def _worth_freeing(value):
    shape = value.shape
    if shape.rank is None:
        return True
    if shape.rank == 0:
        return False
    elements = shape.num_elements()
    return elements is None or elements >= _FREE_ELEMENTS


class _Emitter:
    def __init__(self):
        self.names = Namespace(_RUNTIME_NAMES)
        self.globals = {}
        self.lines = []
        self.line_nodes = {}
        self.kernels = {}  # OpDef -> global name of its kernel

    def line(self, depth, text, node=None):
        self.lines.append('    ' * depth + text)
        if node is not None:
            self.line_nodes[len(self.lines) + _HEADER_LINES] = node

    def constant(self, name, value):
        name = self.names.create_name(name)
        self.globals[name] = value
        return name

    def runtime(self, name):
        """A helper of this module the generated code calls (`_counted`, `_submit`...)."""
        self.globals[name] = _RUNTIME_NAMES[name] or globals()[name]
        return name

    def emit(self, program, args, depth, skip=frozenset(), targets=None):
        """Emit `program` with its params bound to the names `args`. Returns its outputs' names
        (None for an output of a node in `skip`, which is not emitted) and those of them that
        are locals this block made and large (the caller frees them once it has copied them).
        `targets` maps values to the names they are assigned to (a loop variable)."""
        targets = targets or {}
        names = {p.outputs[0]: a for p, a in zip(program.params, args)}
        concurrent = parallel.concurrent_nodes(program)
        last_use = {}
        for j, node in enumerate(program.nodes):
            for value in node.inputs:
                last_use[value] = j
        outputs = set(program.outputs)
        owned = set()  # values this block made and may free
        pending = {}  # value -> future name, awaited before the first use
        for j, node in enumerate(program.nodes):
            if node in skip:
                continue
            for value in node.inputs:
                self.await_result(pending, value, names, depth)
            opdef = node.opdef
            if opdef is PLACEHOLDER:
                if node.outputs[0] not in names:
                    raise errors.InvalidArgumentError(
                        None, node.op, f'You must feed a value for placeholder tensor '
                                       f'{node.name!r} with dtype {node.attrs["dtype"].name} and '
                                       f'shape {node.attrs["shape"]}.')
                continue
            if opdef is CONST:
                names[node.outputs[0]] = self.constant(node.name, node.attrs['value'])
                continue
            inputs = [names[v] for v in node.inputs]
            dying = [v for v in dict.fromkeys(node.inputs)
                     if last_use.get(v) == j and v in owned and v not in outputs]
            outs = [targets.get(v) or self.names.create_name(
                node.name if len(node.outputs) == 1 else f'{node.name}_{i}')
                for i, v in enumerate(node.outputs)]
            names.update(zip(node.outputs, outs))
            owned.update(v for v in node.outputs if _worth_freeing(v))
            control_flow = opdef.control_flow
            if node in concurrent:
                future = self.names.create_name(f'{node.name}_future')
                self.emit_call(node, inputs, [future], depth, submit=True)
                pending[node.outputs[0]] = future
            elif control_flow == 'if':
                self.emit_if(node, inputs, outs, depth)
            elif control_flow == 'case':
                self.emit_case(node, inputs, outs, depth)
            elif control_flow == 'while':
                self.emit_while(node, inputs, outs, depth)
            else:
                reuse = None if concurrent else self.reusable(node, dying)
                self.emit_call(node, inputs, outs, depth, reuse=reuse)
            freed = [names[v] for v in dying if v not in pending]
            if freed:
                self.line(depth, f'del {", ".join(freed)}')
        for value in program.outputs:
            self.await_result(pending, value, names, depth)
        results = [names.get(v) for v in program.outputs]
        leftovers = [names[v] for v in dict.fromkeys(program.outputs) if v in owned]
        return results, leftovers

    def reusable(self, node, dying):
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

    def await_result(self, pending, value, names, depth):
        future = pending.pop(value, None)
        if future is not None:
            self.line(depth, f'{names[value]} = {future}.result()', value.node)
            self.line(depth, f'del {future}')

    def kernel(self, node):
        opdef = node.opdef
        if opdef.bind_kernel is not None:
            name = self.names.create_name(opdef.name, snake_case=False)
            self.globals[name] = opdef.bind_kernel(node.attrs, node.payload)
            return name
        name = self.kernels.get(opdef)
        if name is None:
            name = self.kernels[opdef] = self.names.create_name(opdef.name, snake_case=False)
            self.globals[name] = opdef.kernel
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
                    args.append(f'{key}={self.constant(f"{node.name}_{key}", value)}')
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

    def emit_if(self, node, inputs, outs, depth):
        self.line(depth, f'if {inputs[0]}:', node)
        self.emit_branch(node, node.branches[0], inputs[1:], outs, depth + 1)
        self.line(depth, 'else:')
        self.emit_branch(node, node.branches[1], inputs[1:], outs, depth + 1)

    def emit_case(self, node, inputs, outs, depth):
        """`if i == 0: ... elif i == 1: ... else: <last branch>` (an index out of range runs
        the last branch, as TensorFlow's Case does)."""
        *indexed, default = node.branches
        for k, branch in enumerate(indexed):
            if k == 0:
                self.line(depth, f'if {inputs[0]} == 0:', node)
            else:
                self.line(depth, f'elif {inputs[0]} == {k}:')
            self.emit_branch(node, branch, inputs[1:], outs, depth + 1)
        if indexed:
            self.line(depth, 'else:')
        self.emit_branch(node, default, inputs[1:], outs, depth + 1 if indexed else depth,
                         block=bool(indexed))

    def emit_branch(self, node, branch, args, outs, depth, block=True):
        """One branch of an If or a Case at `depth`, its results assigned to `outs` (`block`:
        it is the body of an `if`/`else`, which must not be empty)."""
        start = len(self.lines)
        if depth > _MAX_INLINE_DEPTH:  # e.g. a long if/elif chain: Python refuses code nested
            plan = self.constant(f'{node.name}_branch', generate(branch))  # 100 blocks deep
            results = [self.names.create_name(out) for out in outs]
            call = f'{plan}({", ".join(args)})'
            self.line(depth, f'{", ".join(results)}, = {call}' if results else call, node)
            leftovers = []
        else:
            results, leftovers = self.emit(branch, args, depth,
                                           targets=_direct_targets(branch, args, outs))
        copies = [(out, result) for out, result in zip(outs, results) if out != result]
        if copies:
            self.line(depth, f'{_targets([o for o, _ in copies])} = '
                             f'{_targets([r for _, r in copies])}')
            self.free(depth, leftovers, outs)
        elif block and len(self.lines) == start:
            self.line(depth, 'pass')

    def free(self, depth, names, keep=()):
        names = [n for n in names if n not in keep]
        if names:
            self.line(depth, f'del {", ".join(dict.fromkeys(names))}')

    def emit_while(self, node, inputs, outs, depth):
        cond, body = node.branches
        loop_vars = [self.names.create_name(p.name) for p in body.params]
        self.line(depth, f'{_targets(loop_vars)} = {_targets(inputs)}')
        if '_counted' in node.attrs:
            self.emit_counted(node, loop_vars, outs, depth)
            return
        test = self.single_expression(cond, loop_vars)
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
        self.emit_body(body, loop_vars, depth, head)
        self.line(depth, f'{_targets(outs)} = {_targets(loop_vars[:len(outs)])}')

    def emit_body(self, body, loop_vars, depth, head, counter=None, skip=frozenset()):
        """The loop body, then the loop variables that changed take their new values."""
        targets = _direct_targets(body, loop_vars, loop_vars, counter)
        results, leftovers = self.emit(body, loop_vars, depth + 1, skip=skip, targets=targets)
        changed = [(var, new) for i, (var, new) in enumerate(zip(loop_vars, results))
                   if i != counter and var != new]
        if changed:
            self.line(depth + 1, f'{_targets([v for v, _ in changed])} = '
                                 f'{_targets([n for _, n in changed])}')
            self.free(depth + 1, leftovers, loop_vars)
        elif head is not None and len(self.lines) == head + 1:
            self.line(depth + 1, 'pass')

    def single_expression(self, cond, loop_vars):
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
                args.append(self.constant(value.node.name, value.constant))
            else:
                return None
        return inline_expression(test, args)

    def emit_counted(self, node, loop_vars, outs, depth):
        """`for i in range(start, limit, step)` with numpy scalars of the counter's dtype."""
        k, (kind, limit), step, increment = node.attrs['_counted']
        limit = loop_vars[limit] if kind == 'param' else self.constant(f'{node.name}_limit',
                                                                         limit)
        step_name = self.constant(f'{node.name}_step', step)
        start = self.names.create_name(f'{loop_vars[k]}_start')
        counter = loop_vars[k]
        self.line(depth, f'{start} = {counter}')
        head = len(self.lines)
        self.line(depth, f'for {counter} in {self.runtime("_counted")}({start}, {limit}, '
                         f'{step_name}):', node)
        self.emit_body(node.branches[1], loop_vars, depth, head, counter=k, skip={increment})
        self.line(depth, f'{counter} = {self.runtime("_counted_end")}({start}, {limit}, '
                         f'{step_name})')
        self.line(depth, f'{_targets(outs)} = {_targets(loop_vars[:len(outs)])}')


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


def _targets(names):
    return ', '.join(names)


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
