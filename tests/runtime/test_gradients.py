"""`rt.GradientTape`: watching, variables, nested sources, unconnected and non-float
gradients, persistent tapes, jacobians, higher-order gradients, stop_gradient, and the same
inside `ag.function` (where the gradient ops join the function's graph)."""
import numpy as np
import pytest
from test_op_layer import RecordingTape

import autograph as ag
import runtime as rt


def test_the_gradient_of_a_polynomial():
    x = rt.constant(3.0)
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = x ** 2 + 2.0 * x
    assert tape.gradient(y, x).numpy() == 8.0


def test_trainable_variables_read_inside_are_watched_and_constants_are_not():
    w = rt.Variable([[1.0, 2.0], [3.0, 4.0]])
    b = rt.Variable([0.5, -0.5])
    frozen = rt.Variable(2.0, trainable=False)
    x = rt.constant([[1.0, 1.0]])
    with rt.GradientTape() as tape:
        y = rt.reduce_sum(rt.matmul(x, w) + b) * frozen
    gw, gb, gfrozen, gx = tape.gradient(y, [w, b, frozen, x])
    np.testing.assert_allclose(gw.numpy(), [[2.0, 2.0], [2.0, 2.0]])
    np.testing.assert_allclose(gb.numpy(), [2.0, 2.0])
    assert gfrozen is None and gx is None
    assert [v.name for v in tape.watched_variables()] == [w.name, b.name]


def test_watch_accessed_variables_false_watches_only_what_is_asked():
    a, b = rt.Variable(2.0), rt.Variable(3.0)
    with rt.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(a)
        y = a * b
    ga, gb = tape.gradient(y, (a, b))
    assert ga.numpy() == 3.0 and gb is None


def test_sources_and_results_keep_their_nested_structure():
    x, y = rt.constant(1.0), rt.constant(2.0)
    v = rt.Variable(3.0)
    with rt.GradientTape() as tape:
        tape.watch({'x': x, 'pair': [y]})
        z = x * y * v
    grads = tape.gradient(z, {'x': x, 'rest': (y, v)})
    assert sorted(grads) == ['rest', 'x']
    assert isinstance(grads['rest'], tuple)
    assert [float(grads['x']), float(grads['rest'][0]), float(grads['rest'][1])] == [6.0, 3.0, 2.0]


def test_unconnected_sources_give_none_or_zeros():
    x, unused = rt.constant([1.0, 2.0]), rt.constant([[5.0]])
    with rt.GradientTape(persistent=True) as tape:
        tape.watch([x, unused])
        y = rt.reduce_sum(x * x)
    assert tape.gradient(y, unused) is None
    zero = tape.gradient(y, unused, unconnected_gradients='zero')
    assert zero.shape == (1, 1) and zero.numpy()[0, 0] == 0.0
    assert tape.gradient(y, unused, unconnected_gradients=rt.UnconnectedGradients.NONE) is None
    zero = tape.gradient(y, unused, unconnected_gradients=rt.UnconnectedGradients.ZERO)
    assert zero.numpy()[0, 0] == 0.0
    with pytest.raises(ValueError, match='unconnected_gradients'):
        tape.gradient(y, x, unconnected_gradients='zeros')


def test_a_target_that_is_also_a_source_gets_its_own_seed():
    # The guide's `result = v0` branch: the target *is* the Variable (as in TensorFlow, watched
    # or not, and added to what flows through the tape).
    v0, v1 = rt.Variable(2.0), rt.Variable(2.0)
    x = rt.constant(1.0)
    with rt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        result = v0 if x > 0.0 else v1 ** 2
        y = v1 * 3.0
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert dv0.numpy() == 1.0 and dv1 is None
    assert tape.gradient(result, x) is None
    assert tape.gradient([y, v1], v1).numpy() == 4.0
    assert tape.gradient(rt.constant(5.0), [v0]) == [None]
    unwatched = rt.constant([1.0, 2.0])
    assert tape.gradient(unwatched, unwatched).numpy().tolist() == [1.0, 1.0]


@pytest.mark.filterwarnings('ignore:invalid value:RuntimeWarning',
                            'ignore:divide by zero:RuntimeWarning')
def test_a_where_that_masks_sqrt_rsqrt_or_reciprocal_gives_zero_not_nan():
    # The Q&A-thread pattern: TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad give 0 where
    # the incoming gradient is 0, so the masked-out entries do not turn into NaN.
    x = rt.constant([-1.0, 0.0, 4.0])
    with rt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        masked = [rt.where(x > 0, f(x), rt.zeros_like(x))
                  for f in (rt.sqrt, rt.math.rsqrt, rt.math.reciprocal)]
        plain = rt.sqrt(x)
    assert [tape.gradient(m, x).numpy().tolist() for m in masked] == \
        [[0.0, 0.0, 0.25], [0.0, 0.0, -0.0625], [0.0, 0.0, -0.0625]]
    dx = tape.gradient(plain, x).numpy()
    assert np.isnan(dx[0]) and np.isinf(dx[1]) and dx[2] == 0.25


