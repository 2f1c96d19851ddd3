"""Room for the executor's recursive walks, whatever recursion limit the user set.

Lowering a graph to a Program (ir.py), the passes, the emitters and the compilers they hand
their source to (Python's `compile`, numba) recurse once or more per nesting level of the
graph's control flow: a graph of 100 nested Ifs needs hundreds of frames. They run when a
function is first called (a `jit_compile=True` function lowers then), which may be deep in the
user's own recursion under a limit the user set tight; autograph's tracer makes room only while
it traces (and the runtime does not import autograph). `room()` raises Python's limit by `ROOM`
frames over the one it finds while any such walk runs, in any thread, and puts the limit back
when the last walk ends, unless something else changed it meanwhile (then that stands). The
walks run no user code, so the user's recursion still stops at the user's limit.
"""
import contextlib
import os
import sys
import threading

ROOM = 10_000  # frames: a nesting level takes a few dozen at most in the deepest walk

_lock = threading.Lock()
_state = {'walks': 0, 'found': 0, 'set': 0}  # walks running; the limit found; the limit set


def _new_lock_in_child():
    """After a fork, in the child: a thread that held the lock (or ran a walk) is gone."""
    global _lock
    _lock = threading.Lock()
    if _state['walks'] and sys.getrecursionlimit() == _state['set']:
        sys.setrecursionlimit(_state['found'])
    _state['walks'] = 0


os.register_at_fork(after_in_child=_new_lock_in_child)


@contextlib.contextmanager
def room():
    """Python's recursion limit raised by `ROOM` while the block (or decorated function) runs."""
    with _lock:
        if not _state['walks']:
            _state['found'] = sys.getrecursionlimit()
            _state['set'] = _state['found'] + ROOM
            sys.setrecursionlimit(_state['set'])
        _state['walks'] += 1
    try:
        yield
    finally:
        with _lock:
            _state['walks'] -= 1
            if not _state['walks'] and sys.getrecursionlimit() == _state['set']:
                sys.setrecursionlimit(_state['found'])
