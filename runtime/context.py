"""Which graph ops are being added to, per thread. An empty stack means eager execution.

Each thread has its own stack, so eager work on one thread never lands in a graph another
thread is tracing.
"""
import contextlib
import threading


class _State(threading.local):
    def __init__(self):
        self.graphs = []
        self.tapes = []  # this thread's active gradient tapes, innermost last


state = _State()
# How many tapes are active in all threads: `apply` reads this one cell, and the per-thread
# list only when it is not zero, so running ops costs nothing extra while no tape records.
active_tapes = [0]


@contextlib.contextmanager
def recording(tape):
    """Inside the block, every op this thread runs is handed to `tape.record(opdef, inputs,
    attrs, outputs)` (by runtime.ops.dispatch.apply)."""
    state.tapes.append(tape)
    active_tapes[0] += 1
    try:
        yield tape
    finally:
        active_tapes[0] -= 1
        state.tapes.remove(tape)


def current_graph():
    graphs = state.graphs
    return graphs[-1] if graphs else None


@contextlib.contextmanager
def init_scope():
    """Run the body eagerly, outside every graph being built (used to create variables)."""
    saved = state.graphs
    state.graphs = []
    try:
        yield
    finally:
        state.graphs = saved
