"""When a Function traces a new graph and when it reuses one (docs/tracing.md)."""
import collections
import threading
import tracemalloc
import warnings

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from autograph.tracing.polymorphic_function import RetracingWarning

Point = collections.namedtuple('Point', ['x', 'y'])


def traced(fn, **options):
    return ag.function(fn, autograph=False, **options)


def test_python_scalars_are_keyed_by_type_and_value():
    f = traced(lambda x: rt.constant(1.0))
    for value in (1, 2, True, 1.0, 1, 2, True, 1.0):
        f(value)
    assert f.experimental_get_tracing_count() == 4


def test_strings_and_none_are_keyed_by_value():
    f = traced(lambda x: rt.constant(x or 'none'))
    assert f('a').numpy() == b'a'
    assert f('b').numpy() == b'b'
    assert f(None).numpy() == b'none'
    f('a')
    assert f.experimental_get_tracing_count() == 3


def test_tensors_and_numpy_arrays_are_keyed_by_dtype_and_shape():
    f = traced(lambda x: x * 2)
    assert f(rt.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert f(rt.constant([3.0, 4.0])).numpy().tolist() == [6.0, 8.0]
    assert f(rt.constant([1, 2])).numpy().tolist() == [2, 4]
    assert f(rt.constant([1.0, 2.0, 3.0])).numpy().tolist() == [2.0, 4.0, 6.0]
    assert f.experimental_get_tracing_count() == 3
    assert f(np.array([5.0, 6.0], dtype=np.float32)).numpy().tolist() == [10.0, 12.0]
    assert f(np.array([1.0, 1.0])).dtype == rt.float64
    assert f.experimental_get_tracing_count() == 4


def test_variables_are_keyed_by_dtype_and_shape_and_each_call_uses_its_own():
    f = traced(lambda v: v.assign_add(rt.ones(v.shape.as_list())).read_value())
    a, b = rt.Variable(1.0), rt.Variable(10.0)
    assert float(f(a)) == 2.0
    assert float(f(b)) == 11.0
    assert float(f(a)) == 3.0
    assert (a.numpy(), b.numpy()) == (3.0, 11.0)
    assert f.experimental_get_tracing_count() == 1
    f(rt.Variable([1.0]))
    assert f.experimental_get_tracing_count() == 2


def test_containers_are_keyed_recursively_and_their_tensors_are_inputs():
    f = traced(lambda xs: xs[0] + xs[1])
    assert float(f([rt.constant(1.0), rt.constant(2.0)])) == 3.0
    assert float(f([rt.constant(5.0), rt.constant(6.0)])) == 11.0
    assert f.experimental_get_tracing_count() == 1
    f((rt.constant(1.0), rt.constant(2.0)))
    f(Point(rt.constant(1.0), rt.constant(2.0)))
    f([rt.constant(1.0), 2.0])
    assert f.experimental_get_tracing_count() == 4

    g = traced(lambda d: d['a'] * d['b'])
    assert float(g({'a': rt.constant(2.0), 'b': rt.constant(3.0)})) == 6.0
    assert float(g({'b': rt.constant(4.0), 'a': rt.constant(5.0)})) == 20.0
    assert g.experimental_get_tracing_count() == 1


def test_defaults_and_keywords_are_bound_before_the_key_is_made():
    f = traced(lambda x, scale=2, *, shift=0: x * scale + shift)
    x = rt.constant(1)
    assert int(f(x)) == 2
    assert int(f(x, 2)) == 2
    assert int(f(x=x, scale=2, shift=0)) == 2
    assert int(f(x, shift=0)) == 2
    assert f.experimental_get_tracing_count() == 1
    assert int(f(x, 3)) == 3
    assert f.experimental_get_tracing_count() == 2
    with pytest.raises(TypeError, match=r"<lambda>\(\): missing a required argument: 'x'"):
        f()
    with pytest.raises(TypeError, match=r"<lambda>\(\): got an unexpected keyword argument 'y'"):
        f(x, y=1)
    with pytest.raises(TypeError, match=r"multiple values for argument 'x'"):
        f(x, x=x)


def test_var_positional_and_var_keyword_parameters():
    f = traced(lambda *xs, **named: sum(xs) + named['k'])
    assert float(f(rt.constant(1.0), rt.constant(2.0), k=rt.constant(3.0))) == 6.0
    assert float(f(rt.constant(4.0), rt.constant(5.0), k=rt.constant(6.0))) == 15.0
    assert f.experimental_get_tracing_count() == 1


def test_other_objects_are_keyed_by_identity():
    class Scale:
        def __init__(self, factor):
            self.factor = factor

    f = traced(lambda s, x: x * s.factor)
    one, two = Scale(1.0), Scale(2.0)
    x = rt.constant(3.0)
    assert float(f(one, x)) == 3.0
    assert float(f(two, x)) == 6.0
    two.factor = 5.0  # the Python attribute was baked in when `two` was traced
    assert float(f(two, x)) == 6.0
    assert f.experimental_get_tracing_count() == 2


def test_graphs_keyed_by_an_object_go_when_it_is_collected():
    class Config:
        pass

    f = traced(lambda c, x: x + 1)
    config = Config()
    f(config, rt.constant(1))
    assert f.experimental_get_tracing_count() == 1
    del config
    assert f.experimental_get_tracing_count() == 0
    assert not f._cache


def test_get_concrete_function_with_a_tensor_spec_serves_compatible_calls():
    f = traced(lambda x: rt.reduce_sum(x))
    concrete = f.get_concrete_function(rt.TensorSpec([None], rt.float32))
    assert concrete.graph.inputs[0].shape.as_list() == [None]
    assert float(f(rt.constant([1.0, 2.0]))) == 3.0
    assert float(f(rt.constant([1.0, 2.0, 3.0]))) == 6.0
    assert f.experimental_get_tracing_count() == 1
    assert f.get_concrete_function(rt.constant([1.0])) is concrete
    with pytest.raises(TypeError, match='TensorSpec'):
        f(rt.TensorSpec([None], rt.float32))


def test_get_concrete_function_takes_values_and_tensors():
    f = traced(lambda x, n: x * n)
    concrete = f.get_concrete_function(rt.constant(2.0), 3.0)
    assert f.get_concrete_function(rt.constant(5.0), n=3.0) is concrete
    assert float(f(rt.constant(2.0), 3.0)) == 6.0
    assert f.experimental_get_tracing_count() == 1


def test_input_signature_converts_checks_and_never_retraces():
    @ag.function(input_signature=[rt.TensorSpec([None], rt.float32)])
    def total(values):
        return rt.reduce_sum(values)

    assert float(total([1.0, 2.0])) == 3.0
    assert float(total(np.array([1.0, 2.0, 3.0], dtype=np.float32))) == 6.0
    assert float(total(rt.constant([4.0]))) == 4.0
    with pytest.raises(TypeError, match=r"total\(\): argument 'values' .*"
                                        r"TensorSpec\(shape=\(None,\), dtype=rt\.float32"):
        total([True, False])
    with pytest.raises(TypeError, match=r"argument 'values' has shape \(2, 2\)"):
        total(rt.ones([2, 2]))
    assert total.experimental_get_tracing_count() == 1
    assert total.input_signature == (rt.TensorSpec([None], rt.float32),)
    concrete = total.get_concrete_function()
    assert total.get_concrete_function(rt.TensorSpec([3], rt.float32)) is concrete
    assert total.get_concrete_function(rt.constant([1.0])) is concrete
    assert concrete.graph.inputs[0].shape.as_list() == [None]


def test_input_signature_must_hold_tensor_specs_and_cover_the_parameters():
    with pytest.raises(TypeError, match='only hold rt.TensorSpec'):
        ag.function(lambda x: x, input_signature=[rt.float32])

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def two(x, y):
        return x + y

    with pytest.raises(TypeError, match=r"two\(\) has parameters \['x', 'y'\] but its "
                                        r"input_signature gives 1 specs"):
        two(rt.constant(1.0), rt.constant(2.0))


def test_reduce_retracing_relaxes_differing_dims_to_none():
    f = traced(lambda x: rt.reduce_sum(x), reduce_retracing=True)
    assert float(f(rt.ones([2]))) == 2.0
    assert float(f(rt.ones([3]))) == 3.0
    assert f.experimental_get_tracing_count() == 2
    for n in (4, 5, 7, 2, 3):
        assert float(f(rt.ones([n]))) == n
    assert f.experimental_get_tracing_count() == 2
    relaxed = f.get_concrete_function(rt.ones([9]))
    assert relaxed.graph.inputs[0].shape.as_list() == [None]
    f(rt.ones([2, 2]))  # another rank: relaxes to an unknown rank, which accepts any shape
    assert f.experimental_get_tracing_count() == 3
    assert f.get_concrete_function(rt.ones([2, 2])).graph.inputs[0].shape.rank is None
    f(rt.ones([2, 2, 2]))
    assert f.experimental_get_tracing_count() == 3


def test_retracing_warns_after_five_traces_naming_the_function_and_causes():
    @ag.function
    def scaled(x, factor):
        return x * factor

    for factor in range(5):
        scaled(rt.constant(1.0), float(factor))
    with pytest.warns(RetracingWarning, match=r'scaled\(\) has traced 6 graphs') as record:
        scaled(rt.constant(1.0), 6.0)
    message = str(record[0].message)
    assert 'Python scalars' in message and 'shapes' in message and 'loop' in message
    assert record[0].filename == __file__  # the warning points at the user's call
    assert scaled.experimental_get_tracing_count() == 6


def test_creating_a_function_in_a_loop_warns():
    def step(x):
        return x + 1

    with pytest.warns(RetracingWarning, match=r'6 different ag.function objects have traced '
                                              r'step\(\)'):
        for _ in range(6):
            ag.function(step)(rt.constant(1))


def test_concurrent_first_calls_trace_once():
    started = threading.Barrier(8)
    traces = []

    @ag.function
    def slow(x):
        traces.append(1)
        for _ in range(50):
            x = x + 1.0
        return x

    x = rt.constant(0.0)
    results = [None] * 8

    def call(i):
        started.wait()
        results[i] = float(slow(x))

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [50.0] * 8
    assert len(traces) == 1
    assert slow.experimental_get_tracing_count() == 1


def test_each_function_has_its_own_cache(capsys):
    def f():
        print('Tracing!')
        rt.print('Executing')

    ag.function(f)()
    ag.function(f)()
    captured = capsys.readouterr()
    assert captured.out == 'Tracing!\n' * 2 and captured.err == 'Executing\n' * 2


def test_graphs_of_collected_objects_do_not_count_towards_the_retracing_warning():
    class Config:
        def __init__(self, scale):
            self.scale = scale

    f = traced(lambda c, x: x * c.scale)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        for scale in range(10):
            assert float(f(Config(scale), rt.constant(2.0))) == 2.0 * scale
    assert f.experimental_get_tracing_count() == 0


def test_relaxed_shapes_are_looked_up_not_remembered_per_shape():
    f = traced(lambda x: rt.reduce_sum(x), reduce_retracing=True)
    for n in range(1, 2500):  # numpy's own caches fill up over the first ~2000 shapes
        f(np.ones(n, np.float32))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for n in range(2500, 4000):
        f(np.ones(n, np.float32))
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert f.experimental_get_tracing_count() == 2
    assert grown < 30_000, grown  # a key per shape would be ~150 kB


def test_a_builtin_or_ufunc_is_called_through():
    add = ag.function(np.add)
    assert float(add(rt.constant(1.0), rt.constant(2.0))) == 3.0
    assert ag.function(len)([1, 2, 3]) == 3
    with pytest.raises(TypeError, match='no Python code to trace'):
        add.get_concrete_function(rt.constant(1.0), rt.constant(2.0))


def test_a_parameter_named_like_the_operators_module_converts():
    @ag.function
    def shift(ag__, n):
        if ag__ > 0:
            return ag__ + n
        return ag__ - n

    assert int(shift(rt.constant(1), 2)) == 3
    assert int(shift(rt.constant(-1), 2)) == -3