def test_integer_targets_and_sources_give_none():
    i = rt.constant(3)
    x = rt.constant(2.0)
    with rt.GradientTape(persistent=True) as tape:
        tape.watch([i, x])
        j = i * i
        y = rt.cast(i, rt.float32) * x
    assert tape.gradient(j, i) is None
    assert tape.gradient(y, i) is None
    assert tape.gradient(y, x).numpy() == 3.0


def test_a_non_persistent_tape_answers_once():
    x = rt.constant(2.0)
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match='persistent'):
        tape.gradient(y, x)


def test_a_persistent_tape_answers_many_times():
    x = rt.constant(2.0)
    with rt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert tape.gradient(y, x).numpy() == 4.0
    assert tape.gradient(z, x).numpy() == 32.0  # 4x^3
    assert tape.gradient(z, y).numpy() == 8.0


def test_output_gradients_weight_the_target():
    x = rt.constant([1.0, 2.0, 3.0])
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=rt.constant([1.0, 0.0, -1.0]))
    np.testing.assert_allclose(g.numpy(), [2.0, 0.0, -6.0])


def test_jacobian_of_a_small_function():
    x = rt.constant([1.0, 2.0])
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = rt.stack([x[0] * x[1], rt.sin(x[0]), x[1] ** 2])
    jac = tape.jacobian(y, x)
    assert jac.shape == (3, 2)
    np.testing.assert_allclose(jac.numpy(), [[2.0, 1.0], [np.cos(1.0), 0.0], [0.0, 4.0]],
                               rtol=1e-6)


def test_nested_tapes_give_second_derivatives():
    x = rt.constant(1.5)
    with rt.GradientTape() as outer:
        outer.watch(x)
        with rt.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3 + rt.sin(x)
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    np.testing.assert_allclose(dy.numpy(), 3 * 1.5 ** 2 + np.cos(1.5), rtol=1e-6)
    np.testing.assert_allclose(d2y.numpy(), 6 * 1.5 - np.sin(1.5), rtol=1e-6)


def test_stop_gradient_blocks_the_path():
    x = rt.constant(2.0)
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = x * rt.stop_gradient(x * x)
    assert tape.gradient(y, x).numpy() == 4.0  # d/dx of x * const(4)
    assert rt.stop_gradient(x).numpy() == 2.0


def test_broadcasting_is_reduced_to_each_operand_shape():
    a = rt.constant([[1.0], [2.0]])       # (2, 1)
    b = rt.constant([10.0, 20.0, 30.0])   # (3,)
    with rt.GradientTape() as tape:
        tape.watch([a, b])
        y = rt.reduce_sum(a * b)
    ga, gb = tape.gradient(y, [a, b])
    np.testing.assert_allclose(ga.numpy(), [[60.0], [60.0]])
    np.testing.assert_allclose(gb.numpy(), [3.0, 3.0, 3.0])


def test_gather_gives_a_dense_gradient():
    params = rt.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with rt.GradientTape() as tape:
        y = rt.reduce_sum(rt.gather(params, [2, 0, 2]))
    g = tape.gradient(y, params)
    np.testing.assert_allclose(g.numpy(), [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]])


def test_inside_a_function_the_gradient_ops_join_its_graph():
    w = rt.Variable([1.0, -1.0])

    @ag.function
    def step(x):
        with rt.GradientTape() as tape:
            loss = rt.reduce_sum(rt.square(x * w - 1.0))
        return loss, tape.gradient(loss, w)

    x = rt.constant([2.0, 3.0])
    loss, g = step(x)
    np.testing.assert_allclose(loss.numpy(), 1.0 + 16.0)
    np.testing.assert_allclose(g.numpy(), [2 * 1.0 * 2.0, 2 * -4.0 * 3.0])
    graph = step.get_concrete_function(x).graph
    assert 'ReadVariableOp' in {op.type for op in graph.operations}
    assert sum(op.type == 'Mul' for op in graph.operations) >= 3  # forward and gradient
    w.assign([0.0, 0.0])
    np.testing.assert_allclose(step(x)[1].numpy(), [-4.0, -6.0])  # reads the new value
    assert step.experimental_get_tracing_count() == 1


def test_higher_order_gradients_inside_a_function():
    @ag.function
    def second(x):
        with rt.GradientTape() as outer:
            outer.watch(x)
            with rt.GradientTape() as inner:
                inner.watch(x)
                y = rt.tanh(x)
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    x = 0.3
    t = np.tanh(x)
    np.testing.assert_allclose(second(rt.constant(x)).numpy(), -2 * t * (1 - t * t), rtol=1e-6)


