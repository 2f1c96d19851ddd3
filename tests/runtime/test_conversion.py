"""TensorFlow's conversion rules for Python values, and dtype rules of ops."""
import numpy as np
import pytest

import runtime as rt
from runtime.graph.importer import import_graph_def


@pytest.mark.parametrize('value, dtype', [
    (1.5, rt.float32),
    (1, rt.int32),
    (2**31 - 1, rt.int32),
    (2**31, rt.int64),
    (-2**31 - 1, rt.int64),
    (True, rt.bool),
    ('text', rt.string),
    (b'bytes', rt.string),
    ([1, 2, 3], rt.int32),
    ([[1.0, 2.0], [3.0, 4.0]], rt.float32),
    ([1, 2.5], rt.float32),
    ([[1], [2.5]], rt.float32),
    ([True, False], rt.bool),
    (['a', 'b'], rt.string),
    (np.float64(1.0), rt.float64),
    (np.array([1, 2], dtype=np.int64), rt.int64),
    (np.array([1, 2], dtype=np.uint8), rt.uint8),
    (np.array(1.0, dtype=np.float16), rt.float16),
    (np.int16(3), rt.int16),
    (5 + 4j, rt.complex128),
    ([5 + 4j, 6 + 1j], rt.complex128),
    ([1, 2.5, 3j], rt.complex128),
    (np.complex64(1 + 2j), rt.complex64),
    (np.array([1j], dtype=np.complex128), rt.complex128),
])
def test_python_and_numpy_values_convert_like_tensorflow(value, dtype):
    assert rt.constant(value).dtype is dtype
    assert rt.convert_to_tensor(value).dtype is dtype


def test_nested_lists_keep_their_shape_and_values():
    t = rt.constant([[1, 2], [3, 4]])
    assert t.shape == (2, 2)
    np.testing.assert_array_equal(t.numpy(), [[1, 2], [3, 4]])


def test_strings_are_stored_as_bytes():
    assert rt.constant('hi').numpy() == b'hi'
    assert list(rt.constant(['a', 'b']).numpy()) == [b'a', b'b']


def test_constant_with_dtype_and_shape():
    t = rt.constant([1, 2], dtype=rt.float32)
    assert t.dtype is rt.float32
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])
    filled = rt.constant(7, shape=[2, 3])
    assert filled.shape == (2, 3) and (filled.numpy() == 7).all()
    reshaped = rt.constant([1, 2, 3, 4], shape=(2, 2))
    np.testing.assert_array_equal(reshaped.numpy(), [[1, 2], [3, 4]])


def test_a_value_that_does_not_fit_the_requested_dtype_is_a_TypeError():
    with pytest.raises(TypeError, match='1.5'):
        rt.constant(1.5, dtype=rt.int32)
    with pytest.raises(TypeError, match='int8'):
        rt.constant(300, dtype=rt.int8)
    with pytest.raises(TypeError):
        rt.constant(True, dtype=rt.int32)


def test_convert_to_tensor_passes_tensors_through_and_checks_their_dtype():
    t = rt.constant(1)
    assert rt.convert_to_tensor(t) is t
    with pytest.raises(TypeError, match='float32'):
        rt.convert_to_tensor(t, rt.float32)


# ---- operands of ops ---------------------------------------------------------------------------

class _Meters:
    """A class of the user's that converts through TensorFlow's `__tf_tensor__` protocol."""

    def __init__(self, values):
        self.values = values

    def __tf_tensor__(self, dtype=None, name=None):
        return rt.constant(self.values, dtype=dtype)


def test_an_object_with_tf_tensor_converts_as_in_tensorflow():
    meters = _Meters([1.0, 2.0])  # the same in TensorFlow 2.21
    assert rt.convert_to_tensor(meters).numpy().tolist() == [1.0, 2.0]
    assert rt.convert_to_tensor(meters, dtype=rt.float64).dtype is rt.float64
    assert rt.reduce_sum(meters).numpy() == 3.0
    assert (rt.constant([1.0, 1.0]) + meters).numpy().tolist() == [2.0, 3.0]


def test_a_python_operand_takes_the_dtype_of_the_tensor():
    assert (rt.constant(1.5) + 1).dtype is rt.float32
    assert (1 + rt.constant(np.int64(1))).dtype is rt.int64
    assert (rt.constant(np.int8(5)) * 2).dtype is rt.int8
    relu = rt.maximum(0., rt.constant([1., -1.]))
    assert relu.dtype is rt.float32
    np.testing.assert_array_equal(relu.numpy(), [1., 0.])
    assert (np.float64(1.0) + rt.constant(1.0)).dtype is rt.float32


