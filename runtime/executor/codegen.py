"""Lower a Program to one straight-line Python function and compile it.

Each tensor becomes a local variable and each node one line calling its numpy kernel, bound as
a global of the generated module; constants are globals too. If becomes a Python `if` and While
a Python `while`, with the code of their library functions inlined. The source is registered
with `linecache`, so tracebacks show it. When a kernel fails, the line number of the failing
frame tells which node it was, so the error names the op and where the user built it, at no
cost on the normal path.
"""
import itertools
import linecache
import weakref

import numpy as np

from runtime import dtypes, errors
from runtime.executor import parallel
from runtime.ops.registry import CONST, PLACEHOLDER

_files = itertools.count()
_LITERALS = (bool, int, float, str, type(None))
_HEADER_LINES = 2  # `def run(...):` and `try:`
_MAX_INLINE_DEPTH = 40  # branches of Ifs nested deeper run as plans of their own


def generate(program):
    """A function (*param values) -> tuple of output values."""
    emitter = _Emitter()
    params = [f'p{i}' for i in range(len(program.params))]
    results = emitter.emit(program, params, 2)
    filename = f'<rt plan {next(_files)}: {program.name}>'
    source = '\n'.join(
        [f'def run({", ".join(params)}):', '    try:'] + emitter.lines +
        [f'        return ({"".join(r + ", " for r in results)})', '    except Exception as e:',
         '        _reraise(e, _line_nodes, _code)']) + '\n'
    ns = emitter.ns
    ns['_reraise'] = _reraise
    if emitter.uses_pool:
        ns['_submit'] = parallel.submit
    ns['_line_nodes'] = emitter.line_nodes
    code = compile(source, filename, 'exec')
    exec(code, ns)
    ns['_code'] = ns['run'].__code__
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    run = ns['run']
    weakref.finalize(run, linecache.cache.pop, filename, None)  # the source goes with the plan
    run.source = source
    return run


