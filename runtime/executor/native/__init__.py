"""`jit_compile=True`: a graph compiled to native code with numba (docs/jit.md).

`NativePlan` stands where the default executor's compiled function would: it takes the same
input values and returns the same output values. On its first call it runs the same
optimization passes, lowers the optimized Program to the source of one numba function
(native/emitter.py, with the per-op rules of native/rules/), compiles it for the types of
those values and keeps it, with the Python wrapper that calls it by its calling convention
(native/calling.py); later calls go straight to the wrapper. numba is imported then, and only
then.

Compilation is *tiered* (`tiered()`, on unless `AUTOGRAPH_RT_JIT_TIERED=0`), as JVMs and V8
do: the first call runs the graph with the default executor and hands the lowering and numba's
compile (or its load from the on-disk cache) to a background thread; the calls until the
native code is ready run the default executor too, then calls run native code. A graph with
an op that has no kernel (one that may have no native form either) is lowered by the first
call itself, which raises if it does not lower. A graph whose code the on-disk cache's index
holds (native/keys.py, native/cache.py) is neither optimized nor lowered again: with numba
imported and code for the call's argument types in the cache, the first call loads it and
runs it. A compile that fails raises its error at every
call after it. Compiles run one at a time; the process waits at exit for the one running
(numba writes its cache files atomically) and starts no other; a forked child compiles again
what its parent was compiling. `wait()` blocks until the
pending compiles are done. With tiering off the first call compiles (or loads) and runs it.

When native code raises (an integer division by zero, an index out of range, a TensorArray
element never written), the graph runs again with the default executor, which raises the
same error naming the op and the user's line. Variables are written back only when native
code returns, so running again has no other effect, unless a kernel the code called has side
effects (print, py_function, random numbers): then the error is raised at once. A kernel's own
error is raised as the default executor raises it.
"""
import dataclasses
import functools
import hashlib
import importlib.util
import os
import sys
import threading

from runtime.core import errors
from runtime.executor.native import cache, calling, keys, team
from runtime.executor.native.rules import Unsupported
from runtime.executor.recursion import room
from runtime.ops import registry

__all__ = ['Compiled', 'NativePlan', 'coverage', 'INSTALL_HINT', 'tiered', 'wait']

INSTALL_HINT = "pip install 'autograph-rt[jit]'"


@room()  # numba's import recurses deeper than a tight user limit may leave room for
def import_numba():
    """The numba module, or ImportError naming the extra that installs it."""
    try:
        import numba  # deferred: optional dependency numba (the jit extra)
    except ImportError as e:
        raise ImportError(f'jit_compile=True compiles graphs to native code with numba, which '
                          f'is not installed: {INSTALL_HINT}') from e
    return numba


def coverage(opdef):
    """How `jit_compile=True` runs `opdef` (native/emitter.py's `coverage`)."""
    # deferred: start-up cost (the emitter and its rules: a tiered first call does not lower)
    from runtime.executor.native import emitter
    return emitter.coverage(opdef)


def lower(program, rolled):
    """(native source, calling convention) of `program` (native/emitter.py's `lower`)."""
    # deferred: start-up cost (the emitter and its rules: a tiered first call does not lower)
    from runtime.executor.native import emitter
    return emitter.lower(program, rolled)


def check_numba():
    """ImportError naming the extra unless numba can be imported (without importing it)."""
    if 'numba' in sys.modules and sys.modules['numba'] is not None:
        return
    try:
        found = importlib.util.find_spec('numba') is not None
    except ValueError:  # sys.modules['numba'] is None: importing it fails
        found = False
    if not found:
        import_numba()  # raises the ImportError naming the extra


def tiered():
    """Whether first calls of uncached graphs compile in the background (the default), or
    compile before they run (`AUTOGRAPH_RT_JIT_TIERED=0`, as the tests do)."""
    return os.environ.get('AUTOGRAPH_RT_JIT_TIERED', '1') != '0'


_compiling = threading.Lock()  # one background compile at a time (numba's lock is global too)
_pending = {}  # the background compiles' threads (to their plans), until each is done
_pending_changed = threading.Condition()


