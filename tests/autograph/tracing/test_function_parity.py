"""Tracing behaves as TensorFlow's `tf.function` where users rely on it: variables
initialized from inputs, the exception types of signature mismatches, and the API paths that
TensorFlow users type."""
import math

import numpy as np
import pytest

import autograph as ag
import runtime as rt


def test_an_input_signature_mismatch_is_a_type_error_naming_argument_spec_and_value():
    @ag.function(input_signature=[rt.TensorSpec([None], rt.float32)])
    def total(values):
        return rt.reduce_sum(values)

    with pytest.raises(TypeError, match=r"total\(\): argument 'values' has shape \(2, 2\), which "
                                        r"does not match TensorSpec\(shape=\(None,\), "
                                        r"dtype=rt\.float32"):
        total(rt.ones([2, 2]))
    with pytest.raises(TypeError, match=r"argument 'values' has dtype int32, but TensorSpec"):
        total(rt.constant([1, 2]))
    with pytest.raises(TypeError, match=r"argument 'values' must be a tensor matching TensorSpec"
                                        r".*'a' does not convert"):
        total('a')
    with pytest.raises(TypeError, match='shape'):
        total.get_concrete_function(rt.TensorSpec([2, 2], rt.float32))
    assert float(total([1.0, 2.0])) == 3.0
    assert total.experimental_get_tracing_count() == 1


def test_a_concrete_function_raises_tensorflows_types_for_each_mismatch():
    @ag.function
    def pick(pair, step):
        return pair[0] * step

    concrete = pick.get_concrete_function([rt.TensorSpec([2], rt.float32), 1], 3)
    with pytest.raises(rt.errors.InvalidArgumentError, match=r"argument 'pair\[0\]' has dtype "
                                                             r"int32"):
        concrete([rt.constant([1, 2]), 1], 3)
    with pytest.raises(TypeError, match=r"argument 'pair\[1\]' is 2, but this graph was traced "
                                        r"for 1"):
        concrete([rt.ones([2]), 2], 3)
    with pytest.raises(TypeError, match=r"argument 'pair' must be a list of 2 elements"):
        concrete([rt.ones([2])], 3)
    with pytest.raises(TypeError, match=r"argument 'step' is 4"):
        concrete([rt.ones([2]), 1], 4)
    assert concrete([rt.ones([2]), 1], 3).numpy().tolist() == [3.0, 3.0]

    counter = rt.Variable([1.0, 2.0])
    by_variable = ag.function(lambda v: v.read_value()).get_concrete_function(counter)
    with pytest.raises(rt.errors.InvalidArgumentError, match='must be an rt.Variable of dtype '
                                                             'float32'):
        by_variable(rt.Variable([1, 2]))


def test_do_not_convert_is_also_under_experimental_and_dir_shows_only_public_names():
    assert ag.experimental.do_not_convert is ag.do_not_convert
    names = dir(ag)
    assert 'function' in names and 'experimental' in names and 'to_code' in names
    assert [name for name in names if name.startswith('_') or name in ('importlib', 'api')] == []

    @ag.experimental.do_not_convert
    def plain(x):
        return 'big' if x > 0 else 'small'  # Python `if` on a tensor fails unconverted

    @ag.function
    def use(x):
        return plain(x)

    with pytest.raises(TypeError):
        use(rt.constant(1.0))


def test_experimental_relax_shapes_is_the_older_name_of_reduce_retracing():
    @ag.function(experimental_relax_shapes=True)
    def double(x):
        return x * 2

    for n in range(1, 6):
        assert double(rt.ones([n])).numpy().tolist() == [2.0] * n
    assert double.experimental_get_tracing_count() == 2


def test_a_nan_argument_traces_once():
    @ag.function
    def scale(x, factor):
        return x * factor

    for factor in (float('nan'), float('nan'), math.nan):
        assert np.isnan(scale(rt.constant(1.0), factor).numpy())
    assert scale.experimental_get_tracing_count() == 1
    concrete = scale.get_concrete_function(rt.TensorSpec([], rt.float32), float('nan'))
    assert np.isnan(concrete(rt.constant(2.0), float('nan')).numpy())