class _Emitter:
    def __init__(self):
        self.ns = {}
        self.lines = []
        self.line_nodes = {}
        self._ids = itertools.count()
        self.uses_pool = False

    def fresh(self, prefix):
        return f'{prefix}{next(self._ids)}'

    def line(self, depth, text, node=None):
        self.lines.append('    ' * depth + text)
        if node is not None:
            self.line_nodes[len(self.lines) + _HEADER_LINES] = node

    def emit(self, program, args, depth, skip=frozenset()):
        """Emit `program` with its params bound to the expressions `args`; return its outputs
        (None for an output of a node in `skip`, which is not emitted)."""
        names = {(id(p), 0): a for p, a in zip(program.params, args)}
        concurrent = parallel.concurrent_nodes(program)
        pending = {}  # id(node) -> (future name, output name), awaited before the first use
        for node in program.nodes:
            if id(node) in skip:
                continue
            for ref, _ in node.inputs:
                self.await_result(pending, ref, depth)
            opdef = node.opdef
            if opdef is PLACEHOLDER:
                if (id(node), 0) not in names:
                    raise errors.InvalidArgumentError(
                        None, node.op, f'You must feed a value for placeholder tensor '
                                    f'{node.name!r} with dtype {node.attrs["dtype"].name} and '
                                    f'shape {node.attrs["shape"]}.')
                continue
            if opdef is CONST:
                const = self.fresh('c')
                self.ns[const] = node.attrs['value']
                names[(id(node), 0)] = const
                continue
            inputs = [names[(id(n), i)] for n, i in node.inputs]
            outs = [self.fresh('v') for _ in node.specs]
            for i, out in enumerate(outs):
                names[(id(node), i)] = out
            control_flow = opdef.control_flow
            if id(node) in concurrent:
                future = self.fresh('f')
                self.emit_call(node, inputs, [future], depth, submit=True)
                pending[id(node)] = (future, outs[0])
            elif control_flow == 'if':
                self.emit_if(node, inputs, outs, depth)
            elif control_flow == 'case':
                self.emit_case(node, inputs, outs, depth)
            elif control_flow == 'while':
                self.emit_while(node, inputs, outs, depth)
            else:
                self.emit_call(node, inputs, outs, depth)
        for ref, _ in program.outputs:
            self.await_result(pending, ref, depth)
        return [names.get((id(n), i)) for n, i in program.outputs]

    def await_result(self, pending, node, depth):
        waiting = pending.pop(id(node), None)
        if waiting is not None:
            future, out = waiting
            self.line(depth, f'{out} = {future}.result()', node)

    def emit_call(self, node, inputs, outs, depth, submit=False):
        opdef = node.opdef
        # An op with an infix form is written inline (`v3 = v1 + v2`): same semantics, no call.
        # (The numpy scalar fast path of Python operators is why kernels use them.)
        if opdef.infix is not None and not submit and len(outs) == 1 and \
                not opdef.kernel_attrs(node.attrs) and \
                all(n.specs[i][0] is not dtypes.string for n, i in node.inputs):
            self.line(depth, f'{outs[0]} = {opdef.infix.format(*inputs)}', node)
            return
        kernel = self.fresh('k')
        args = list(inputs)
        if opdef.bind_kernel is not None:
            self.ns[kernel] = opdef.bind_kernel(node.attrs, node.payload)
        else:
            self.ns[kernel] = opdef.kernel
            for key, value in opdef.kernel_attrs(node.attrs).items():
                if type(value) in _LITERALS:
                    args.append(f'{key}={value!r}')
                else:
                    attr = self.fresh('a')
                    self.ns[attr] = value
                    args.append(f'{key}={attr}')
        call = f'{kernel}({", ".join(args)})'
        if submit:
            self.uses_pool = True
            call = f'_submit({", ".join([kernel] + args)})'
        if not outs:
            self.line(depth, call, node)
        elif len(outs) == 1 and not isinstance(node.opdef.outputs, str):
            self.line(depth, f'{outs[0]} = {call}', node)
        else:
            self.line(depth, f'{", ".join(outs)}, = {call}', node)

    def emit_if(self, node, inputs, outs, depth):
        self.line(depth, f'if {inputs[0]}:', node)
        for branch, header in zip(node.branches, (None, 'else:')):
            if header:
                self.line(depth, header)
            start = len(self.lines)
            if depth >= _MAX_INLINE_DEPTH:  # e.g. a long if/elif chain: Python refuses code
                plan = self.fresh('g')      # nested 100 blocks deep, so call a plan of its own
                self.ns[plan] = generate(branch)
                results = [self.fresh('v') for _ in branch.outputs]
                if results:
                    self.line(depth + 1, f'{_targets(results)} = {plan}({", ".join(inputs[1:])})')
                else:
                    self.line(depth + 1, f'{plan}({", ".join(inputs[1:])})')
            else:
                results = self.emit(branch, inputs[1:], depth + 1)
            if outs:
                self.line(depth + 1, f'{_targets(outs)} = {_targets(results)}')
            elif len(self.lines) == start:
                self.line(depth + 1, 'pass')

    def emit_case(self, node, inputs, outs, depth):
        """`if i == 0: ... elif i == 1: ... else: <last branch>` (an index out of range runs
        the last branch, as TensorFlow's Case does)."""
        last = len(node.branches) - 1
        for k, branch in enumerate(node.branches):
            if k == 0 and last:
                self.line(depth, f'if {inputs[0]} == {k}:', node)
            elif k < last:
                self.line(depth, f'elif {inputs[0]} == {k}:')
            elif last:
                self.line(depth, 'else:')
            inner = depth + 1 if last else depth
            start = len(self.lines)
            results = self.emit(branch, inputs[1:], inner)
            if outs:
                self.line(inner, f'{_targets(outs)} = {_targets(results)}')
            elif len(self.lines) == start and last:
                self.line(inner, 'pass')

    def emit_while(self, node, inputs, outs, depth):
        loop_vars = [self.fresh('w') for _ in inputs]
        cond, body = node.branches
        self.line(depth, f'{_targets(loop_vars)} = {_targets(inputs)}')
        if '_counted' in node.attrs:
            self.emit_counted(node, loop_vars, outs, depth)
            return
        head = len(self.lines)
        self.line(depth, 'while True:', node)
        (keep_going,) = self.emit(cond, loop_vars, depth + 1)
        test = self.single_assignment(head + 1, keep_going)
        if test is not None:  # the condition is one expression: `while a < b:`
            del self.lines[head:]
            self.line(depth, f'while {test}:', self.line_nodes.pop(head + 2 + _HEADER_LINES))
        else:
            self.line(depth + 1, f'if not {keep_going}:')
            self.line(depth + 2, 'break')
        results = self.emit(body, loop_vars, depth + 1)
        changed = [(var, new) for var, new in zip(loop_vars, results) if var != new]
        if changed:
            self.line(depth + 1, f'{_targets([v for v, _ in changed])} = '
                                 f'{_targets([n for _, n in changed])}')
        elif test is not None and len(self.lines) == head + 1:
            self.line(depth + 1, 'pass')
        self.line(depth, f'{_targets(outs)} = {_targets(loop_vars[:len(outs)])}')

    def emit_counted(self, node, loop_vars, outs, depth):
        """`for i in range(start, limit, step)` with numpy scalars of the counter's dtype."""
        k, (kind, limit), step, increment = node.attrs['_counted']
        self.ns['_counted'], self.ns['_counted_end'] = _counted, _counted_end
        if kind == 'param':
            limit = loop_vars[limit]
        else:
            name = self.fresh('c')
            self.ns[name] = limit
            limit = name
        start, step_name = self.fresh('s'), self.fresh('c')
        self.ns[step_name] = step
        counter = loop_vars[k]
        self.line(depth, f'{start} = {counter}')
        head = len(self.lines)
        self.line(depth, f'for {counter} in _counted({start}, {limit}, {step_name}):', node)
        results = self.emit(node.branches[1], loop_vars, depth + 1, skip={id(increment)})
        changed = [(var, new) for i, (var, new) in enumerate(zip(loop_vars, results))
                   if i != k and var != new]
        if changed:
            self.line(depth + 1, f'{_targets([v for v, _ in changed])} = '
                                 f'{_targets([n for _, n in changed])}')
        elif len(self.lines) == head + 1:
            self.line(depth + 1, 'pass')
        self.line(depth, f'{counter} = _counted_end({start}, {limit}, {step_name})')
        self.line(depth, f'{_targets(outs)} = {_targets(loop_vars[:len(outs)])}')

    def single_assignment(self, start, name):
        """The expression if the lines from `start` on are exactly `name = <expression>`."""
        if len(self.lines) != start + 1:
            return None
        target, _, expression = self.lines[start].strip().partition(' = ')
        return expression if target == name else None


