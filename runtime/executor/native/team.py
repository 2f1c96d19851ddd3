"""The helper thread that shares large native loops with the thread calling them.

A fused sum of many elements, or an elementwise loop writing a large array
(native/rules/elementwise.py, native/emitter.py), is split into blocks that threads *claim*
from a counter; the caller posts the loop to the helper, then claims blocks itself, so
it never waits for a helper that has not started (under load the caller computes every block
and the helper, when it wakes, finds the job gone). It waits only for a block the helper is
computing, which then finishes without the GIL. Each block's sum goes to its own slot (each
block's elements to their own part of the array) and the slots are added in block order, so
the result does not depend on who computed which block.

The mailbox `MAIL` is an int64 array that native code receives as an argument and reads and
writes with atomic operations (native/atomics.py, the numba side of this protocol):

- `STATE`: `IDLE`; `POSTING` while a caller fills in the job; `POSTED + job` once posted
  (`job` the id of the loop, a literal of the generated code); `RUNNING` once the helper took
  it (a compare-and-swap from `POSTED + job`, so it never runs a job it did not find);
- `COUNTER`: the next block to claim; `HELPED`: how many blocks the helper has computed (for
  tests and `helped()`);
- `ARGS...`: the addresses of the loop's arrays (its operands, then its result: the partial
  sums or the array written); `SEMAPHORE`: the POSIX semaphore the helper
  waits on (the caller posts it from native code).

The helper is a daemon Python thread started by the first graph that has such a loop. It waits
in `sem_wait` (without the GIL), reads which job was posted and calls that loop's *worker*, a
`nogil` function of the generated module, which claims blocks until none is left. Native
functions with shared loops are `nogil` too: the helper needs the GIL to call its worker.

No helper (every loop runs on the calling thread, with the same result) where the process may
use one CPU only, where POSIX semaphores are missing, or with `AUTOGRAPH_RT_JIT_THREADS=1`.
Imports neither numba nor the rest of the native backend.
"""
import ctypes
import os
import threading

import numpy as np

STATE, COUNTER, HELPED, ARGS, SEMAPHORE = 0, 1, 2, 3, 12
MAX_ARGS = SEMAPHORE - ARGS  # arrays a shared loop may give (its operands and its result)
IDLE, POSTING, RUNNING, POSTED = 0, 1, 2, 16
_SEMAPHORE_WORDS = 4  # sem_t: 32 bytes on 64-bit Linux (glibc and musl)
_SLOTS = SEMAPHORE + _SEMAPHORE_WORDS
MIN_BLOCKS = 16
"""Blocks a loop needs to be shared (with blocks of 4096 elements, 64K elements): below, posting
and the helper's wake-up cost about what it would save."""

MAIL = np.zeros(_SLOTS, np.int64)
"""The mailbox (see the module's docstring); native code gets it as an argument. Busy until
the helper has started, so no call posts a job before."""
MAIL[STATE] = RUNNING

_workers = {}  # job id -> the worker dispatcher (numba, nogil)
_lock = threading.Lock()
_started = [False]
_running = [False]
_libc = None


def _wanted():
    """Whether this process may use a helper thread: more than one CPU it may run on, and not
    turned off with AUTOGRAPH_RT_JIT_THREADS=1."""
    if os.environ.get('AUTOGRAPH_RT_JIT_THREADS', '').strip() == '1':
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return cpus > 1


def _semaphore_address():
    return MAIL.ctypes.data + SEMAPHORE * MAIL.itemsize


def _open():
    """A fresh semaphore in the mailbox, the mailbox idle; False where that is not possible
    (then the mailbox stays busy, so no caller posts and every loop runs on its caller)."""
    global _libc
    MAIL[:] = 0
    MAIL[STATE] = RUNNING  # busy until the helper is there
    if not _wanted():
        return False
    try:
        if _libc is None:
            # the process's own symbols, the C library's among them (`ctypes.util.find_library`
            # would run `ldconfig` in a subprocess, 5-70 ms before native code runs)
            libc = ctypes.CDLL(None, use_errno=True)
            libc.sem_init.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint]
            libc.sem_wait.argtypes = [ctypes.c_void_p]
            libc.sem_post.argtypes = [ctypes.c_void_p]
            _libc = libc
        if _libc.sem_init(_semaphore_address(), 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    return True


def register(job, worker):
    """Make `worker` (a compiled nogil function `(MAIL, job)`) the worker of `job`, and start
    the helper if it has not started yet."""
    with _lock:
        _workers.setdefault(job, worker)
        _start()


def _start():
    if not _started[0]:
        _started[0] = True
        if _open():
            threading.Thread(target=_serve, name='autograph-rt jit helper', daemon=True).start()
            _running[0] = True
            MAIL[STATE] = IDLE


def running():
    """Whether this process has a helper thread (started by the first graph with a shared
    loop; never with one CPU, without POSIX semaphores or with AUTOGRAPH_RT_JIT_THREADS=1)."""
    return _running[0]


def _serve():
    """The helper: wait for a post, run the posted job's worker, and again."""
    semaphore, libc = _semaphore_address(), _libc
    while True:
        if libc.sem_wait(semaphore) != 0:
            continue  # interrupted by a signal
        state = int(MAIL[STATE])
        worker = _workers.get(state - POSTED) if state >= POSTED else None
        if worker is not None:
            worker(MAIL, state - POSTED)  # it claims the job only if still posted


def helped():
    """How many blocks the helper has computed in this process."""
    return int(MAIL[HELPED])


def _after_fork_in_child():
    """The child has no helper thread, and the mailbox may be mid-job: a new mailbox, and a
    helper of its own if the parent's graphs had shared loops (their workers serve the child
    too)."""
    global _lock
    _lock = threading.Lock()
    _started[0] = _running[0] = False
    MAIL[:] = 0
    MAIL[STATE] = RUNNING
    if _workers:
        _start()


os.register_at_fork(after_in_child=_after_fork_in_child)
