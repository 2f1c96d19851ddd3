"""Which graph ops are being added to. An empty stack means eager execution."""
import contextlib

graph_stack = []


def current_graph():
    return graph_stack[-1] if graph_stack else None


def executing_eagerly():
    return not graph_stack


@contextlib.contextmanager
def init_scope():
    """Run the body eagerly, outside every graph being built (used to create variables)."""
    saved = graph_stack[:]
    graph_stack.clear()
    try:
        yield
    finally:
        graph_stack[:] = saved
