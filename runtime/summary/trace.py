"""`trace_on` / `trace_export` / `trace_off`: the graphs of the traced functions that run while
tracing is on, written for TensorBoard's Graphs dashboard.

autograph's ConcreteFunction notes its graph here on each call while `active[0]` is set (one
list read on its call path otherwise). `trace_export` writes one `graph_def` event: the graph of
the function that ran, with its function library (cond branches, loop bodies), or, when
several ran, each function's nodes under its own name scope.
"""
import threading

from runtime.core import context, dtypes
from runtime.graph.serialization import graph_def_message, wire
from runtime.ops.dispatch import apply
from runtime.summary.ops import WRITE_GRAPH_SUMMARY
from runtime.summary.writer import should_record, state

active = [False]
_graphs = []  # the graphs noted since trace_on, in order of first run
_lock = threading.Lock()


def note(graph):
    """Called by a traced function as it runs while tracing is on."""
    with _lock:
        if active[0] and not any(g is graph for g in _graphs):
            _graphs.append(graph)


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Start recording the graphs of the traced functions (`ag.function`) that run. There is
    no profiler here: `profiler=True` records the graphs only."""
    with _lock:
        _graphs.clear()
        context.switch(active, bool(graph) or bool(profiler))


def trace_off():
    """Stop recording and forget what was recorded."""
    with _lock:
        context.switch(active, False)
        _graphs.clear()


def trace_export(name, step=None, profiler_outdir=None):
    """Write the recorded graphs to the default writer as a `graph_def` event at `step` (else
    the default step, else 0), then stop tracing. `name` labels nothing TensorBoard shows for a
    graph_def event; it is kept for TensorFlow's signature. Returns None."""
    if not active[0]:
        raise ValueError('Must enable trace before export through rt.summary.trace_on.')
    with _lock:
        graphs = list(_graphs)
    trace_off()
    writer = state.writer
    if writer is None or not graphs or should_record() is not True:
        return None
    if step is None:
        step = 0 if state.step is None else state.step
    if hasattr(step, 'numpy'):
        step = step.numpy()
    data = wire.encode('GraphDef', merged_graph_def(graphs))
    apply(WRITE_GRAPH_SUMMARY, [writer.handle(None), dtypes.int64.np_dtype.type(step), data])
    return None


def merged_graph_def(graphs):
    """One GraphDef message for `graphs`: the graph itself when there is one, else each
    graph's nodes under a scope named after it, with the union of their libraries."""
    if len(graphs) == 1:
        return graph_def_message(graphs[0])
    nodes, functions, versions = [], {}, None
    for graph in graphs:
        message = graph_def_message(graph)
        versions = versions or message.get('versions')
        prefix = getattr(graph, 'name', 'graph') + '/'
        for node in message.get('node', []):
            node = dict(node, name=prefix + node['name'])
            if 'input' in node:
                node['input'] = [f'^{prefix}{i[1:]}' if i.startswith('^') else prefix + i
                                 for i in node['input']]
            nodes.append(node)
        for function in message.get('library', {}).get('function', []):
            functions.setdefault(function['signature']['name'], function)
    merged = {'node': nodes, 'library': {'function': list(functions.values())}}
    if versions:
        merged['versions'] = versions
    return merged
