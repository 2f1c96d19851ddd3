"""`rt.import_graph_def` as TensorFlow's: a GraphDef (TensorFlow's own bytes too) imported into
the graph being built, its placeholders replaced through `input_map`."""
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt

FIXTURES = os.path.join(os.path.dirname(__file__), '..', 'fixtures')


def _dense_bytes():
    # relu(x @ w + b), written by TensorFlow 2.21 (tests/runtime/graph/test_serialization.py)
    with open(os.path.join(FIXTURES, 'tf_dense.pb'), 'rb') as f:
        return f.read()


def test_a_tensorflow_graph_def_imported_with_its_inputs_mapped():
    x = np.array([[1.0, -2.0]], np.float32)
    w = np.array([[1.0, 0.5], [2.0, -1.0]], np.float32)
    b = np.array([0.5, 0.25], np.float32)
    g = rt.Graph()
    with g.as_default():
        inputs = {'x:0': rt.constant(x), 'w': rt.constant(w), 'b:0': rt.constant(b)}
        out, op = rt.import_graph_def(_dense_bytes(), input_map=inputs,
                                      return_elements=['Identity:0', 'MatMul'])
        again = rt.import_graph_def(_dense_bytes(), input_map=inputs,
                                    return_elements=['Identity:0'], name='dense')[0]
    expected = np.maximum(x @ w + b, 0.0)
    np.testing.assert_allclose(g.run(out), expected)
    np.testing.assert_allclose(g.run(again), expected)
    assert (out.name, op.name, again.name) == ('import/Identity:0', 'import/MatMul',
                                              'dense/Identity:0')
    assert op.type == 'MatMul'


def test_import_graph_def_in_a_function_and_its_errors():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [2], name='x')
        rt.add(rt.multiply(x, 3.0), 1.0, name='z')
    graph_def = g.as_graph_def()

    @ag.function
    def f(v):
        return rt.import_graph_def(graph_def, input_map={'x:0': v}, return_elements=['z:0'])[0]

    assert f(rt.constant([1.0, 2.0])).numpy().tolist() == [4.0, 7.0]
    with pytest.raises(RuntimeError, match='graph being built'):
        rt.import_graph_def(graph_def)
    with rt.Graph().as_default():
        assert rt.import_graph_def(graph_def, input_map={'x': rt.constant([1.0, 1.0])}) is None
        with pytest.raises(ValueError, match='not found in graph_def'):
            rt.import_graph_def(graph_def, input_map={'nope:0': rt.constant([1.0, 1.0])})
        with pytest.raises(ValueError, match='return_element'):
            rt.import_graph_def(graph_def, input_map={'x': rt.constant([1.0, 1.0])},
                                return_elements=['nope'])
