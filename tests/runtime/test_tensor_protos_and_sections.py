"""`rt.make_tensor_proto` / `rt.make_ndarray` (against TensorProto bytes recorded from
TensorFlow 2.21), `rt.CriticalSection`, and the `tf.fftnd` family's required arguments."""
import threading

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph.serialization import wire

# tf.make_tensor_proto([[1., 2.], [3., 4.]]).SerializeToString() and
# tf.make_tensor_proto(5, tf.int64, shape=[2, 2]).SerializeToString()
TF_FLOATS = b'\x08\x01\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02"\x10\x00\x00\x80?\x00\x00\x00@' \
    b'\x00\x00@@\x00\x00\x80@'
TF_FILLED = b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02R\x01\x05'


def test_tensor_protos_agree_with_tensorflows_bytes():
    assert wire.encode('TensorProto', rt.make_tensor_proto([[1.0, 2.0], [3.0, 4.0]])) == TF_FLOATS
    np.testing.assert_array_equal(rt.make_ndarray(TF_FLOATS), [[1.0, 2.0], [3.0, 4.0]])
    filled = rt.make_ndarray(TF_FILLED)
    assert filled.dtype == np.int64 and filled.tolist() == [[5, 5], [5, 5]]
    ours = rt.make_ndarray(rt.make_tensor_proto(5, rt.int64, shape=[2, 2]))
    np.testing.assert_array_equal(ours, filled)


def test_make_tensor_proto_shapes_and_types():
    strings = rt.make_ndarray(rt.make_tensor_proto(['a', 'b']))
    assert strings.tolist() == [b'a', b'b']
    assert rt.make_ndarray(rt.make_tensor_proto(rt.constant([1, 2]))).tolist() == [1, 2]
    assert rt.make_ndarray(rt.make_tensor_proto([1, 2, 3, 4], shape=[2, 2])).shape == (2, 2)
    broadcast = rt.make_tensor_proto([1.0, 2.0], shape=[3, 2], allow_broadcast=True)
    assert rt.make_ndarray(broadcast).tolist() == [[1.0, 2.0]] * 3
    with pytest.raises(TypeError, match='elements'):
        rt.make_tensor_proto([1, 2, 3], shape=[2, 2])
    with pytest.raises(TypeError, match='shape'):
        rt.make_tensor_proto([1, 2, 3, 4], shape=[2, 2], verify_shape=True)
    with pytest.raises(TypeError, match='TensorProto'):
        rt.make_ndarray([1, 2])


def test_critical_section_runs_one_function_at_a_time():
    section = rt.CriticalSection(name='counter')
    v = rt.Variable(0.0)
    inside = []

    def add():
        inside.append(1)
        assert len(inside) == 1  # nobody else inside
        v.assign_add(1.0)
        inside.pop()
        return v.read_value()

    threads = [threading.Thread(target=lambda: [section.execute(add) for _ in range(20)])
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert float(v) == 80.0 and section.name == 'counter'
    assert float(ag.function(lambda: section.execute(lambda: v.assign_add(1.0)))()) == 81.0
    with pytest.raises(ValueError, match='already running'):
        section.execute(lambda: section.execute(lambda: 1))


def test_fftnd_wrappers_take_lengths_and_axes():
    x = np.random.default_rng(0).standard_normal((3, 4, 5)).astype(np.float32)
    out = rt.fftnd(rt.cast(x, rt.complex64), [4, 5], [1, 2])
    np.testing.assert_allclose(out.numpy(), np.fft.fftn(x, axes=(1, 2)), rtol=1e-4, atol=1e-4)
    half = rt.rfftnd(x, [4, 6], [1, 2])
    assert half.dtype is rt.complex64 and half.shape == (3, 4, 4)
    back = rt.irfftnd(half, [4, 6], [1, 2])
    np.testing.assert_allclose(back.numpy(), np.fft.irfftn(np.fft.rfftn(x, [4, 6], axes=(1, 2)),
                                                           [4, 6], axes=(1, 2)), atol=1e-5)
    assert rt.rfftnd(x.astype(np.float64), [4, 5], [1, 2], Tcomplex=rt.complex128).dtype is \
        rt.complex128
    np.testing.assert_allclose(rt.ifftnd(out, [4, 5], [1, 2]).numpy(), x, atol=1e-5)