def test_a_python_float_into_an_int_tensor_is_a_TypeError():
    with pytest.raises(TypeError, match='1.5'):
        rt.constant(1) + 1.5
    with pytest.raises(TypeError):
        rt.maximum(0.5, rt.constant([1, -1]))


def test_a_python_int_out_of_range_of_the_tensor_dtype_is_a_TypeError():
    with pytest.raises(TypeError, match='300'):
        rt.constant(np.int8(5)) + 300


def test_two_dtypes_are_a_TypeError_naming_both():
    with pytest.raises(TypeError) as info:
        rt.constant(1) + rt.constant(1.5)
    assert 'int32' in str(info.value) and 'float32' in str(info.value)
    with pytest.raises(TypeError, match='float64'):
        rt.multiply(rt.constant(1.0), rt.constant(np.float64(2)))


def test_the_same_rules_hold_in_a_graph(graph):
    x = rt.placeholder(rt.float32, [])
    assert (x + 1).dtype is rt.float32
    with pytest.raises(TypeError, match='int32'):
        x + rt.constant(1)
    with pytest.raises(TypeError):
        rt.placeholder(rt.int32, []) * 0.5


def test_true_division_of_integers_gives_floats():
    q = rt.constant(7) / rt.constant(2)
    assert q.dtype is rt.float64 and q.numpy() == 3.5
    assert (rt.constant(np.int64(7)) / 2).dtype is rt.float64
    assert (rt.constant(np.int16(7)) / 2).dtype is rt.float32
    assert (rt.constant(7.0) / 2).dtype is rt.float32


def test_floor_division_floors_and_mod_is_floor_mod():
    assert (rt.constant(-7) // 2).numpy() == -4
    assert (rt.constant(7) // -2).numpy() == -4
    assert (rt.constant(-7) % 3).numpy() == 2
    assert (rt.constant(7) % -3).numpy() == -2
    np.testing.assert_array_equal((rt.constant([-7.5, 7.5]) // 2.).numpy(), [-4., 3.])
    np.testing.assert_array_equal((rt.constant([-7.5, 7.5]) % 2.).numpy(), [0.5, 1.5])


def test_integer_division_by_zero_is_an_InvalidArgumentError():
    with pytest.raises(rt.errors.InvalidArgumentError, match='division by zero'):
        rt.constant(1) // 0
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.constant([1, 2]) % rt.constant([1, 0])


def test_an_op_on_a_scalar_string_keeps_the_string_dtype():
    assert rt.identity(rt.constant('a')).dtype is rt.string


def test_complex_tensors_convert_and_compute_as_in_tensorflow(graph):
    # Values as TensorFlow 2.21 gives them.
    c = rt.constant([1 + 2j, 3 - 1j], dtype=rt.complex64)
    assert rt.constant(1.5, dtype=rt.complex64).dtype is rt.complex64  # reals fit complex dtypes
    with pytest.raises(TypeError, match='complex'):
        rt.constant(1 + 2j, dtype=rt.float32)
    with pytest.raises(TypeError):
        rt.constant(np.array([1j]), dtype=rt.float64)
    doubled = c * 2
    total = rt.reduce_sum(c) + rt.constant(1j, dtype=rt.complex64)
    real = rt.cast(c, rt.float32)  # Cast keeps the real part
    assert doubled.dtype is rt.complex64 and real.dtype is rt.float32
    assert graph.run(doubled).tolist() == [2 + 4j, 6 - 2j]
    assert graph.run(total) == 4 + 2j and graph.run(real).tolist() == [1., 3.]
    text = str(graph.as_graph_def())
    assert 'type: DT_COMPLEX64' in text and 'scomplex_val: 3' in text
    # the GraphDef reads back: its complex constants are (real, imaginary) pairs
    back, [out] = import_graph_def(graph.as_graph_def(), return_elements=[doubled.name])
    assert back.run(out).tolist() == [2 + 4j, 6 - 2j]


def test_complex_tensors_eagerly():
    c = rt.constant([5 + 4j, 6 + 1j])
    assert repr(c) == ('<rt.Tensor: shape=(2,), dtype=complex128, '
                       'numpy=array([5.+4.j, 6.+1.j])>')
    assert (c - c).numpy().tolist() == [0, 0] and (c / 2).numpy().tolist() == [2.5 + 2j, 3 + .5j]
    assert rt.exp(rt.constant(0j)).numpy() == 1 and (-c).dtype is rt.complex128
    for refused in (rt.maximum, rt.less, rt.abs):  # TensorFlow's kernels take no complex here
        with pytest.raises(rt.errors.InvalidArgumentError, match='complex128'):
            refused(c, c) if refused is not rt.abs else refused(c)
    with rt.Graph().as_default(), pytest.raises(TypeError, match='complex128'):
        rt.greater(rt.constant([1j]), rt.constant([2j]))
