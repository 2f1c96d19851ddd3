"""`jit_compile=True`: a graph compiled to native code with numba (SPEC §6, docs/jit.md).

`NativePlan` stands where the default executor's compiled function would: it takes the same
input values and returns the same output values. On its first call it runs the same
optimization passes, lowers the optimized Program to the source of one numba function
(native/emitter.py, with the per-op rules of native/rules/), compiles it for the types of
those values and keeps it, with the Python wrapper that calls it by its calling convention
(native/calling.py); later calls go straight to the wrapper. numba is imported then, and only
then.

When native code raises (an integer division by zero, an index out of range, a TensorArray
element never written), the graph runs again with the default executor, which raises the
same error naming the op and the user's line. Variables are written back only when native
code returns, so running again has no other effect, unless a kernel the code called has side
effects (print, py_function, random numbers): then the error is raised at once. A kernel's own
error is raised as the default executor raises it.
"""
import threading

from runtime.core import errors
from runtime.executor.native import cache
from runtime.executor.native.emitter import coverage, lower
from runtime.executor.native.rules import Unsupported

__all__ = ['NativePlan', 'coverage', 'INSTALL_HINT']

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
                run = self._compile(values)
                if run is None:  # a variable without a value: the default executor reports it
                    return self._default_plan()(*values)
                self.run = run
        return self.run(*values)

    def _compile(self, values):
        numba = import_numba()
        program = self._program()
        for rolled in (True, False):  # re-rolled loops whose types numba cannot unify: without
            try:
                source, convention = lower(program, rolled)
            except Unsupported as e:
                raise _unsupported_error(program, e.node, e.reason) from None
            args = convention.example_arguments(values)
            if args is None:
                return None
            function = cache.load(numba, source, program.name)
            try:
                function.compile(tuple(numba.typeof(v) for v in args))
                break
            except numba.core.errors.NumbaError as e:
                if rolled and source != lower(program, False)[0]:
                    continue
                raise errors.InvalidArgumentError(
                    None, None, f'jit_compile=True could not compile {program.name} to native '
                                f'code: {_first_line(e)}. Remove jit_compile=True to run it '
                                f'with the default executor.') from None
        self.source = source
        return convention.wrapper(function, self._default_plan)


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
