"""The seed examples (docs/guide.md) that involve ag.function, as a user writes them."""

import numpy as np
import pytest

import autograph as ag
import runtime as rt


@pytest.fixture
def eager_mode_restored():
    yield
    rt.config.run_functions_eagerly(False)


def test_a_function_that_uses_a_graph_matches_the_python_function():
    def a_regular_function(x, y, b):
        x = rt.matmul(x, y)
        x = x + b
        return x
    a_function_that_uses_a_graph = ag.function(a_regular_function)
    x1 = rt.constant([[1.0, 2.0]]); y1 = rt.constant([[2.0], [3.0]]); b1 = rt.constant(4.0)  # noqa: E702
    assert (a_regular_function(x1, y1, b1).numpy() ==
            a_function_that_uses_a_graph(x1, y1, b1).numpy()).all()


def test_outer_function_includes_the_functions_it_calls():
    def inner_function(x, y, b):
        x = rt.matmul(x, y)
        x = x + b
        return x

    @ag.function
    def outer_function(x):
        y = rt.constant([[2.0], [3.0]])
        b = rt.constant(4.0)
        return inner_function(x, y, b)

    result = outer_function(rt.constant([[1.0, 2.0]])).numpy()
    np.testing.assert_array_equal(result, np.array([[12.]], dtype=np.float32))
    assert result.dtype == np.float32


def test_my_relu_traces_three_graphs_then_reuses_them():
    @ag.function
    def my_relu(x):
        return rt.maximum(0., x)

    assert str(my_relu(rt.constant(5.5))) == 'rt.Tensor(5.5, shape=(), dtype=float32)'
    assert str(my_relu([1, -1])) == 'rt.Tensor([1. 0.], shape=(2,), dtype=float32)'
    assert str(my_relu(rt.constant([3., -3.]))) == 'rt.Tensor([3. 0.], shape=(2,), dtype=float32)'
    assert my_relu.experimental_get_tracing_count() == 3
    assert str(my_relu(rt.constant(-2.5))) == 'rt.Tensor(0.0, shape=(), dtype=float32)'
    assert str(my_relu(rt.constant([-1., 1.]))) == 'rt.Tensor([0. 1.], shape=(2,), dtype=float32)'
    assert my_relu.experimental_get_tracing_count() == 3
    assert my_relu.pretty_printed_concrete_signatures() == (
        'Input Parameters:\n'
        '  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=rt.float32, name=None)\n'
        'Output Type:\n'
        '  TensorSpec(shape=(), dtype=rt.float32, name=None)\n'
        'Captures:\n'
        '  None\n'
        '\n'
        'Input Parameters:\n'
        '  x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]\n'
        'Output Type:\n'
        '  TensorSpec(shape=(2,), dtype=rt.float32, name=None)\n'
        'Captures:\n'
        '  None\n'
        '\n'
        'Input Parameters:\n'
        '  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=rt.float32, name=None)\n'
        'Output Type:\n'
        '  TensorSpec(shape=(2,), dtype=rt.float32, name=None)\n'
        'Captures:\n'
        '  None')


def test_get_MSE_prints_once_in_graph_mode_and_every_call_eagerly(capsys, eager_mode_restored):
    @ag.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = rt.pow(y_true - y_pred, 2)
        return rt.reduce_mean(sq_diff)

    y_true = rt.random.uniform([5], maxval=10, dtype=rt.int32)
    y_pred = rt.random.uniform([5], maxval=10, dtype=rt.int32)
    expected = int(np.mean((y_true.numpy() - y_pred.numpy()) ** 2))

    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    assert capsys.readouterr().out == 'Calculating MSE!\n'
    assert int(error) == expected

    rt.config.run_functions_eagerly(True)
    assert rt.config.functions_run_eagerly()
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    rt.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == 'Calculating MSE!\n' * 3
    assert int(error) == expected
    assert not rt.config.functions_run_eagerly()


def test_unused_out_of_range_gather_raises_eagerly_but_not_in_a_graph():
    def unused_return_eager(x):
        rt.gather(x, [1])  # unused
        return x

    with pytest.raises(rt.errors.InvalidArgumentError):
        unused_return_eager(rt.constant([0.0]))

    @ag.function
    def unused_return_graph(x):
        rt.gather(x, [1])  # unused
        return x

    assert str(unused_return_graph(rt.constant([0.0]))) == (
        'rt.Tensor([0.], shape=(1,), dtype=float32)')


