"""runtime/ops/shaping.py: Reshape's errors in TensorFlow's words, eagerly (the kernel's
InvalidArgumentError, with the eager function and device prefix TensorFlow's eager errors have)
and when a graph is built (the shape function's ValueError), and its zero-size rule."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt

PREFIX = ('{{function_node __wrapped__Reshape_device_/job:localhost/replica:0/task:0/'
          'device:CPU:0}} ')


@pytest.mark.parametrize('shape, message', [
    ([7, -1], 'Input to reshape is a tensor with 30 values, but the requested shape requires a '
              'multiple of 7'),
    ([7, 3], 'Input to reshape is a tensor with 30 values, but the requested shape has 21'),
    ([-1, -1], 'Only one input size may be -1, not both 0 and 1'),
    ([0, -1], 'Input to reshape is a tensor with 30 values, but the requested shape has 0'),
    ([-2, 15], 'Size 0 must be non-negative, not -2'),
])
def test_an_impossible_eager_reshape_is_tensorflows_invalid_argument_error(shape, message):
    with pytest.raises(rt.errors.InvalidArgumentError) as e:
        rt.reshape(rt.range(30), shape)
    assert str(e.value) == PREFIX + message + ' [Op:Reshape]'


def test_a_zero_size_reshape_with_minus_one_follows_tensorflow():
    assert rt.reshape(rt.range(0), [0, -1]).shape == (0, 1)
    assert rt.reshape(rt.zeros([0, 4]), [2, 0, -1]).shape == (2, 0, 2)  # as TensorFlow
    assert rt.reshape(rt.range(6), [-1, 3]).numpy().tolist() == [[0, 1, 2], [3, 4, 5]]


@pytest.mark.parametrize('shape, message', [
    ([7, -1], 'Dimension size must be evenly divisible by 7 but is 30'),
    ([7, 3], r'Cannot reshape a tensor with 30 elements to shape \[7,3\] \(21 elements\)'),
    ([0, -1], r'Cannot reshape a tensor with 30 elements to shape \[0,\?\] \(0 elements\)'),
    ([-2, 15], 'Invalid value in tensor used for shape: -2'),
])
def test_an_impossible_reshape_known_while_tracing_is_a_value_error_then(shape, message):
    @ag.function
    def f(x):
        return rt.reshape(x, shape)
    with pytest.raises(ValueError, match=message):
        f.get_concrete_function(rt.TensorSpec([30]))
    if min(shape) < -1:  # refused whatever the input (as TensorFlow)
        with pytest.raises(ValueError, match=message):
            f.get_concrete_function(rt.TensorSpec([None]))
        return
    # with the size unknown until it runs, the kernel decides
    concrete = f.get_concrete_function(rt.TensorSpec([None]))
    with pytest.raises(rt.errors.InvalidArgumentError):
        concrete(rt.zeros([30]))


def test_a_kernel_error_of_any_op_has_the_eager_prefix_and_the_op_type():
    with pytest.raises(rt.errors.InvalidArgumentError) as e:
        rt.strings.to_number('abc')
    assert str(e.value).startswith('{{function_node __wrapped__StringToNumber_device_/job:')
    assert str(e.value).endswith('could not correctly convert string: abc [Op:StringToNumber]')
    assert np.asarray(rt.reshape([1, 2, 3, 4], [2, 2])).tolist() == [[1, 2], [3, 4]]
