"""`rt.custom_gradient` as TensorFlow 2.21's: Variable arguments are inputs (their gradients are
among the input gradients), variables read otherwise come through `variables=`, and a tape
around a gradient computation differentiates through what the function computed (second
derivatives are not dropped). The expected numbers are TensorFlow 2.21's for the same code."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt


@rt.custom_gradient
def _softplus(x):
    e = rt.exp(x)
    y = rt.math.log(1.0 + e)

    def grad(dy):
        return dy * e / (1.0 + e)  # uses a tensor `f` computed: its own derivative counts
    return y, grad


def _hessian_vector_product(x, v):
    with rt.GradientTape() as outer:
        outer.watch(x)
        with rt.GradientTape() as inner:
            inner.watch(x)
            y = rt.reduce_sum(_softplus(x) * x * x)
        g = inner.gradient(y, x)
        gv = rt.reduce_sum(g * v)
    return outer.gradient(gv, x)


@pytest.mark.parametrize('staged', [False, True])
def test_a_hessian_vector_product_through_a_custom_gradient_is_tensorflows(staged):
    fn = ag.function(_hessian_vector_product) if staged else _hessian_vector_product
    got = fn(rt.constant([0.5, 1.0]), rt.constant([1.0, 2.0]))
    np.testing.assert_allclose(got.numpy(), [3.2518237, 11.494739], rtol=1e-5)


def test_a_variable_argument_gets_its_gradient_among_the_input_gradients():
    w = rt.Variable(2.0)
    x = rt.constant(1.5)

    @rt.custom_gradient
    def scale(var, x):
        def grad(dy, variables=None):
            assert variables == []  # the argument is not among the variables read
            return (dy * 10.0, dy * 20.0), []
        return var * x, grad

    with rt.GradientTape() as tape:
        tape.watch(x)
        out = scale(w, x)
    assert [float(g) for g in tape.gradient(out, [w, x])] == [10.0, 20.0]


def test_variables_read_inside_come_through_the_variables_keyword():
    w = rt.Variable(2.0)
    x = rt.constant(1.5)

    @rt.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            assert len(variables) == 1 and variables[0] is w
            return dy * 10.0, [dy * 30.0]
        return w * x, grad

    @ag.function
    def staged(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            out = scaled(x)
        return tape.gradient(out, [w, x])

    with rt.GradientTape() as tape:
        tape.watch(x)
        out = scaled(x)
    assert [float(g) for g in tape.gradient(out, [w, x])] == [30.0, 10.0]
    assert [float(g) for g in staged(x)] == [30.0, 10.0]
