"""Pauses Python's cycle collector while the compiler's passes run.

A conversion allocates a few thousand tree nodes, dicts and lists, and frees them all by
reference counting: it leaves no reference cycles (control-flow graphs are unlinked once
analysed, `cfg.Graph.release`; tests/autograph/analysis/test_no_cycles.py holds it). With the
collector on, those allocations set off collections of the young generations, and now and then
of the whole heap, that find nothing to free: 14% of the instructions of a `to_code` call
(docs/performance.md). So the collector is off while a pass runs, and back on (if it was on)
when the last pass running in the process ends; a pass that fails leaves its cycles (the
traceback's frames) to the next collection.

The compiler runs no user code while paused: parsing, the converters, unparsing and compiling
the generated module. Tracing, which runs the user's function, is never paused.
"""
import contextlib
import gc
import os
import threading
from typing import Iterator

_lock = threading.Lock()
_running = [0]         # passes running now, in any thread
_was_enabled = [False]  # whether the collector was on when the first of them began


def _reset_in_child() -> None:
    """After a fork, in the child: the threads that were converting are gone."""
    global _lock
    _lock = threading.Lock()
    if _running[0]:
        _running[0] = 0
        if _was_enabled[0]:
            gc.enable()


os.register_at_fork(after_in_child=_reset_in_child)


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The collector off for the duration (nested and concurrent uses share one pause)."""
    with _lock:
        if not _running[0]:
            _was_enabled[0] = gc.isenabled()
            gc.disable()
        _running[0] += 1
    try:
        yield
    finally:
        with _lock:
            _running[0] -= 1
            if not _running[0] and _was_enabled[0]:
                gc.enable()
