"""Running graphs: non-strict execution, errors naming ops, stateful ops in program order, print
(execution and side effects)."""
import io
import sys

import numpy as np
import pytest

import autograph as ag
import runtime as rt


def test_an_unused_failing_gather_does_not_run_in_a_graph():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [1], name='x')
        rt.gather(x, [1])  # out of range, but nothing needs it
        out = rt.identity(x)
    assert g.run(out, {x: [0.0]}).tolist() == [0.0]


def test_the_same_gather_eagerly_raises():
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.gather(rt.constant([0.0]), [1])


def test_a_failing_op_in_a_graph_reports_its_name_and_type():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, [1], name='x')
        with g.name_scope('lookup'):
            bad = rt.gather(x, [1])
    with pytest.raises(rt.errors.InvalidArgumentError) as info:
        g.run(bad, {x: [0.0]})
    message = str(info.value)
    assert 'lookup/GatherV2' in message and '(GatherV2)' in message
    assert 'is not in [0, 1)' in message
    assert __file__ in message  # where the op was built


def test_op_errors_are_OpErrors():
    assert issubclass(rt.errors.InvalidArgumentError, rt.errors.OpError)
    try:
        rt.gather(rt.constant([0.0]), [1])
    except rt.errors.OpError as e:
        assert e.message


def test_a_placeholder_that_is_needed_must_be_fed(graph):
    x = rt.placeholder(rt.float32, [], name='x')
    y = x + 1.
    with pytest.raises(rt.errors.InvalidArgumentError, match="'x'"):
        graph.run(y)


