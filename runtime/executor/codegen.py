"""Lower a graph to one straight-line Python function and compile it.

Each tensor becomes a local variable and each op one line calling its numpy kernel, which is
bound as a global of the generated function; constants are globals too. The source is
registered with `linecache`, so tracebacks show it. When a kernel fails, the line number of
the failing frame tells which op it was, so the error names the op and where the user built it,
at no cost on the normal path.
"""
import itertools
import linecache

from runtime import errors
from runtime.executor.plan import needed_ops
from runtime.ops.registry import kernel_attrs

_counter = itertools.count()
_LITERALS = (bool, int, float, str, type(None))


def compile_plan(graph, inputs, outputs, compile_function):
    """A function (*input_values) -> tuple of output values, running only the needed ops."""
    names = {}
    for i, t in enumerate(inputs):
        names[id(t)] = f'p{i}'
    ns = {'_reraise': _reraise}
    body = []
    line_ops = {}
    for op in needed_ops(graph, outputs):
        index = len(ns)
        kind = op.opdef.name
        if kind == 'Placeholder':
            if id(op.outputs[0]) not in names:
                raise errors.InvalidArgumentError(
                    None, op, f'You must feed a value for placeholder tensor {op.name!r} with '
                              f'dtype {op.attrs["dtype"].name} and shape {op.attrs["shape"]}.')
            continue
        if kind == 'Const':
            const = f'c{index}'
            ns[const] = op.attrs['value']
            names[id(op.outputs[0])] = const
            continue
        kernel = f'k{index}'
        args = [names[id(t)] for t in op.inputs]
        if op.opdef.compile_kernel is not None:
            ns[kernel] = op.opdef.compile_kernel(op, compile_function)
        else:
            ns[kernel] = op.opdef.kernel
            for key, value in kernel_attrs(op).items():
                if type(value) in _LITERALS:
                    args.append(f'{key}={value!r}')
                else:
                    ns[f'a{index}_{key}'] = value
                    args.append(f'{key}=a{index}_{key}')
        call = f'{kernel}({", ".join(args)})'
        outs = [f'v{index}_{j}' for j in range(len(op.outputs))]
        for t, name in zip(op.outputs, outs):
            names[id(t)] = name
        if not outs:
            body.append(call)
        elif len(outs) == 1 and not isinstance(op.opdef.outputs, str):
            body.append(f'{outs[0]} = {call}')
        else:
            body.append(f'{", ".join(outs)}, = {call}')
        line_ops[len(body) + 2] = op  # lines 1-2 are `def` and `try:`
    results = ''.join(f'{names[id(t)]}, ' for t in outputs)
    filename = f'<rt plan {next(_counter)}: {getattr(graph, "name", "graph")}>'
    params = ', '.join(f'p{i}' for i in range(len(inputs)))
    source = '\n'.join(
        [f'def run({params}):', '    try:'] + [f'        {line}' for line in body] +
        [f'        return ({results})', '    except Exception as e:',
         '        _reraise(e, _line_ops, _code)']) + '\n'
    ns['_line_ops'] = line_ops
    code = compile(source, filename, 'exec')
    exec(code, ns)
    ns['_code'] = ns['run'].__code__
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return ns['run']


def _reraise(error, line_ops, code):
    """Re-raise `error` from the generated function `code` as an OpError naming the op."""
    if isinstance(error, errors.OpError) and error.op is not None:
        raise error
    tb = error.__traceback__
    op = None
    while tb is not None:
        if tb.tb_frame.f_code is code:
            op = line_ops.get(tb.tb_lineno)
        tb = tb.tb_next
    if op is None:
        raise error
    where = ''
    if op.origin is not None:
        filename, lineno = errors.user_location(*op.origin)
        where = f' defined at {filename}:{lineno}'
    message = f'{getattr(error, "message", None) or error}\n\t [[node {op.name} ({op.type}){where}]]'
    cls = type(error) if isinstance(error, errors.OpError) else errors.InvalidArgumentError
    raise cls(None, op, message) from error
