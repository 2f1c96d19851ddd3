"""TensorFlow's parameters where they change something: Variable's `shape`,
`validate_shape` and `constraint`, convert_to_tensor's `dtype_hint`, while_loop's `back_prop`,
TensorArray's `handle`, DeviceSpec's methods, and the array and space-to-batch functions whose
arguments the conformance samples do not vary."""
import inspect

import numpy as np
import pytest

import autograph as ag
import runtime as rt


def test_variable_takes_tensorflows_parameters():
    names = list(inspect.signature(rt.Variable).parameters)
    assert names[:5] == ['initial_value', 'trainable', 'validate_shape', 'caching_device', 'name']
    v = rt.Variable([1.0, 2.0], shape=rt.TensorShape([None]))
    v.assign([1.0, 2.0, 3.0])
    assert v.shape.as_list() == [None] and v.numpy().tolist() == [1.0, 2.0, 3.0]
    loose = rt.Variable(1.0, validate_shape=False)
    assert loose.shape.rank is None
    clipped = rt.Variable(5.0, constraint=lambda t: rt.minimum(t, 1.0), trainable=False)
    assert float(clipped.constraint(clipped)) == 1.0 and not clipped.trainable
    assert rt.Variable(1.0).trainable
    with pytest.raises(ValueError, match='not compatible'):
        rt.Variable([1.0, 2.0], shape=[3])
    with pytest.raises(ValueError, match='constraint'):
        rt.Variable(1.0, constraint=3)
    with pytest.raises(ValueError, match='initial_value'):
        rt.Variable()


def test_convert_to_tensor_dtype_hint():
    assert rt.convert_to_tensor(3, dtype_hint=rt.float32).dtype is rt.float32
    assert rt.convert_to_tensor('a', dtype_hint=rt.float32).dtype is rt.string
    assert rt.convert_to_tensor(rt.constant(1), dtype_hint=rt.float32).dtype is rt.int32


def test_while_loop_back_prop_false_stops_gradients():
    x = rt.constant(2.0)
    with rt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        kept = rt.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * x), [0, x])[1]
        stopped = rt.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * x), [0, x],
                                back_prop=False, parallel_iterations=1)[1]
    assert float(kept) == float(stopped) == 8.0
    assert float(tape.gradient(kept, x)) == 12.0
    assert tape.gradient(stopped, x) is None


def test_tensor_array_handle_and_size():
    ta = rt.TensorArray(rt.float32, size=2).write(0, 1.0).write(1, 2.0)
    wrapped = rt.TensorArray(rt.float32, handle=ta.handle, flow=None)
    assert wrapped.stack().numpy().tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match='Size must be provided'):
        rt.TensorArray(rt.float32)


def test_device_spec_methods():
    spec = rt.DeviceSpec(job='w', device_type='GPU', device_index=1)
    assert spec.to_string() == '/job:w/device:GPU:1'
    assert spec.make_merged_spec(rt.DeviceSpec(task=2)).to_string() == '/job:w/task:2/device:GPU:1'
    assert spec.replace(job='x').to_string() == '/job:x/device:GPU:1'
    assert spec.parse_from_string('/task:3') == rt.DeviceSpec(task=3)
    assert rt.DeviceSpec.from_string('/gpu:0').device_index == 0
    assert rt.DeviceSpec.from_string('/cpu:*').device_index is None
    assert rt.DeviceSpec(device_type='GPU').to_string() == '/device:GPU:*'


def test_strided_slice_with_tensor_bounds_in_a_function():
    x = rt.reshape(rt.range(24.0), [2, 3, 4])

    @ag.function
    def f(begin):
        return rt.strided_slice(x, begin, [2, 3], shrink_axis_mask=1)

    assert f(rt.constant([1, 1])).numpy().tolist() == [[16.0, 17.0, 18.0, 19.0],
                                                        [20.0, 21.0, 22.0, 23.0]]


def test_parallel_stack_only_in_graphs_and_partition_errors():
    with pytest.raises(RuntimeError, match='eager'):
        rt.parallel_stack([rt.ones(2), rt.zeros(2)])
    stacked = ag.function(lambda a: rt.parallel_stack([a, a * 2.0]))(rt.ones(2))
    assert stacked.numpy().tolist() == [[1.0, 1.0], [2.0, 2.0]]
    with pytest.raises(ValueError, match='num_partitions'):
        rt.dynamic_partition(rt.ones(2), [0, 1], 0)
    with pytest.raises(TypeError, match='one dtype'):
        rt.dynamic_stitch([[0], [1]], [rt.ones(1), rt.ones(1, rt.int32)])
    with pytest.raises(rt.errors.InvalidArgumentError, match='bitcast'):
        rt.bitcast(rt.constant([1, 2, 3], rt.uint8), rt.float32)


def test_with_space_to_batch_runs_an_op_at_a_rate():
    x = rt.constant(np.arange(2 * 7 * 6 * 1, dtype=np.float32).reshape(2, 7, 6, 1))

    def pool(converted, num_spatial_dims, padding):
        assert num_spatial_dims == 2 and padding == 'VALID'
        return rt.nn.max_pool2d(converted, 2, 1, padding)

    out = rt.nn.with_space_to_batch(x, [2, 2], 'SAME', pool, filter_shape=[2, 2])
    padded = np.pad(x.numpy(), [(0, 0), (1, 1), (1, 1), (0, 0)], constant_values=-np.inf)
    expected = np.maximum.reduce([padded[:, i:i + 7, j:j + 6] for i in (0, 2) for j in (0, 2)])
    np.testing.assert_array_equal(out.numpy(), expected)
    same = rt.nn.with_space_to_batch(x, [1, 1], 'VALID', lambda t, n, p: t * 2.0)
    np.testing.assert_array_equal(same.numpy(), x.numpy() * 2)
    with pytest.raises(ValueError, match='filter_shape'):
        rt.nn.with_space_to_batch(x, [2, 2], 'SAME', pool)


def test_required_space_to_batch_paddings_of_tensors_known_only_when_running():
    @ag.function(input_signature=[rt.TensorSpec([2], rt.int32)])
    def f(shape):
        return rt.required_space_to_batch_paddings(shape, [2, 4], [[1, 1], [0, 2]])

    paddings, crops = f(rt.constant([5, 6]))
    assert paddings.numpy().tolist() == [[1, 2], [0, 2]]  # as the constant case
    assert crops.numpy().tolist() == [[0, 1], [0, 0]]