def test_feeds_may_be_named_and_fetches_nested(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    y = x * 2
    out = graph.run({'double': y, 'both': (x, 'AddV2:0' if False else y)}, {'x:0': 4})
    assert out == {'double': 8, 'both': (4, 8)}
    assert graph.run('mul:0', {x: 1}) == 2


def test_a_graph_runs_many_times_with_different_feeds(graph):
    x = rt.placeholder(rt.float32, [None], name='x')
    y = rt.reduce_sum(x * x)
    assert [graph.run(y, {x: v}) for v in ([1., 2.], [3.], [])] == [5., 9., 0.]


def test_graph_runs_return_numpy_values(graph):
    y = rt.constant([1, 2]) + 1
    value = graph.run(y)
    assert isinstance(value, np.ndarray) and value.dtype == np.int32


# ---- stateful ops and print --------------------------------------------------------------------

def test_print_eagerly(capsys):
    rt.print('x:', rt.constant([1, 2, 3]))
    rt.print(rt.constant([[1.5, 2.0]]), 'end', sep='|', end='!\n')
    rt.print(rt.constant(True), 7, rt.constant('text'))
    # As TensorFlow's tf.print shows them: shortest floats, bools as 1/0, string tensors quoted.
    assert capsys.readouterr().err == 'x: [1 2 3]\n[[1.5 2]]|end!\n1 7 "text"\n'


def test_print_shows_tensors_inside_lists_tuples_and_dicts(capsys):
    @ag.function
    def show(x):
        rt.print({'b': x, 'a': [x * 2, 'text', 3]}, (x > 0,), sep=' | ')
        return x

    show(rt.constant(1.5))
    show(rt.constant(-1.0))
    assert capsys.readouterr().err == ("{'a': [3, 'text', 3], 'b': 1.5} | (1,)\n"
                                       "{'a': [-2, 'text', 3], 'b': -1} | (0,)\n")


def test_print_summarizes_long_dimensions_as_tensorflow_does(capsys):
    rt.print(rt.range(10))
    rt.print(rt.range(10), summarize=-1)
    rt.print(rt.reshape(rt.range(8), [2, 2, 2]), rt.constant([0.1, 1 / 3, 1e-8, -0.0]))
    rt.print(rt.constant([1 / 3], rt.float64), rt.constant(['a', 'b']), 'plain')
    assert capsys.readouterr().err == (
        '[0 1 2 ... 7 8 9]\n[0 1 2 3 4 5 6 7 8 9]\n'
        '[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]] [0.1 0.333333343 1e-08 -0]\n'
        '[0.33333333333333331] ["a" "b"] plain\n')


def test_print_to_an_output_stream():
    stream = io.StringIO()
    rt.print('to stream', rt.constant(1), output_stream=stream)
    assert stream.getvalue() == 'to stream 1\n'


def test_print_resolves_sys_stderr_when_it_runs(graph):
    rt.print('hello', rt.constant(1))
    first, second = io.StringIO(), io.StringIO()
    saved = sys.stderr
    try:
        sys.stderr = first
        graph.run([])
        sys.stderr = second
        graph.run([])
    finally:
        sys.stderr = saved
    assert first.getvalue() == 'hello 1\n' and second.getvalue() == 'hello 1\n'


def test_print_writes_to_stdout_when_asked(capsys):
    rt.print('to stdout', rt.constant(2), output_stream=sys.stdout)
    rt.print('named', output_stream='stdout')
    rt.print('default')
    captured = capsys.readouterr()
    assert captured.out == 'to stdout 2\nnamed\n' and captured.err == 'default\n'


def test_prints_run_in_program_order_at_every_run_even_when_not_fetched(graph, capsys):
    x = rt.placeholder(rt.int32, [], name='x')
    rt.print('a')
    y = x + 1
    rt.print('b', y)
    z = y * 10
    rt.print('c', z, [1, 2])
    assert capsys.readouterr().err == ''  # building prints nothing
    assert graph.run(x, {x: 1}) == 1
    assert capsys.readouterr().err == 'a\nb 2\nc 20 [1, 2]\n'
    graph.run(z, {x: 2})
    assert capsys.readouterr().err == 'a\nb 3\nc 30 [1, 2]\n'


def test_print_in_a_graph_is_a_stateful_PrintV2_op(graph):
    op = rt.print('x')
    assert op.type == 'PrintV2' and op.stateful


def test_stateful_ops_run_in_program_order(graph):
    v = rt.Variable(1)
    v.assign(v * 10)
    v.assign_add(5)
    read = v.read_value()
    v.assign(0)
    assert graph.run(read) == 15
    assert v.numpy() == 0


# ---- asserts -----------------------------------------------------------------------------------

def test_Assert_eagerly():
    with pytest.raises(rt.errors.InvalidArgumentError, match='boom') as info:
        rt.debugging.Assert(rt.constant(False), ['boom', rt.constant([1, 2])])
    assert '[1 2]' in str(info.value)
    assert rt.debugging.Assert(rt.constant(True), ['fine']) is None


@pytest.mark.parametrize('check, x, y', [
    (rt.debugging.assert_equal, [1, 2], [1, 3]),
    (rt.debugging.assert_greater, [1], [2]),
    (rt.debugging.assert_less, [3.], [2.]),
    (rt.debugging.assert_less, [1.], [1.]),
])
def test_assert_helpers_raise_with_the_message(check, x, y):
    with pytest.raises(rt.errors.InvalidArgumentError, match='custom message'):
        check(rt.constant(x), rt.constant(y), message='custom message')


@pytest.mark.parametrize('check, x, y', [
    (rt.debugging.assert_equal, [1, 2], [1, 2]),
    (rt.debugging.assert_greater, [3], 2),
    (rt.debugging.assert_less, [1.], [2.]),
])
def test_assert_helpers_pass_quietly(check, x, y):
    check(rt.constant(x), y, message='never shown')


def test_asserts_in_a_graph_raise_when_they_run(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    check = rt.debugging.assert_greater(x, 0, message='x must be positive')
    y = x + 1
    assert check.type == 'Assert' and check.stateful
    assert graph.run(y, {x: 1}) == 2
    with pytest.raises(rt.errors.InvalidArgumentError, match='x must be positive') as info:
        graph.run(y, {x: -1})
    assert str(info.value).startswith('assertion failed: [x must be positive] [Condition x > y '
                                      'did not hold element-wise:] [x =] [-1] [y =] [0]')


def test_the_error_of_a_failing_graph_op_carries_the_operation(graph):
    x = rt.placeholder(rt.float32, [1], name='x')
    bad = rt.gather(x, [1])
    with pytest.raises(rt.errors.InvalidArgumentError) as info:
        graph.run(bad, {x: [0.0]})
    assert info.value.op is bad.op


# ---- random ------------------------------------------------------------------------------------

def test_set_seed_makes_sequences_reproducible():
    rt.random.set_seed(1)
    a = [rt.random.uniform([3]).numpy(), rt.random.normal([2]).numpy(),
         rt.random.uniform([2], maxval=10, dtype=rt.int32).numpy()]
    rt.random.set_seed(1)
    b = [rt.random.uniform([3]).numpy(), rt.random.normal([2]).numpy(),
         rt.random.uniform([2], maxval=10, dtype=rt.int32).numpy()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    rt.random.set_seed(1)
    c1 = rt.random.uniform([3], seed=7).numpy()
    rt.random.set_seed(1)
    np.testing.assert_array_equal(rt.random.uniform([3], seed=7).numpy(), c1)


def test_successive_draws_differ():
    rt.random.set_seed(3)
    assert (rt.random.uniform([4]).numpy() != rt.random.uniform([4]).numpy()).any()


def test_random_dtypes_ranges_and_shapes():
    rt.random.set_seed(0)
    u = rt.random.uniform([1000], minval=-1., maxval=2.)
    assert u.dtype is rt.float32 and u.shape == (1000,)
    assert -1 <= u.numpy().min() and u.numpy().max() < 2
    i = rt.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=rt.int32)
    assert i.dtype is rt.int32 and i.shape == (10, 10)
    assert set(np.unique(i.numpy())) <= {-1, 0, 1}
    assert rt.random.uniform([3], maxval=5, dtype=rt.int64).dtype is rt.int64
    n = rt.random.normal([2000], mean=3., stddev=0.5, dtype=rt.float64)
    assert n.dtype is rt.float64 and abs(n.numpy().mean() - 3) < 0.1
    with pytest.raises(ValueError, match='maxval'):
        rt.random.uniform([2], dtype=rt.int32)


def test_in_a_graph_each_run_draws_anew(graph):
    u = rt.random.uniform([4], minval=5., maxval=6.)
    n = rt.random.normal([4])
    k = rt.random.uniform([20], maxval=1000, dtype=rt.int32)
    assert n.op.type == 'RandomStandardNormal' and k.op.type == 'RandomUniformInt'
    assert 'RandomUniform' in [op.type for op in graph.get_operations()]
    first, second = graph.run([u, n, k]), graph.run([u, n, k])
    for a, b in zip(first, second):
        assert (a != b).any()
    assert ((5 <= first[0]) & (first[0] < 6)).all()


def test_seeded_graph_runs_are_reproducible_across_set_seed():
    def build_and_run():
        rt.random.set_seed(42)
        g = rt.Graph()
        with g.as_default():
            u = rt.random.uniform([3], seed=1)
        return g.run(u), g.run(u)
    (a1, a2), (b1, b2) = build_and_run(), build_and_run()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert (a1 != a2).any()


def test_a_failing_op_on_constants_fails_when_the_graph_runs_not_when_it_is_built():
    g = rt.Graph()
    with g.as_default():
        bad = rt.gather(rt.constant([0.0]), [1])
        out = bad + 1.
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'GatherV2 \(GatherV2\)'):
        g.run(out)
