"""`jit_compile=True`: a graph compiled to native code with numba (SPEC §6, docs/jit.md).

`NativePlan` stands where the default executor's compiled function would: it takes the same
input values and returns the same output values. On its first call it runs the same
optimization passes, lowers the optimized Program to the source of one numba function
(runtime/executor/native/lower.py), compiles it for the types of those values and keeps it;
later calls go straight to the compiled code. numba is imported then, and only then.

When native code raises (an integer division by zero, an index out of range, a TensorArray
element never written), the graph runs again with the default executor, which raises the
same error naming the op and the user's line. Variables are written back only when native
code returns, and nothing else stateful is lowered, so running again has no other effect.
"""
import threading

from runtime.core import errors
from runtime.executor.native import cache
from runtime.executor.native.lower import Unsupported, lower, lowerable

__all__ = ['NativePlan', 'lowerable', 'INSTALL_HINT']

INSTALL_HINT = "pip install 'autograph-rt[jit]'"


def import_numba():
    """The numba module, or ImportError naming the extra that installs it."""
    try:
        import numba  # deferred: optional dependency numba (the jit extra)
    except ImportError as e:
        raise ImportError(f'jit_compile=True compiles graphs to native code with numba, which '
                          f'is not installed: {INSTALL_HINT}') from e
    return numba


class NativePlan:
    """Callable (*input values) -> tuple of output values, compiled to native code on first
    call. `source` is the generated Python source that numba compiled (after the first call)."""

    __slots__ = ('run', 'source', '_program', '_default_plan', '_lock')

    def __init__(self, optimized_program, default_plan):
        """`optimized_program()` gives the Program to lower; `default_plan()` the default
        executor's compiled function, which reports errors."""
        self._program = optimized_program
        self._default_plan = default_plan
        self._lock = threading.Lock()
        self.source = None
        self.run = self._first_call

    def __call__(self, *values):
        return self.run(*values)

    def _first_call(self, *values):
        with self._lock:
            if self.run == self._first_call:
                self.run = self._compile(values)
        return self.run(*values)

    def _compile(self, values):
        numba = import_numba()
        program = self._program()
        try:
            native = lower(program)
        except Unsupported as e:
            raise _unsupported_error(program, e.node, e.reason) from None
        function = cache.load(numba, native.source, program.name)
        args = [value.value if i in native.variable_params else value
                for i, value in enumerate(values)]
        args += [storage.value for storage in native.storages]
        args = [value[()] if k in native.scalars else value for k, value in enumerate(args)]
        args += native.constants
        try:
            function.compile(tuple(numba.typeof(v) for v in args))
        except numba.core.errors.NumbaError as e:
            raise errors.InvalidArgumentError(
                None, None, f'jit_compile=True could not compile {program.name} to native '
                            f'code: {_first_line(e)}. Remove jit_compile=True to run it with '
                            f'the default executor.') from None
        self.source = native.source
        return _wrapper(function, native, self._default_plan, len(values))


def _first_line(error):
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _unsupported_error(program, node, reason):
    where = ''
    if node.origin is not None:
        filename, lineno = errors.user_location(*node.origin)
        where = f' defined at {filename}:{lineno}'
    return errors.InvalidArgumentError(
        None, node.op,
        f'jit_compile=True: {program.name} holds op {node.type} (node {node.name!r}){where}, '
        f'which native code cannot run: {reason}. Remove jit_compile=True to run this function '
        f'with the default executor, or keep the op out of it (docs/jit.md lists what compiles).')


def _wrapper(function, native, default_plan, arity):
    """A Python function calling `function`: variables' values in, written values back to
    their storages, outputs given their numpy scalar types."""
    params = [f'p{i}' for i in range(arity)]
    namespace = {'native': function, 'failed': failed, 'default_plan': default_plan}
    arguments = [f'{p}.value' if i in native.variable_params else p
                 for i, p in enumerate(params)]
    for k, storage in enumerate(native.storages):
        namespace[f's{k}'] = storage
        arguments.append(f's{k}.value')
    arguments = [f'{a}[()]' if k in native.scalars else a for k, a in enumerate(arguments)]
    for k, constant in enumerate(native.constants):
        namespace[f'c{k}'] = constant
        arguments.append(f'c{k}')
    outs = [_converted(namespace, f'r[{k}]', spec)
            for k, spec in enumerate(native.output_specs)]
    write_back = []
    for k, (source, spec) in enumerate(native.written):
        target = f'p{source}' if isinstance(source, int) else \
            f's{native.storages.index(source)}'
        value = _converted(namespace, f'r[{len(outs) + k}]', spec)
        write_back.append(f'    {target}.value = {value}\n')
    source = (f'def run({", ".join(params)}):\n'
              f'    try:\n'
              f'        r = native({", ".join(arguments)})\n'
              f'    except Exception as e:\n'
              f'        return failed(e, default_plan, ({"".join(p + ", " for p in params)}))\n'
              + ''.join(write_back) +
              f'    return ({"".join(o + ", " for o in outs)})\n')
    exec(compile(source, '<rt native call>', 'exec'), namespace)
    return namespace['run']


def _converted(namespace, expr, spec):
    """`expr` as a numpy scalar of the spec's dtype when its rank is 0 (numba returns Python
    numbers), else as it is (an array of that dtype)."""
    dtype, shape = spec
    if shape.rank != 0:
        return expr
    name = f'to_{dtype.np_dtype.name}'
    namespace[name] = dtype.np_dtype.type
    return f'{name}({expr})'


def failed(error, default_plan, values):
    """Native code raised: the default executor raises the same error, naming the op."""
    default_plan()(*values)
    raise errors.InvalidArgumentError(
        None, None, f'native code failed where the default executor does not: {error}') from error

