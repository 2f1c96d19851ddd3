"""Helpers the runtime tests import: run a small program eagerly or in a graph (a module of
its own, not conftest, so tests/runtime and tests/autograph collect together)."""
import numpy as np

import runtime as rt


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


def check_value(value, expected, rtol=1e-6, atol=0.0):
    """`value` has `expected`'s shape and values (floats within `rtol`/`atol`)."""
    expected = np.asarray(expected)
    value = np.asarray(value)
    assert value.shape == expected.shape
    if expected.dtype.kind == 'f':
        np.testing.assert_allclose(value, expected, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(value, expected)


def check_op_row(program, inputs, expected, op_type, rtol=1e-6, atol=0.0):
    """One row of an op table: `program` on `inputs` gives `expected` eagerly and in a graph
    (fed through placeholders of unknown dims), where its result comes from an `op_type` op
    of the eager result's dtype and a compatible shape."""
    eager = program(*[rt.constant(a) for a in inputs])
    assert isinstance(eager, rt.Tensor) and not hasattr(eager, 'op')
    check_value(eager.numpy(), expected, rtol, atol)
    g, out, value = run_in_graph(program, *inputs)
    assert out.op.type == op_type
    assert out.dtype is eager.dtype
    assert out.shape.is_compatible_with(eager.shape)
    check_value(value, expected, rtol, atol)
    assert np.asarray(value).dtype == np.asarray(eager.numpy()).dtype