_COUNTER_CHUNK = 4096  # counter values made at a time: constant memory however many steps


def _counted(start, limit, step):
    """The values a counted loop's counter takes, numpy scalars of its dtype, made a chunk at a
    time: a loop of 2e9 steps starts at once and holds one chunk (TensorFlow runs it in constant
    memory too)."""
    dtype = np.asarray(start).dtype
    start, limit, step = int(start), int(limit), int(step)
    span = step * _COUNTER_CHUNK
    if limit - start <= span:
        return np.arange(start, limit, step, dtype=dtype)
    return itertools.chain.from_iterable(
        np.arange(first, min(first + span, limit), step, dtype=dtype)
        for first in range(start, limit, span))


def _counted_end(start, limit, step):
    """The counter's value after the loop: the first value not below `limit`, or `start`."""
    start = np.asarray(start)
    taken = len(range(int(start), int(limit), int(step)))
    return (start + start.dtype.type(taken * int(step)))[()]


def _targets(names):
    return ', '.join(names) + (',' if len(names) == 1 else '')


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
    where = ''
    if node.origin is not None:
        filename, lineno = errors.user_location(*node.origin)
        where = f' defined at {filename}:{lineno}'
    if not errors.raised_by_kernel(error):
        error.add_note(f'(raised while the graph ran node {node.name}{where})')
        raise error
    message = (f'{getattr(error, "message", None) or error}\n\t [[node {node.name} '
               f'({node.type}){where}]]')
    cls = type(error) if isinstance(error, errors.OpError) else errors.InvalidArgumentError
    raise cls(None, node.op, message) from error
