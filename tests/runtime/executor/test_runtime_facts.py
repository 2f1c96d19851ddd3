"""What the generated code does for speed and memory, and that it stays exact: intermediates
freed after their last use, division guards dropped only when a pass proves them useless,
comparisons inlined (strings too), `x[i]` as a subscript, TensorArray writes without copies."""
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as ag
import runtime as rt
from runtime import executor

pytestmark = pytest.mark.default_executor  # --jit runs these graphs natively
N = 1_000_000


def peak_bytes(fn, *args):
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_elementwise_chain_peaks_at_numpys_memory():
    @ag.function
    def chain(x):
        y = ((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)
        return rt.reduce_sum(rt.exp(rt.tanh(y)))

    x = np.linspace(-1, 1, N, dtype=np.float32)
    chain(x)

    def by_hand(x):
        y = ((x * np.float32(2) + np.float32(1)) * x - np.float32(3)) / (x + np.float32(5))
        return np.sum(np.exp(np.tanh(y)))

    assert np.isclose(chain(x).numpy(), by_hand(x), rtol=1e-5)
    # An eager tensor argument: a numpy one is copied at the call (as TensorFlow converts it).
    ours, numpy_peak = peak_bytes(chain, rt.constant(x)), peak_bytes(by_hand, x)
    assert ours <= 1.2 * numpy_peak
    assert ours < 3 * x.nbytes  # each intermediate is 4 MB; all kept alive would be 28 MB


def test_in_place_reuse_never_writes_into_arguments_or_views():
    @ag.function
    def f(x):
        row = rt.reshape(x * 1.5, [4, -1])  # a view of the product
        y = x * 1.5 + 1.0
        return row, y, x + 0.5

    x = np.arange(8, dtype=np.float32) * 1000
    kept = x.copy()
    row, y, shifted = f(rt.constant(np.tile(x, 256)))
    np.testing.assert_array_equal(row.numpy().ravel(), np.tile(kept, 256) * 1.5)
    np.testing.assert_array_equal(y.numpy(), np.tile(kept, 256) * 1.5 + 1.0)
    np.testing.assert_array_equal(shifted.numpy(), np.tile(kept, 256) + 0.5)
    np.testing.assert_array_equal(x, kept)


def graph_of(build, *specs):
    g = rt.Graph()
    with g.as_default():
        inputs = [rt.placeholder(dtype, shape, name=name) for name, dtype, shape in specs]
        outputs = build(*inputs)
    return g, inputs, outputs


def test_division_by_a_nonzero_constant_runs_no_guard():
    g, inputs, outputs = graph_of(lambda n: [n // 2, n % 3], ('n', rt.int32, []))
    run = executor.compile_graph(g, inputs, outputs)
    assert '_check_nonzero' not in run.source and ' // ' in run.source and ' % ' in run.source
    assert run(np.int32(-7)) == (-4, 2)


def test_a_zero_divisor_still_raises():
    g, inputs, outputs = graph_of(lambda n, d: [n // d, n % 0], ('n', rt.int32, []),
                                  ('d', rt.int32, []))
    run = executor.compile_graph(g, inputs, outputs[:1])
    assert '_check_nonzero(d)' in run.source
    with pytest.raises(rt.errors.InvalidArgumentError, match='Integer division by zero'):
        run(np.int32(7), np.int32(0))
    with pytest.raises(rt.errors.InvalidArgumentError, match='FloorMod'):
        g.run(outputs[1], {inputs[0]: 7, inputs[1]: 1})  # a constant zero is not folded away
    with pytest.raises(rt.errors.InvalidArgumentError, match='Integer division by zero'):
        rt.constant(7) // rt.constant(0)


def test_float_division_by_zero_is_infinity_without_a_guard():
    g, inputs, outputs = graph_of(lambda x, y: [x // y], ('x', rt.float32, []),
                                  ('y', rt.float32, []))
    run = executor.compile_graph(g, inputs, outputs)
    assert '_check_nonzero' not in run.source
    with np.errstate(divide='ignore'):
        assert run(np.float32(1), np.float32(0))[0] == np.inf


def test_equal_and_not_equal_are_inline_and_strings_still_compare():
    g, inputs, outputs = graph_of(lambda a, b: [rt.equal(a, b), rt.not_equal(a, b)],
                                  ('a', rt.int32, [None]), ('b', rt.int32, [None]))
    run = executor.compile_graph(g, inputs, outputs)
    assert 'equal = a == b' in run.source and 'not_equal = a != b' in run.source
    eq, ne = run(np.array([1, 2], np.int32), np.array([1, 3], np.int32))
    assert eq.tolist() == [True, False] and ne.tolist() == [False, True]

    g, inputs, outputs = graph_of(lambda words, word: [rt.equal(words, word),
                                                      rt.not_equal(words[0], word)],
                                  ('words', rt.string, [2]), ('word', rt.string, []))
    eq, ne = executor.compile_graph(g, inputs, outputs)(
        np.array([b'cat', b'dog'], dtype=object), np.array(b'cat', dtype=object)[()])
    assert eq.tolist() == [True, False] and eq.dtype == np.bool_
    assert ne == np.False_ and type(ne) is np.bool_


def test_indexing_with_a_loop_counter_is_a_plain_subscript():
    @ag.function
    def total(x):
        s = 0.0
        for i in rt.range(rt.shape(x)[0]):
            s += x[i]
        return s

    x = rt.constant([1.0, 2.0, 4.0])
    assert total(x).numpy() == 7.0
    concrete = total.get_concrete_function(x)
    program = concrete.optimized_program()
    (loop,) = [node for node in program.nodes if node.branches]
    kinds = {node.type for node in loop.branches[1].nodes}
    assert 'ScalarIndex' in kinds and not kinds & {'Pack', 'StridedSlice'}
    source = executor.compile_graph(concrete.graph, concrete.graph.inputs,
                                    concrete.graph.outputs).source
    assert 'x_1[loop_var_1]' in source


def test_an_out_of_range_index_names_the_strided_slice():
    g, inputs, outputs = graph_of(lambda x, i: [x[i], x[-1]], ('x', rt.float32, [3]),
                                  ('i', rt.int32, []))
    run = executor.compile_graph(g, inputs, outputs)
    assert run(np.arange(3, dtype=np.float32), np.int32(-3)) == (0.0, 2.0)
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'node StridedSlice \(StridedSlice\)'):
        run(np.arange(3, dtype=np.float32), np.int32(3))


def test_tensor_array_versions_keep_their_values_eagerly():
    first = rt.TensorArray(rt.float32, size=2).write(0, 1.0).write(1, 2.0)
    before = first.stack()
    second = first.write(0, 10.0)
    third = second.write(1, 20.0)
    assert first.read(0).numpy() == 1.0 and first.read(1).numpy() == 2.0
    assert before.numpy().tolist() == [1.0, 2.0]
    assert second.stack().numpy().tolist() == [10.0, 2.0]
    assert third.stack().numpy().tolist() == [10.0, 20.0]
    fork = first.write(1, -1.0)  # writing an older version again
    assert fork.stack().numpy().tolist() == [1.0, -1.0]
    assert third.stack().numpy().tolist() == [10.0, 20.0]


def test_tensor_array_versions_keep_their_values_in_a_graph():
    @ag.function
    def f(n):
        ta = rt.TensorArray(rt.int32, size=n)
        for i in rt.range(n):
            ta = ta.write(i, i * i)
        before = ta.stack()
        early = ta.read(1)
        later = ta.write(1, -5)
        grown = rt.TensorArray(rt.int32, size=0, dynamic_size=True).write(0, 7).write(1, 8)
        return before, early, later.stack(), ta.stack(), grown.stack()

    for _ in range(2):  # the second call starts from fresh lists again
        before, early, later, again, grown = f(rt.constant(4))
        assert before.numpy().tolist() == [0, 1, 4, 9] == again.numpy().tolist()
        assert early.numpy() == 1 and later.numpy().tolist() == [0, -5, 4, 9]
        assert grown.numpy().tolist() == [7, 8]


def test_a_loop_of_tensor_array_writes_does_not_copy_the_list():
    from runtime.ops import list_ops
    handle = list_ops.RESERVE.kernel(np.int32(1000))
    items = handle.items()
    for i in range(1000):
        handle = list_ops.SET_ITEM.kernel(handle, np.int32(i), np.float32(i))
    assert handle.items() is items  # the one list, written in place


_ELEMENTWISE = [lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b,
                lambda a, b: rt.maximum(a, b), lambda a, b: -a, lambda a, b: rt.tanh(a),
                lambda a, b: rt.reshape(rt.reshape(a, [32, 64]), [2048]),  # views
                lambda a, b: rt.identity(a), lambda a, b: a * 0.5 + b]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_ELEMENTWISE) - 1), st.integers(0, 50),
                          st.integers(0, 50)), min_size=1, max_size=10),
       st.integers(0, 50))
def test_freeing_and_buffer_reuse_never_change_results(steps, extra):
    def build(x, y):
        values = [x, y]
        for kind, a, b in steps:
            values.append(_ELEMENTWISE[kind](values[a % len(values)], values[b % len(values)]))
        return [values[-1], values[extra % len(values)], values[len(values) // 2]]

    g = rt.Graph()
    with g.as_default():
        x, y = rt.placeholder(rt.float32, [2048], name='x'), rt.placeholder(rt.float32, [2048])
        outputs = build(x, y)
    xv = np.linspace(-2, 2, 2048, dtype=np.float32)
    yv = np.cos(xv)
    kept = xv.copy(), yv.copy()
    got = executor.compile_graph(g, [x, y], outputs)(xv, yv)
    expected = build(rt.constant(xv), rt.constant(yv))
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-6)
    np.testing.assert_array_equal(xv, kept[0])
    np.testing.assert_array_equal(yv, kept[1])
