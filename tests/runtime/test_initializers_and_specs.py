"""TensorFlow 2's initializers and type specs: `rt.zeros_initializer` ...
`rt.random_uniform_initializer`, `rt.TypeSpec`, `rt.TensorArraySpec`, `rt.OptionalSpec`,
`rt.NoneTensorSpec`, `rt.type_spec_from_value`."""
import numpy as np
import pytest

import runtime as rt

# tf.random_normal_initializer(seed=1)([3]) and tf.random_uniform_initializer(seed=1)([3]),
# recorded from TensorFlow 2.21: a seeded initializer draws the stateless numbers of [seed, 0]
TF_NORMAL_SEED_1 = [0.00633252, -0.02465083, 0.03155954]
TF_UNIFORM_SEED_1 = [0.03784882, -0.00400198, 0.01002913]


def test_seeded_random_initializers_draw_tensorflows_numbers_on_every_call():
    normal = rt.random_normal_initializer(seed=1)
    uniform = rt.random_uniform_initializer(seed=1)
    for _ in range(2):
        np.testing.assert_allclose(normal([3]).numpy(), TF_NORMAL_SEED_1, rtol=1e-5)
        np.testing.assert_allclose(uniform([3]).numpy(), TF_UNIFORM_SEED_1, rtol=1e-5)


def test_unseeded_initializers_give_their_shape_dtype_and_range():
    values = rt.random_uniform_initializer(-1.0, 1.0)([50], rt.float64).numpy()
    assert values.dtype == np.float64 and values.shape == (50,)
    assert (values >= -1).all() and (values < 1).all()
    ints = rt.random_uniform_initializer(0, 5)([20], rt.int32).numpy()
    assert ints.dtype == np.int32 and set(ints.tolist()) <= set(range(5))
    normal = rt.random_normal_initializer(mean=3.0, stddev=0.0)([4]).numpy()
    np.testing.assert_array_equal(normal, [3.0] * 4)


def test_zeros_ones_and_constant_initializers():
    assert rt.zeros_initializer()([2, 3]).numpy().tolist() == [[0.0] * 3] * 2
    ones = rt.ones_initializer()(shape=[2], dtype=rt.int64)
    assert ones.dtype is rt.int64 and ones.numpy().tolist() == [1, 1]
    v = rt.Variable(rt.constant_initializer([1, 2, 3, 4])([2, 2], rt.float32))
    assert v.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert rt.constant_initializer(7)([3]).numpy().tolist() == [7, 7, 7]
    with pytest.raises(TypeError, match='elements|values'):
        rt.constant_initializer([1, 2, 3])([2, 2])
    with pytest.raises(TypeError, match='Invalid type'):
        rt.constant_initializer({'a': 1})
    with pytest.raises(ValueError, match='numeric or boolean'):
        rt.zeros_initializer()([2], rt.string)
    with pytest.raises(ValueError, match='floating point'):
        rt.random_normal_initializer()([2], rt.int32)


def test_initializer_configs_and_partitions():
    init = rt.random_uniform_initializer(-2.0, 3.0, seed=4)
    again = rt.random_uniform_initializer.from_config(init.get_config())
    assert again.get_config() == {'minval': -2.0, 'maxval': 3.0, 'seed': 4}
    np.testing.assert_array_equal(init([3]).numpy(), again([3]).numpy())
    assert rt.zeros_initializer()([4, 4], partition_shape=[2, 4]).shape == (2, 4)
    with pytest.raises(TypeError, match='Keyword argument'):
        rt.zeros_initializer()([2], other=1)
    with pytest.raises(ValueError, match="doesn't support partition"):
        rt.constant_initializer(1.0)([4], partition_shape=[2])
    part = rt.constant_initializer(np.arange(8.0), support_partition=True)(
        [2, 4], partition_shape=[1, 4], partition_offset=[1, 0])
    assert part.numpy().tolist() == [[4.0, 5.0, 6.0, 7.0]]


def test_tensor_spec_is_a_type_spec_and_relaxes_to_common_supertypes():
    a, b = rt.TensorSpec([2], rt.float32), rt.TensorSpec([3], rt.float32)
    assert isinstance(a, rt.TypeSpec)
    assert a.most_specific_common_supertype([b]) == rt.TensorSpec([None], rt.float32)
    assert a.most_specific_common_supertype([rt.TensorSpec([2], rt.int32)]) is None
    assert a.is_subtype_of(rt.TensorSpec([None])) and not rt.TensorSpec([None]).is_subtype_of(a)
    assert a.value_type is rt.Tensor
    with pytest.raises(ValueError, match='compatible'):
        a.most_specific_compatible_type(rt.TensorSpec([2], rt.int64))


def test_type_spec_from_value():
    assert rt.type_spec_from_value(rt.constant([1.0, 2.0])) == rt.TensorSpec([2], rt.float32)
    assert rt.type_spec_from_value([1, 2]) == rt.TensorSpec([2], rt.int32)
    assert rt.type_spec_from_value(np.zeros((2, 3))) == rt.TensorSpec([2, 3], rt.float64)
    assert rt.type_spec_from_value(rt.Variable(1.0)) == rt.TensorSpec([], rt.float32)
    assert rt.type_spec_from_value(None) == rt.NoneTensorSpec()
    ta = rt.TensorArray(rt.int32, size=2, element_shape=[3])
    spec = rt.type_spec_from_value(ta)
    assert spec == rt.TensorArraySpec([3], rt.int32) and spec.value_type is rt.TensorArray
    assert spec.is_compatible_with(rt.TensorArraySpec(None, rt.int32))
    assert not spec.is_compatible_with(rt.TensorArraySpec([3], rt.float32))
    assert repr(spec) == 'TensorArraySpec(TensorShape([3]), rt.int32, False, True)'
    dataset = rt.data.Dataset.range(3)
    assert rt.type_spec_from_value(dataset) == rt.data.DatasetSpec(dataset.element_spec)
    optional = iter(dataset).get_next_as_optional()
    assert rt.type_spec_from_value(optional) == rt.OptionalSpec(dataset.element_spec)
    element = rt.TensorSpec([], rt.float32)
    assert rt.OptionalSpec(element) == rt.OptionalSpec(element)
    assert hash(rt.OptionalSpec(element)) == hash(rt.OptionalSpec(element))
    assert rt.NoneTensorSpec().is_compatible_with(None)
    with pytest.raises(TypeError, match='Could not build a TypeSpec'):
        rt.type_spec_from_value(object())
