"""`gradients` (`tf.gradients`; `rt.gradients` is the package) and `rt.hessians` in the graph
being built, `rt.RegisterGradient`, `rt.no_gradient`, `rt.grad_pass_through`,
`rt.recompute_grad`, and `rt.vectorized_map`."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.gradients.symbolic import gradients
from runtime.ops.registry import REGISTRY, UNREGISTERED_GRADIENT


def test_gradients_and_hessians_inside_a_function():
    w = rt.Variable([1.0, -2.0])

    @ag.function
    def f(x):
        y = rt.reduce_sum(x * x * x) + rt.reduce_sum(w * x)
        dx, dw = gradients(y, [x, w])
        (h,) = rt.hessians(y, x)
        weighted = gradients(x * x, x, grad_ys=rt.constant([1.0, 10.0]))[0]
        return dx, dw, h, weighted

    dx, dw, h, weighted = f(rt.constant([1.0, 2.0]))
    np.testing.assert_allclose(dx.numpy(), [3 * 1 + 1, 3 * 4 - 2])
    np.testing.assert_allclose(dw.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(h.numpy(), [[6.0, 0.0], [0.0, 12.0]])
    np.testing.assert_allclose(weighted.numpy(), [2.0, 40.0])


def test_gradients_stop_gradients_and_unconnected():
    @ag.function
    def f(x, z):
        a = x * 2.0
        y = a * x
        blocked = gradients(y, x, stop_gradients=[a])[0]
        unconnected = gradients(y, z)[0]
        zero = gradients(y, z, unconnected_gradients='zero')[0]
        return blocked, unconnected is None, zero

    blocked, is_none, zero = f(rt.constant(3.0), rt.constant(1.0))
    assert float(blocked) == 6.0 and bool(is_none) and float(zero) == 0.0


def test_gradients_eagerly_is_tensorflows_runtime_error():
    with pytest.raises(RuntimeError, match='GradientTape'):
        gradients(rt.constant(1.0), rt.constant(2.0))
    with pytest.raises(ValueError, match='aggregation_method'):
        ag.function(lambda x: gradients(x, x, aggregation_method=7))(rt.constant(1.0))


def test_register_gradient_and_no_gradient():
    opdef = REGISTRY['Dilation2DBackpropInput']  # no gradient in TensorFlow either
    assert opdef.gradient is UNREGISTERED_GRADIENT
    try:
        @rt.RegisterGradient('Dilation2DBackpropInput')
        def _gradient(op, grad):
            return [None, None, grad]
        assert opdef.gradient is _gradient
        with pytest.raises(KeyError, match='Registering two gradient'):
            rt.RegisterGradient('Dilation2DBackpropInput')(_gradient)
    finally:
        opdef.gradient = UNREGISTERED_GRADIENT
    with pytest.raises(KeyError, match="'Relu'"):
        rt.no_gradient('Relu')
    with pytest.raises(LookupError, match='NoSuchOp'):
        rt.RegisterGradient('NoSuchOp')(lambda op, grad: [grad])
    with pytest.raises(TypeError, match='string'):
        rt.no_gradient(3)


def test_grad_pass_through_and_recompute_grad():
    x = rt.constant([1.4, -0.6])
    with rt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        rounded = rt.grad_pass_through(rt.round)(x)
        y = rt.reduce_sum(rounded * 3.0)
        recomputed = rt.recompute_grad(lambda a: rt.sin(a) * a)(x)
        z = rt.reduce_sum(recomputed)
    assert rounded.numpy().tolist() == [1.0, -1.0]
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(recomputed.numpy(), np.sin([1.4, -0.6]) * [1.4, -0.6], rtol=1e-6)
    expected = np.cos([1.4, -0.6]) * [1.4, -0.6] + np.sin([1.4, -0.6])
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), expected, rtol=1e-6)


def test_recompute_grad_of_a_function_reading_a_variable():
    v = rt.Variable(2.0)
    x = rt.constant(3.0)
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = rt.recompute_grad(lambda a: a * a * v)(x)
    dx, dv = tape.gradient(y, [x, v])
    assert (float(dx), float(dv)) == (12.0, 9.0)


def test_vectorized_map_eagerly_and_with_an_unknown_batch():
    rows = rt.reshape(rt.range(6.0), [3, 2])
    doubled, sums = rt.vectorized_map(lambda r: (r * 2.0, rt.reduce_sum(r)), rows)
    assert doubled.numpy().tolist() == [[0, 2], [4, 6], [8, 10]]
    assert sums.numpy().tolist() == [1.0, 5.0, 9.0]

    @ag.function(input_signature=[rt.TensorSpec([None, 2])])
    def f(x):
        return rt.vectorized_map(lambda r: rt.reduce_max(r), x)

    assert f(rows).numpy().tolist() == [1.0, 3.0, 5.0]
    empty = rt.vectorized_map(lambda r: rt.cast(r, rt.int32) * 2, rt.zeros([0, 3]))
    assert empty.shape == (0, 3) and empty.dtype is rt.int32