def _after_fork_in_child():
    """A forked process has none of its parent's threads: the plans they were compiling
    compile again at their next call, and the locks they may have held are new ones."""
    global _compiling, _pending_changed
    _compiling, _pending_changed = threading.Lock(), threading.Condition()
    for plan in _pending.values():
        plan.run = plan.first_call
    _pending.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)


def wait(timeout=None):
    """Block until the background compiles started so far are done (their plans then run
    native code); False if `timeout` seconds passed first."""
    with _pending_changed:
        return _pending_changed.wait_for(lambda: not _pending, timeout)


@dataclasses.dataclass(frozen=True, slots=True)
class Compiled:
    """What a NativePlan runs, for comparing two processes: the same graph compiled cold and
    restored from the on-disk cache must give equal records but for `indexed` and
    `restored`."""

    source_digest: str  # sha256 of the generated source
    signatures: tuple  # numba's types of the arguments of each compiled variant
    nogil: bool  # whether it runs without the GIL (it shares loops with the helper thread)
    jobs: tuple  # the ids of its loops shared with the helper thread, each with its worker
    indexed: bool  # its source and convention came from the cache's index (not lowered here)
    restored: bool  # loaded from the on-disk cache, or another plan's: not compiled for this one


class NativePlan:
    """Callable (*input values) -> tuple of output values, compiled to native code on first
    call. `source` is the generated Python source that numba compiled (after the first call);
    `native` whether calls run the native code yet (tiered: once the compile is done);
    `compiled` what runs then (a `Compiled`)."""

    __slots__ = ('run', 'source', 'native', 'compiled', '_graph', '_lowered_program',
                 '_optimize', '_pipeline', '_default_plan', '_lock', '_failure', '_listeners',
                 '_wrap', '_key', '_unoptimized', '_workers')

    def __init__(self, graph, program, optimize, pipeline, default_plan):
        """`program()` gives the Program of `graph` (unoptimized), `optimize(program)` runs
        the passes of `pipeline` on it; `default_plan()` gives the default executor's
        compiled function, which reports errors."""
        self._graph = graph
        self._lowered_program = program
        self._optimize = optimize
        self._pipeline = pipeline
        self._default_plan = default_plan
        self._lock = threading.RLock()  # the first call holds it while it may call _ready
        self._failure = None  # the error a background compile raised
        self._key = None  # the graph's key in the on-disk cache's index (native/keys.py)
        self._unoptimized = None  # the Program the key was computed from, until optimized
        self._workers = {}  # the helper thread's workers to compile once the code runs
        self.source = None
        self.native = False
        self.compiled = None
        self._listeners = []  # told the native code's wrapper once it is ready
        self._wrap = None  # makes wrappers of the native code (calling.Convention.wrapper)
        self.run = self.first_call

    def __call__(self, *values):
        return self.run(*values)

    def first_call(self, *values):
        """`run` until a call compiled (or started compiling) the graph: does that, then runs.

        A graph the on-disk cache's index holds is not optimized nor lowered: its source and
        calling convention are the index's. When the index also holds code compiled for the
        types of these values and numba is imported, the first call loads it and runs it (a
        load takes milliseconds); otherwise the compile is tiered as for any graph."""
        with self._lock:
            if self.run == self.first_call:
                found = self._indexed()
                if found is not None and 'numba' in sys.modules and \
                        _compiled_for(found, values):
                    wrap = self._compile(import_numba(), values, *found[:3])
                    if wrap is not None:
                        self._ready(wrap)
                        return self.run(*values)
                if tiered():
                    check_numba()
                    program = None
                    if found is None and not _kernels_for_all(self._graph):
                        program = self._lowered(self._program())[0]  # to report such an op
                    self.run = self._default_plan()
                    try:
                        return self.run(*values)
                    finally:  # started after, so it does not compete with this call for the GIL
                        self._start(program, values, found)
                found = found or self._lowered(self._program())
                wrap = self._compile(import_numba(), values, *found[:3])
                if wrap is None:  # a variable without a value: the default executor reports it
                    return self._default_plan()(*values)
                self._ready(wrap)
        return self.run(*values)

    def _indexed(self):
        """(None, source, convention, types) from the on-disk cache's index for this graph
        (`types`: the argument types its code was compiled for), or None."""
        self._unoptimized = self._lowered_program()
        if cache.directory() is None:  # no on-disk cache: no index either
            return None
        self._key = keys.program_key(self._unoptimized, self._pipeline)
        found = cache.entry(self._key)
        if found is None:
            return None
        self._unoptimized = None  # lowered again only if numba cannot compile the source
        self.source = found['source']
        return (None, found['source'],
                calling.Convention.from_record(found['convention'], (team.MAIL,)),
                found['types'])

    def _program(self):
        """The optimized Program (from the one the key was computed from, if not yet used)."""
        program, self._unoptimized = self._unoptimized, None
        return self._optimize(program if program is not None else self._lowered_program())

    def when_native(self, listener):
        """Call `listener(run)` with the wrapper of the native code (which takes the plan's
        input values, as the plan does) once calls run it: now if they do, else from the
        thread that compiles it. A caller may then call the wrapper directly."""
        with self._lock:
            if not self.native:
                self._listeners.append(listener)
                return
        listener(self.run)

    def wrapper(self, bound=(), result=None):
        """Once calls run native code: a wrapper of it with the values of the first params
        fixed to `bound`, returning `make(output, tag)` for `result` = (make, tag) (see
        `calling.Convention.wrapper`): a caller with captures and one output calls that."""
        if self._wrap is None:
            raise ValueError('the native code is not ready yet (see when_native)')
        return self._wrap(bound, result)

    def _ready(self, wrap):
        keep_freed_memory()
        run = wrap()
        with self._lock:
            self._wrap = wrap
            self.run = run
            self.native = True
            listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener(run)
        self._serve_shared_loops()

    def _serve_shared_loops(self):
        """Compile the helper thread's workers of the loops the code shares, and register them.
        This comes after the code runs: a loop whose job has no worker yet is computed by its
        caller alone (the helper takes no job it has no worker for)."""
        workers, self._workers = self._workers, {}
        if not workers:
            return
        numba = import_numba()
        for job, worker in workers.items():
            try:
                worker.compile((numba.typeof(team.MAIL), numba.int64))
            except numba.core.errors.NumbaError:
                continue  # its loop stays the caller's alone, as without a helper thread
            team.register(job, worker)

    @room()  # the emitter's walks recurse per nesting level (recursion.py)
    def _lowered(self, program):
        """(the optimized program, its native source re-rolled, the calling convention)."""
        try:
            source, convention = lower(program, True)
        except Unsupported as e:
            raise _unsupported_error(program, e.node, e.reason) from None
        self.source = source
        return program, source, convention

    def _start(self, program, values, found):
        thread = threading.Thread(target=self._compile_in_background,
                                  args=(program, values, found),
                                  name=f'jit_compile {getattr(self._graph, "name", "graph")}')
        with _pending_changed:
            _pending[thread] = self
        thread.start()

    def _compile_in_background(self, program, values, found):
        """Lower `program` (None: optimize the graph first) unless the index `found` its
        source, compile it, then calls run it."""
        try:
            with _compiling:
                if not threading.main_thread().is_alive():  # the process is exiting
                    return
                if found is None:
                    found = self._lowered(program if program is not None else self._program())
                wrap = self._compile(import_numba(), values, *found[:3])
            if wrap is None:  # a variable without a value: try again at the next call
                self.run = self.first_call
            else:
                self._ready(wrap)
        except Exception as e:  # raised by the next call
            self._failure = e
            self.run = self._failed
        finally:
            with _pending_changed:
                _pending.pop(threading.current_thread(), None)
                _pending_changed.notify_all()

    def _failed(self, *values):
        raise self._failure

    @room()  # so does numba's compile
    def _compile(self, numba, values, program, source, convention):
        """`wrap(bound=(), result=None)` making wrappers calling the code of `source` compiled
        for the types of `values` (None when a variable has no value yet). A re-rolled source
        numba cannot compile is lowered again as written. `program` (None: the index gave
        `source`) is the optimized Program. Code of a convention the index can hold is
        remembered there for the types it was compiled for."""
        rolled = True
        name = getattr(self._graph, 'name', 'graph')
        while True:
            args = convention.example_arguments(values)
            if args is None:
                return None
            function, workers = cache.load(numba, source, name, convention.shares)
            try:
                argument_types = tuple(numba.typeof(v) for v in args)
                reused = argument_types in function.overloads  # another plan's, same source
                function.compile(argument_types)
                self._workers = workers  # compiled once the code runs (`_ready`)
                self.compiled = Compiled(
                    hashlib.sha256(source.encode()).hexdigest(),
                    tuple(str(signature) for signature in function.signatures),
                    bool(function.targetoptions.get('nogil')), tuple(sorted(workers)),
                    program is None, reused or bool(function.stats.cache_hits))
                break
            except numba.core.errors.NumbaError as e:
                if rolled:
                    rolled = False
                    program = program if program is not None else self._program()
                    unrolled, unrolled_convention = lower(program, False)
                    if unrolled != source:
                        source = self.source = unrolled
                        convention = unrolled_convention
                        continue
                raise errors.InvalidArgumentError(
                    None, None, f'jit_compile=True could not compile {name} to native '
                                f'code: {_first_line(e)}. Remove jit_compile=True to run it '
                                f'with the default executor.') from None
        if self._key is not None and convention.recordable:
            cache.remember(self._key, source, convention.record((team.MAIL,)),
                           calling.argument_types(args))
        return functools.partial(convention.wrapper, function, self._default_plan)