def test_a_scalar_string_tensor_is_an_argument_like_any_tensor():
    @ag.function
    def echo(s):
        return s

    assert echo(rt.constant('abc')).numpy() == b'abc'
    assert echo(rt.constant('abcd')).numpy() == b'abcd'
    assert echo.experimental_get_tracing_count() == 1


class Lazy:
    """A layer that builds its state on the first call, from the input (the way lazily built
    Keras layers are written)."""

    def __init__(self):
        self.v = None

    @ag.function
    def __call__(self, x):
        print('tracing', x.shape)
        if self.v is None:
            self.v = rt.Variable(rt.zeros_like(x) + x * 2)
        self.v.assign_add(x)
        return self.v.read_value()


def test_a_variable_initialized_from_the_input_is_initialized_once_by_the_first_call(capsys):
    layer = Lazy()
    # As in TensorFlow: the first call runs a graph that initializes the variable, then the
    # function is traced again without creating it (Python side effects happen twice).
    assert layer(rt.constant([1.0, 2.0])).numpy().tolist() == [3.0, 6.0]
    assert capsys.readouterr().out == 'tracing (2,)\ntracing (2,)\n'
    assert layer(rt.constant([5.0, 5.0])).numpy().tolist() == [8.0, 11.0]
    assert layer(rt.constant([1.0, 1.0])).numpy().tolist() == [9.0, 12.0]
    assert capsys.readouterr().out == ''
    assert layer.__call__.experimental_get_tracing_count() == 2
    assert layer.v.numpy().tolist() == [9.0, 12.0]


def test_a_variable_from_the_input_cannot_be_made_by_get_concrete_function(capsys):
    layer = Lazy()
    with pytest.raises(ValueError, match=r'creates variables \(Variable.*\) whose initial values '
                                         r'depend on its inputs.*call the Function first'):
        layer.__call__.get_concrete_function(rt.TensorSpec([2], rt.float32))
    # Unlike TensorFlow (whose variable stays uninitialized), the next call initializes it.
    assert layer(rt.constant([1.0, 2.0])).numpy().tolist() == [3.0, 6.0]
    assert layer(rt.constant([1.0, 1.0])).numpy().tolist() == [4.0, 7.0]
    assert capsys.readouterr().out == 'tracing (2,)\ntracing (2,)\n'


def test_a_function_creating_a_variable_from_its_input_on_every_trace_is_an_error():
    @ag.function
    def fresh(x):
        return rt.Variable(x).read_value()

    with pytest.raises(ValueError, match=r'fresh\(\) created a new rt.Variable while tracing '
                                         r'graph number 2'):
        fresh(rt.constant(1.0))


def test_a_variable_from_the_input_in_a_function_with_an_input_signature():
    class Scaler:
        def __init__(self):
            self.total = None

        @ag.function(input_signature=[rt.TensorSpec([None], rt.float32)])
        def add(self, x):
            if self.total is None:
                self.total = rt.Variable(rt.reduce_sum(x))
            else:
                self.total.assign_add(rt.reduce_sum(x))
            return self.total.read_value()

    scaler = Scaler()
    assert float(scaler.add(rt.constant([1.0, 2.0]))) == 3.0
    assert float(scaler.add(rt.constant([4.0]))) == 7.0


def test_a_variable_from_constants_is_still_lifted_in_one_trace():
    class Counter:
        def __init__(self):
            self.count = None

        @ag.function
        def __call__(self, x):
            if self.count is None:
                self.count = rt.Variable(rt.ones([]) * 10.0)
            self.count.assign_add(x)
            return self.count.read_value()

    counter = Counter()
    assert float(counter(rt.constant(1.0))) == 11.0
    assert float(counter(rt.constant(1.0))) == 12.0
    assert counter.__call__.experimental_get_tracing_count() == 1
