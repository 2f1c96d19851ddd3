"""The numba helpers that generated native code calls (runtime/executor/native/helpers.py),
called directly: each gives numpy's result, including on the inputs the generated code passes
them (views, transposes, 3-D elements), and raises where the default executor raises."""
import numpy as np
import pytest

numba = pytest.importorskip('numba')

from runtime.executor.native import helpers  # noqa: E402  (imports numba)


def test_list_grow_keeps_the_written_elements_and_their_flags():
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    written = np.array([True, False])
    rooms = np.zeros(2, np.int64)
    grown, flags, size = helpers.list_grow(data, written, np.int64(2), np.int32(5), rooms, 1)
    assert grown.shape == (6, 3, 4) and grown.dtype == np.float32  # room for element 5
    np.testing.assert_array_equal(grown[:2], data)
    np.testing.assert_array_equal(flags, [True, False, False, False, False, False])
    assert size == 6
    assert list(rooms) == [0, 6]
    grown, flags, size = helpers.list_grow(grown, flags, size, np.int32(11), rooms, 1)
    assert grown.shape == (12, 3, 4) and list(rooms) == [0, 12]
    # the next call's reservation starts with that room (8 at least)
    fresh = helpers.list_reserve_growing(np.int32(0), np.empty((0, 3, 4), np.float32), rooms, 1)
    assert fresh[0].shape == (12, 3, 4) and fresh[2] == 0


def test_list_grow_within_its_room_returns_the_same_arrays():
    data, written = np.zeros((8, 2), np.int32), np.zeros(8, np.bool_)
    rooms = np.zeros(1, np.int64)
    grown, flags, size = helpers.list_grow(data, written, np.int64(3), np.int32(4), rooms, 0)
    assert grown is data and flags is written and size == 5 and rooms[0] == 0
    with pytest.raises(IndexError):
        helpers.list_grow(data, written, np.int64(3), np.int32(-1), rooms, 0)


def test_reshaped_copies_an_array_that_is_not_contiguous():
    x = np.arange(12, dtype=np.float64).reshape(3, 4).T  # a transposed view
    np.testing.assert_array_equal(helpers.reshaped(x, (12,)), x.reshape(12))
    np.testing.assert_array_equal(helpers.reshaped(x, (2, 6)), np.reshape(x, (2, 6)))


def test_concatenated_joins_arrays_of_mixed_layouts():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(4, dtype=np.float32).reshape(2, 2).T
    np.testing.assert_array_equal(helpers.concatenated((a, b), 1), np.concatenate((a, b), 1))
    np.testing.assert_array_equal(helpers.concatenated((a, a), 0), np.concatenate((a, a), 0))


@numba.njit
def _set(data, written, index, item):
    helpers.list_set(data, written, index, item)
    return data, written


@pytest.mark.parametrize('shape', [(), (3,), (2, 3)], ids=['scalar', 'row', 'matrix'])
def test_list_set_writes_elements_of_each_rank(shape):
    data, written = np.zeros((4,) + shape, np.float32), np.zeros(4, np.bool_)
    item = np.float32(7) if not shape else np.arange(np.prod(shape), dtype=np.float32).reshape(
        shape)
    data, written = _set(data, written, 2, item)
    np.testing.assert_array_equal(data[2], item)
    np.testing.assert_array_equal(written, [False, False, True, False])
    assert not data[[0, 1, 3]].any()
    with pytest.raises(IndexError):
        _set(data, written, 4, item)