def test_an_eager_tape_sees_through_a_call_of_a_function():
    w = rt.Variable(2.0)

    @ag.function
    def model(x):
        if x > 0:
            return w * x * x
        return -w * x

    x = rt.constant(3.0)
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    gx, gw = tape.gradient(y, [x, w])
    assert (float(y), float(gx), float(gw)) == (18.0, 12.0, 9.0)
    assert float(model(x)) == 18.0  # without a tape it runs its graph


def test_jacobian_inside_a_function_and_of_an_unconnected_source():
    @ag.function
    def jac(x, other):
        with rt.GradientTape(persistent=True) as tape:
            tape.watch([x, other])
            y = x * x
        return tape.jacobian(y, x), tape.jacobian(y, other), tape.jacobian(
            y, other, unconnected_gradients='zero')

    j, none, zero = jac(rt.constant([1.0, 3.0]), rt.constant(5.0))
    np.testing.assert_allclose(j.numpy(), [[2.0, 0.0], [0.0, 6.0]])
    assert none is None
    np.testing.assert_allclose(zero.numpy(), [0.0, 0.0])


def test_py_function_differentiates_eagerly_and_in_a_function():
    w = rt.Variable([1.5, -0.5])
    calls = []

    def scaled_sine(a):
        calls.append(1)
        return rt.sin(a) * w  # a variable read inside: eagerly the tape sees it too

    def step(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = rt.py_function(scaled_sine, [x * 2.0], rt.float32)
            loss = rt.reduce_sum(y * y)
        return loss, tape.gradient(loss, x)

    x = rt.constant([0.3, -1.2])
    expected = 2 * np.sin(2 * x.numpy()) * w.numpy() ** 2 * np.cos(2 * x.numpy()) * 2
    loss, grad = step(x)
    np.testing.assert_allclose(grad.numpy(), expected, rtol=1e-5)
    assert len(calls) == 1  # eagerly the function ran once, its ops recorded on the tape
    graph_loss, graph_grad = ag.function(step)(x)
    np.testing.assert_allclose(graph_grad.numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(graph_loss.numpy(), loss.numpy(), rtol=1e-6)
    assert graph_grad.shape == [2]


def test_numpy_function_is_not_differentiable():
    x = rt.constant([1.0, 2.0])
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = rt.numpy_function(lambda a: a * 3.0, [x], rt.float32)
    assert tape.gradient(y, x) is None


@pytest.mark.parametrize('sparse', [True, False])
def test_a_cross_entropy_gradient_leaves_out_the_term_of_its_unused_backprop_output(sparse):
    """Only the loss is used, so its gradient is `backprop` scaled (TensorFlow's rule skips the
    zeros of the unused output): no ZerosLike and no Softmax op for a second-order term, and
    the same values as the softmax formula."""
    logits = np.array([[1.0, -2.0, 0.5], [0.3, 0.2, -1.0]], np.float32)
    labels = np.array([2, 0], np.int32)
    one_hot = np.eye(3, dtype=np.float32)[labels]

    @ag.function
    def gradient(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            loss = rt.reduce_mean(
                rt.nn.sparse_softmax_cross_entropy_with_logits(labels, x) if sparse else
                rt.nn.softmax_cross_entropy_with_logits(labels=one_hot, logits=x))
        return tape.gradient(loss, x)

    x = rt.constant(logits)
    p = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    np.testing.assert_allclose(gradient(x).numpy(), (p - one_hot) / 2, rtol=1e-6, atol=1e-7)
    types = {op.type for op in gradient.get_concrete_function(x).graph.get_operations()}
    assert not types & {'ZerosLike', 'Softmax'}, types


def test_eager_gradients_skip_the_inputs_no_source_reaches():
    """d/dw of sum(stop_gradient(m) - x @ w * c) computes no gradient for the constant x, the
    constant c or the stopped branch (TensorFlow's skip_input_indices): one MatMul, no Neg of
    the Sub's second operand, one Mul; the values are those of the full rule."""
    from runtime.core import context
    x = rt.constant([[1.0, 2.0], [3.0, 4.0]])
    c = rt.constant([[2.0, 1.0], [0.5, 3.0]])
    w = rt.Variable([[0.5, -1.0], [2.0, 1.0]])
    with rt.GradientTape() as tape:
        y = rt.reduce_sum(rt.matmul(x, w) * c - rt.stop_gradient(rt.reduce_max(x)))
    log = RecordingTape()
    with context.recording(log):
        (gw,) = tape.gradient(y, [w])
    np.testing.assert_allclose(gw.numpy(), x.numpy().T @ c.numpy())
    assert log.ops.count('MatMul') == 1 and log.ops.count('Mul') == 1, log.ops
    assert 'Neg' not in log.ops, log.ops
