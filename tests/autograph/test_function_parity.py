"""Tracing behaves as TensorFlow's `tf.function` where users rely on it (issue 14): variables
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