def _compiled_for(found, values):
    """Whether the index entry `found` (see `NativePlan._indexed`) holds code compiled for the
    types of the arguments `values` give."""
    args = found[2].example_arguments(values)
    return args is not None and calling.argument_types(args) in found[3]


_MXFAST, _MMAP_THRESHOLD, _TRIM_THRESHOLD = 1, -3, -1  # glibc's mallopt parameters (malloc.h)
_kept = []  # whether keep_freed_memory has run (once a process)


def keep_freed_memory():
    """Once a process, when native code first runs: glibc's malloc keeps blocks up to 32 MiB
    that native code frees for its next allocations, instead of returning each to the system
    and faulting fresh pages in at the next call (`AUTOGRAPH_RT_JIT_MALLOC=0` leaves malloc as
    it is).

    glibc maps blocks over a threshold (128 KiB to start with) afresh at each allocation and
    unmaps them when freed, and gives back the free top of its heap past another; it raises
    both after a large block is freed, to at most 32 and 64 MiB. So the same native code
    allocating 0.5 MiB lists at each call ran 2.5x slower in a process where nothing had
    raised them (a new process loading the code from the cache: 600 page faults a call) than
    in one whose compile had. These are the values glibc itself ends at.

    And small blocks freed go back to malloc's bins at once, not to its *fastbins*: those are
    merged only when a larger block is asked for, so the first native call after Python code
    freed many small numpy buffers (a default executor's loop, hand-written numpy) paid for
    merging them all: 200 TensorArray row writes took 8.9 µs that first call, against 2.0 µs
    at the next (4.1 µs without fastbins; the allocation alone 6.1 -> 2.0 µs)."""
    if _kept or os.environ.get('AUTOGRAPH_RT_JIT_MALLOC', '1') == '0':
        return
    _kept.append(True)
    try:
        import ctypes  # deferred: start-up cost (ctypes: only once native code runs)
        # the process's own symbols, the C library's among them (`ctypes.util.find_library`
        # would run `ldconfig` in a subprocess: 5-70 ms before native code runs)
        libc = ctypes.CDLL(None)
    except OSError:
        return
    # glibc only: other C libraries' mallopt take other numbers, or have none
    if hasattr(libc, 'gnu_get_libc_version') and hasattr(libc, 'mallopt'):
        libc.mallopt(_MMAP_THRESHOLD, 32 << 20)
        libc.mallopt(_TRIM_THRESHOLD, 64 << 20)
        libc.mallopt(_MXFAST, 0)


def _kernels_for_all(graph):
    """Whether every op of `graph` (and of the functions its control flow calls) has a kernel
    or is a constant, a param or control flow: then its program lowers (each node by a rule or
    by its kernel), which the background compile can find out without this call lowering it."""
    for op in graph.operations:
        opdef = op.opdef
        if opdef.control_flow is not None:
            if not all(_kernels_for_all(graph.library[ref.name])
                       for ref in opdef.functions(op.attrs)):
                return False
        elif opdef.kernel is None and opdef.bind_kernel is None and \
                opdef not in (registry.CONST, registry.PLACEHOLDER):
            return False
    return True


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
