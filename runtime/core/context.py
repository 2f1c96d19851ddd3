"""Which graph ops are being added to, per thread (an empty stack means eager execution), and
the name scope (`rt.name_scope`) they and Variables are named under.

Each thread has its own stack, so eager work on one thread never lands in a graph another
thread is tracing.
"""
import contextlib
import os
import threading


class _State(threading.local):
    def __init__(self):
        self.graphs = []
        self.tapes = []  # this thread's active gradient tapes, innermost last
        self.name_scope = ''  # the eager name scope (`outer/inner/`), named Variables use it


state = _State()
# How many graphs all threads are building, and how many tapes record: `apply` reads these
# cells, and the thread-local lists only when they are not zero, so eager ops pay one list read
# each (a thread-local lookup costs more). Changed under `_count_lock` only.
building_graphs = [0]
active_tapes = [0]
# Nonzero while a traced Function's call must look beyond its arguments: each graph being
# built, each recording tape (in any thread), functions running eagerly and a summary trace
# recording graphs adds one while it lasts (`switch`), so that call reads one cell.
calls_look_further = [0]
_count_lock = threading.Lock()
# Called with True when a first graph starts being built (in any thread) and with False when
# the last one ends, under the counts' lock (keep them short): AutoGraph's converted code calls
# user functions as they are while nothing is being built (autograph/operators/call.py).
building_watchers: list = []


def _count(cell, delta):
    with _count_lock:
        cell[0] += delta
        calls_look_further[0] += delta
        if cell is building_graphs and cell[0] == (1 if delta > 0 else 0):
            _tell_watchers()


def _tell_watchers():
    building = building_graphs[0] > 0
    for watcher in building_watchers:
        watcher(building)


def _reset_in_child():
    """After a fork, in the child: only the forking thread survives, so the counts are its own
    and the lock (which another thread may have held at the fork) is new."""
    global _count_lock
    _count_lock = threading.Lock()
    calls_look_further[0] += len(state.graphs) - building_graphs[0] + \
        len(state.tapes) - active_tapes[0]
    building_graphs[0] = len(state.graphs)
    active_tapes[0] = len(state.tapes)
    _tell_watchers()


os.register_at_fork(after_in_child=_reset_in_child)


@contextlib.contextmanager
def building(graph):
    """Inside the block, ops this thread creates are added to `graph` (`Graph.as_default`)."""
    state.graphs.append(graph)
    _count(building_graphs, 1)
    try:
        yield graph
    finally:
        _count(building_graphs, -1)
        state.graphs.pop()


@contextlib.contextmanager
def recording(tape):
    """Inside the block, every op this thread runs is handed to `tape.record(opdef, inputs,
    attrs, outputs)` (by runtime.ops.dispatch.apply)."""
    state.tapes.append(tape)
    _count(active_tapes, 1)
    try:
        yield tape
    finally:
        _count(active_tapes, -1)
        state.tapes.remove(tape)


def switch(cell, on):
    """Set the switch `cell` (functions run eagerly, a summary trace records graphs) to the
    bool `on`, counted in `calls_look_further` while it is on."""
    with _count_lock:
        if on != cell[0]:
            calls_look_further[0] += 1 if on else -1
        cell[0] = on


def adjust_tapes(delta):
    """Count one more (`delta` 1) or one fewer (-1) recorder in this thread's `state.tapes`,
    for a recorder added or removed without `recording` (a debugging observer)."""
    _count(active_tapes, delta)


def current_name_scope():
    """The name scope ops and Variables created now are named under (`outer/inner/`, or '')."""
    graphs = state.graphs
    if graphs:
        scope = graphs[-1].current_scope
        return f'{scope}/' if scope else ''
    return state.name_scope


def current_graph():
    graphs = state.graphs
    return graphs[-1] if graphs else None


def executing_eagerly():
    """True when ops run at once (no graph is being built on this thread), as
    `tf.executing_eagerly()`: False while a function traces or inside `with g.as_default()`,
    True again under `init_scope` and when functions run eagerly."""
    return not state.graphs


def inside_function():
    """True while ops are being added to a graph on this thread (an `ag.function` tracing, or
    `with g.as_default()`), as `tf.inside_function()`."""
    return bool(state.graphs)


@contextlib.contextmanager
def init_scope():
    """Run the body eagerly, outside every graph being built (used to create variables)."""
    saved = state.graphs
    state.graphs = []
    try:
        yield
    finally:
        state.graphs = saved


class name_scope:  # noqa: N801 - TensorFlow's name
    """`with rt.name_scope('outer'):` names ops and Variables created inside `outer/...`.

    `__enter__` returns the scope's full name with a trailing slash (`'outer/inner/'`). In a
    graph a repeated scope name gets a suffix (`outer_1`), as TensorFlow does; eagerly it does
    not. A name ending in '/' is used as the whole scope, not nested.
    """

    def __init__(self, name):
        if name is not None and not isinstance(name, str):
            raise TypeError(f'rt.name_scope needs a str name, got {type(name).__name__}.')
        self._name = name
        self._exits = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        graph = current_graph()
        name = self._name or ''
        if graph is None:
            saved = state.name_scope
            if name.endswith('/'):
                scope = name
            else:
                scope = f'{saved}{name}/' if name else ''
            state.name_scope = scope
            self._exits.append(lambda: setattr(state, 'name_scope', saved))
            return scope
        if name.endswith('/'):
            block = graph.exact_scope(name[:-1])
        else:
            block = graph.name_scope(name)
        scope = block.__enter__()
        self._exits.append(lambda: block.__exit__(None, None, None))
        return f'{scope}/' if scope else ''

    def __exit__(self, *exc):
        self._exits.pop()()
        return False