def test_power_as_graph_matches_eager_and_runs_one_graph():
    x = rt.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=rt.int32)

    def power(x, y):
        result = rt.eye(10, dtype=rt.int32)
        for _ in range(y):
            result = rt.matmul(x, result)
        return result

    power_as_graph = ag.function(power)
    np.testing.assert_array_equal(power_as_graph(x, 100).numpy(), power(x, 100).numpy())
    power_as_graph(x, 100)  # the speed is measured by tools/bench.py, not by tests
    assert power_as_graph.experimental_get_tracing_count() == 1


def test_predict_with_an_input_signature_traces_one_graph():
    @ag.function(input_signature=(rt.TensorSpec(shape=[None, None, None, 3], dtype=rt.float32),
                                  rt.TensorSpec(shape=[None], dtype=rt.int64)))
    def predict(image_array, step_oh):
        return rt.reduce_sum(image_array) + rt.cast(rt.reduce_sum(step_oh), rt.float32)

    images = rt.ones([2, 4, 4, 3])
    steps = rt.constant([1, 2], dtype=rt.int64)
    assert float(predict(images, steps)) == 96 + 3
    assert float(predict(rt.ones([1, 2, 2, 3]), rt.constant([5], dtype=rt.int64))) == 12 + 5
    assert predict.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match=r"'step_oh'.*int32.*TensorSpec\(shape=\(None,\), "
                                        r"dtype=rt\.int64, name=None\)"):
        predict(images, rt.constant([1, 2]))
    with pytest.raises(TypeError, match=r"'image_array'.*\(2, 4, 4, 1\).*"
                                        r"TensorSpec\(shape=\(None, None, None, 3\)"):
        predict(rt.ones([2, 4, 4, 1]), steps)
    assert predict.experimental_get_tracing_count() == 1


def test_tracing_happens_once_per_signature_as_the_side_effect_shows(capsys):
    @ag.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + rt.constant(2)

    print(a_function_with_python_side_effect(rt.constant(2)))
    print(a_function_with_python_side_effect(rt.constant(3)))
    assert capsys.readouterr().out == ('Tracing!\n'
                                       'rt.Tensor(6, shape=(), dtype=int32)\n'
                                       'rt.Tensor(11, shape=(), dtype=int32)\n')
    print(a_function_with_python_side_effect(2))
    print(a_function_with_python_side_effect(3))
    assert capsys.readouterr().out == ('Tracing!\n'
                                       'rt.Tensor(6, shape=(), dtype=int32)\n'
                                       'Tracing!\n'
                                       'rt.Tensor(11, shape=(), dtype=int32)\n')


def test_simple_relu_takes_either_branch_in_one_graph():
    def simple_relu(x):
        if rt.greater(x, 0):
            return x
        else:
            return 0

    tf_simple_relu = ag.function(simple_relu)
    assert tf_simple_relu(rt.constant(1)).numpy() == 1
    assert tf_simple_relu(rt.constant(-1)).numpy() == 0
    assert tf_simple_relu.experimental_get_tracing_count() == 1
    graph_def = str(tf_simple_relu.get_concrete_function(rt.constant(1)).graph.as_graph_def())
    assert graph_def.startswith('node {\n  name: "x"\n  op: "Placeholder"\n')
    assert 'key: "_user_specified_name"' in graph_def
    assert 'op: "StatelessIf"' in graph_def
    assert 'library {\n  function {\n    signature {' in graph_def


def test_a_tensor_range_loop_is_one_while_op_and_traces_once():
    @ag.function
    def train(num_steps):
        for _ in rt.range(num_steps):
            pass

    train(num_steps=rt.constant(10)); train(num_steps=rt.constant(20))  # noqa: E702
    assert train.experimental_get_tracing_count() == 1
    graph = train.get_concrete_function(num_steps=rt.constant(10)).graph
    assert {'While', 'StatelessWhile'} & {op.type for op in graph.get_operations()}


def test_python_loop_bounds_trace_per_value(capsys):
    @ag.function
    def train(num_steps):
        print(f'Tracing with num_steps = {num_steps}')
        total = rt.constant(0)
        for i in rt.range(num_steps):
            total += i
        return total

    assert int(train(num_steps=10)) == 45
    assert int(train(num_steps=20)) == 190
    assert int(train(num_steps=rt.constant(10))) == 45
    assert int(train(num_steps=rt.constant(20))) == 190
    assert train.experimental_get_tracing_count() == 3
    assert capsys.readouterr().out.count('Tracing with num_steps') == 3
