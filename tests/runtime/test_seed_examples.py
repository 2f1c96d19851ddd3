"""The seed lines that need no autograph, run on the runtime alone (eagerly, and where
the seed uses `ag.function`, as a graph built by hand through rt.Graph)."""
import numpy as np
import pytest

import runtime as rt


def a_regular_function(x, y, b):
    x = rt.matmul(x, y)
    x = x + b
    return x


def test_matmul_plus_bias_eagerly_and_in_a_graph():
    x1 = rt.constant([[1.0, 2.0]])
    y1 = rt.constant([[2.0], [3.0]])
    b1 = rt.constant(4.0)
    eager = a_regular_function(x1, y1, b1)
    assert str(eager) == 'rt.Tensor([[12.]], shape=(1, 1), dtype=float32)'
    g = rt.Graph()
    with g.as_default():
        out = a_regular_function(x1, y1, b1)
    assert out.op.type == 'AddV2' and out.op.inputs[0].op.type == 'MatMul'
    assert (g.run(out) == eager.numpy()).all()


def test_simple_relu_as_rt_cond_in_a_graph():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        out = rt.cond(rt.greater(x, 0), lambda: x, lambda: 0)
    assert g.run(out, {x: 1}) == 1
    assert g.run(out, {x: -1}) == 0


def test_my_relu_values_eagerly():
    assert str(rt.maximum(0., rt.constant(5.5))) == 'rt.Tensor(5.5, shape=(), dtype=float32)'
    assert str(rt.maximum(0., [1, -1])) == 'rt.Tensor([1. 0.], shape=(2,), dtype=float32)'
    assert str(rt.maximum(0., rt.constant([3., -3.]))) == \
        'rt.Tensor([3. 0.], shape=(2,), dtype=float32)'


def test_get_MSE_eagerly():
    y_true = rt.random.uniform([5], maxval=10, dtype=rt.int32)
    y_pred = rt.random.uniform([5], maxval=10, dtype=rt.int32)
    assert y_true.dtype is rt.int32 and ((0 <= y_true.numpy()) & (y_true.numpy() < 10)).all()
    mse = rt.reduce_mean(rt.pow(y_true - y_pred, 2))
    expected = int(np.mean((y_true.numpy() - y_pred.numpy()) ** 2))  # integer mean truncates
    assert mse.dtype is rt.int32 and mse.numpy() == expected


def test_run_functions_eagerly_switch():
    assert rt.config.functions_run_eagerly() is False
    rt.config.run_functions_eagerly(True)
    try:
        assert rt.config.functions_run_eagerly() is True
    finally:
        rt.config.run_functions_eagerly(False)
    assert rt.config.functions_run_eagerly() is False


def test_unused_failing_gather_graph_built_through_rt_Graph():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [1], name='x')
        rt.gather(x, [1])
        out = rt.identity(x)
    assert g.run(out, {x: [0.0]}).tolist() == [0.0]
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.gather(rt.constant([0.0]), [1])


def power(x, y):
    result = rt.eye(10, dtype=rt.int32)
    for _ in range(y):
        result = rt.matmul(x, result)
    return result


def test_power_eagerly_and_in_a_graph():
    x = rt.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=rt.int32)
    assert x.dtype is rt.int32 and x.shape == (10, 10)
    expected = np.linalg.matrix_power(x.numpy().astype(np.int64), 5).astype(np.int32)
    np.testing.assert_array_equal(power(x, 5).numpy(), expected)
    g = rt.Graph()
    with g.as_default():
        out = power(x, 5)
    assert [op.type for op in g.get_operations()].count('MatMul') == 5
    np.testing.assert_array_equal(g.run(out), expected)


def test_training_loop_over_rt_range_as_a_while_loop():
    g = rt.Graph()
    with g.as_default():
        num_steps = rt.placeholder(rt.int32, [], name='num_steps')
        steps = rt.while_loop(lambda i: i < num_steps, lambda i: i + 1, rt.constant(0))
    assert steps.op.type == 'StatelessWhile'
    assert g.run(steps, {num_steps: 10}) == 10 and g.run(steps, {num_steps: 20}) == 20


def test_tensor_specs_for_an_input_signature():
    image = rt.TensorSpec(shape=[None, None, None, 3], dtype=rt.float32)
    step = rt.TensorSpec(shape=[None], dtype=rt.int64)
    assert image.shape == (None, None, None, 3) and image.dtype is rt.float32
    assert step.is_compatible_with(rt.constant(np.array([1, 2], np.int64)))
    assert not step.is_compatible_with(rt.constant([1, 2]))
