"""Small programs of the kind TensorFlow's guides (tensor, advanced_autodiff, random_numbers,
core/*) have a user write, each checking one behaviour those guides rely on."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt


def _batch():
    x = rt.constant(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)
    w = rt.constant(np.arange(8, dtype=np.float32).reshape(4, 2) / 7)
    return x, w


def test_batch_jacobian_is_the_diagonal_of_the_full_jacobian():
    x, w = _batch()
    with rt.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = rt.tanh(rt.matmul(x, w))
    jb = tape.batch_jacobian(y, x)
    assert jb.shape == (3, 2, 4)
    full = tape.jacobian(y, x).numpy()
    np.testing.assert_allclose(jb.numpy(), np.einsum('bxby->bxy', full), rtol=1e-6)
    # d tanh(xw)_bi / d x_bj = (1 - tanh^2) w_ji
    expected = (1 - np.tanh(x.numpy() @ w.numpy()) ** 2)[:, :, None] * w.numpy().T[None]
    np.testing.assert_allclose(jb.numpy(), expected, rtol=1e-5)


def test_batch_jacobian_in_a_function():
    x, w = _batch()

    @ag.function
    def f(x):
        with rt.GradientTape() as tape:
            tape.watch(x)
            y = rt.matmul(x, w) * 3.
        return tape.batch_jacobian(y, x)

    np.testing.assert_allclose(f(x).numpy(), np.broadcast_to(3 * w.numpy().T, (3, 2, 4)))


def test_batch_jacobian_errors_as_tensorflow():
    x, _ = _batch()
    with rt.GradientTape() as tape:
        tape.watch(x)
        z = x * 2.
    assert tape.batch_jacobian(z, x).shape == (3, 4, 4)
    with pytest.raises(RuntimeError, match='non-persistent'):
        tape.batch_jacobian(z, x)  # a second use of a non-persistent tape
    with rt.GradientTape() as tape:
        tape.watch(x)
        z = rt.reduce_sum(x, axis=1)
    with pytest.raises(ValueError, match='rank at least 2'):
        tape.batch_jacobian(z, x)
    with rt.GradientTape() as tape:
        tape.watch(x)
        z = x[:2]
    with pytest.raises(ValueError, match='first dimension'):
        tape.batch_jacobian(z, x)


def test_the_cpu_splits_into_logical_devices_and_back():
    cpu = rt.config.experimental.list_physical_devices('CPU')[0]
    assert rt.config.get_logical_device_configuration(cpu) is None
    try:
        rt.config.experimental.set_virtual_device_configuration(
            cpu, [rt.config.experimental.VirtualDeviceConfiguration(),
                  rt.config.LogicalDeviceConfiguration()])
        assert [d.name for d in rt.config.list_logical_devices('CPU')] == \
            ['/device:CPU:0', '/device:CPU:1']
        assert rt.config.list_logical_devices('GPU') == []
        assert len(rt.config.experimental.get_virtual_device_configuration(cpu)) == 2
        with rt.device('/device:CPU:1'):
            assert int(rt.constant(1) + 1) == 2
    finally:
        rt.config.set_logical_device_configuration(cpu, None)
    assert [d.name for d in rt.config.list_logical_devices()] == ['/device:CPU:0']
    with pytest.raises(ValueError, match='list_physical_devices'):
        rt.config.set_logical_device_configuration('cpu', [rt.config.LogicalDeviceConfiguration()])
    with pytest.raises(ValueError, match='LogicalDeviceConfiguration'):
        rt.config.set_logical_device_configuration(cpu, [1])
