"""Shared helpers for the runtime tests: run a small program eagerly or in a graph."""
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import runtime as rt  # noqa: E402


def run_in_graph(fn, *arrays, shapes=None):
    """Build `fn(*placeholders)` in a fresh graph and run it with `arrays` fed.

    Placeholders have unknown dims (or `shapes`), so this also exercises partial shape
    inference. Returns (graph, output tensor, numpy result)."""
    g = rt.Graph()
    with g.as_default():
        feeds = {}
        placeholders = []
        for i, a in enumerate(arrays):
            a = np.asarray(a)
            shape = shapes[i] if shapes else [None] * a.ndim
            p = rt.placeholder(rt.as_dtype(a.dtype), shape=shape, name=f'in{i}')
            feeds[p] = a
            placeholders.append(p)
        out = fn(*placeholders)
    return g, out, g.run(out, feeds)


@pytest.fixture
def graph():
    g = rt.Graph()
    with g.as_default():
        yield g
