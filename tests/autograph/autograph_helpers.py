"""Helpers the autograph tests import: run converted code on Python values or in a graph (a
module of its own, not conftest, so tests/runtime and tests/autograph collect together)."""
import numpy as np

import autograph as ag
import runtime as rt


class Python:
    """Marks an argument that stays a Python value when a function runs in a graph."""

    def __init__(self, value):
        self.value = value


def in_graph(f, *args):
    """Runs `ag.to_graph(f)` on placeholders fed with `args` in a fresh graph; numpy results."""
    graph = rt.Graph()
    feeds = {}
    examples = [a if isinstance(a, Python) else rt.constant(a) for a in args]
    with graph.as_default():
        inputs = []
        for example in examples:
            if isinstance(example, Python):
                inputs.append(example.value)
                continue
            placeholder = rt.placeholder(example.dtype, shape=example.shape)
            feeds[placeholder] = example
            inputs.append(placeholder)
        outputs = ag.to_graph(f)(*inputs)
    if not any(isinstance(t, rt.Tensor) for t in rt.nest.flatten(outputs)):
        return outputs, graph
    return graph.run(outputs, feeds), graph


def plain(*args):
    return [a.value if isinstance(a, Python) else a for a in args]


def assert_same(graph_result, python_result):
    """Graph values equal Python's (graph strings come back as bytes)."""
    graph_result = np.asarray(graph_result)
    if graph_result.dtype.kind == 'S':
        graph_result = graph_result.astype(str)
    np.testing.assert_equal(graph_result, np.asarray(python_result))
