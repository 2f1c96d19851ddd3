"""Which graph ops are being added to, per thread. An empty stack means eager execution.

Each thread has its own stack, so eager work on one thread never lands in a graph another
thread is tracing.
"""
import contextlib
import threading


class _State(threading.local):
    def __init__(self):
        self.graphs = []


state = _State()


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
