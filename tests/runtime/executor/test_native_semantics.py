"""Native code's arithmetic at the edges is the default executor's: int32 and
int64 wrap around (elementwise, in fused chains, in reductions and in loops), integer division
and remainder by zero raise the default executor's error naming the op, float division by zero
gives inf and nan, and float-to-int casts and reductions agree. Ints compare exactly, floats
within 1e-6 relative (inf and nan where the default executor has them)."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt

pytest.importorskip('numba')
pytestmark = pytest.mark.filterwarnings('ignore:overflow encountered:RuntimeWarning',
                                        'ignore:divide by zero encountered:RuntimeWarning',
                                        'ignore:invalid value encountered:RuntimeWarning')

INT32_MAX, INT32_MIN = np.iinfo(np.int32).max, np.iinfo(np.int32).min
INT64_MAX = np.iinfo(np.int64).max


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    """Compiled code goes to the test run's temp dir, never the user's ~/.cache."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


def same(got, expected):
    """Same dtype and shape; ints exactly, floats within 1e-6 relative, inf and nan alike."""
    assert got.dtype == expected.dtype
    got, expected = np.asarray(got.numpy()), np.asarray(expected.numpy())
    assert got.shape == expected.shape
    if expected.dtype.kind == 'f':
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
        np.testing.assert_array_equal(np.isinf(got), np.isinf(expected))
        np.testing.assert_allclose(got, expected, rtol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)


def compare(fn, *args):
    """`fn` on `args` under jit_compile=True gives the default executor's results."""
    expected = ag.function(fn)(*args)
    got = ag.function(fn, jit_compile=True)(*args)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        same(g, e)
    return expected


def wrapping(x, y):
    """Overflowing arithmetic, elementwise and in one fused chain."""
    return (x + y, x - y, x * y, -x, rt.abs(x), x * y * 3 + x - y, rt.square(x),
            rt.reduce_sum(x), rt.reduce_prod(x + 2), rt.math.cumsum(x))


@pytest.mark.parametrize('dtype, top, bottom', [
    (rt.int32, INT32_MAX, INT32_MIN),
    (rt.int64, INT64_MAX, np.iinfo(np.int64).min)])
def test_integers_wrap_around_as_in_the_default_executor(dtype, top, bottom):
    x = rt.constant(np.array([top, bottom, top - 3, 12345, -7] * 3), dtype=dtype)
    y = rt.constant(np.array([1, -1, 9, 2 ** 20, top] * 3), dtype=dtype)
    expected = compare(wrapping, x, y)
    assert int(expected[0].numpy()[0]) == bottom  # it did wrap around
    # scalars too (but Cumsum, which refuses a scalar as TensorFlow does: no axis to scan)
    compare(lambda x, y: wrapping(x, y)[:-1], x[0], y[0])


def counted_wrap(x, n):
    total = x
    for _ in rt.range(n):
        total = total * 3 + 1
    return total


def test_integers_wrap_around_in_a_loop():
    for dtype in (rt.int32, rt.int64):
        expected = compare(counted_wrap, rt.constant(7, dtype), rt.constant(60))
        assert expected[0].dtype == dtype


def int_division(x, y):
    return x // y, x % y, rt.math.floordiv(x, y), rt.math.floormod(x, y), rt.abs(x) // y


@pytest.mark.parametrize('dtype', [rt.int32, rt.int64])
def test_integer_division_and_remainder_floor_as_the_default_executor(dtype):
    x = rt.constant([7, -7, 7, -7, 0, 5], dtype)
    y = rt.constant([2, 2, -2, -3, 3, 5], dtype)
    compare(int_division, x, y)
    compare(int_division, x[1], y[3])


@pytest.mark.parametrize('op', [lambda x, y: x // y, lambda x, y: x % y],
                         ids=['floordiv', 'floormod'])
@pytest.mark.parametrize('shape', [[], [4]], ids=['scalar', 'array'])
def test_integer_division_by_zero_raises_the_default_executors_error(op, shape):
    x = rt.constant(np.full(shape, 7, np.int32))
    y = rt.constant(np.array([1, 2, 0, 3], np.int32)[:shape[0]] if shape else np.int32(0))
    with pytest.raises(rt.errors.InvalidArgumentError) as default:
        ag.function(op)(x, y)
    with pytest.raises(rt.errors.InvalidArgumentError) as native:
        ag.function(op, jit_compile=True)(x, y)
    assert str(native.value) == str(default.value)
    assert 'division by zero' in str(native.value)


def float_division(x, y):
    return x / y, x // y, x % y, rt.math.divide_no_nan(x, y), rt.math.reciprocal(y), \
        rt.math.log(y), rt.sqrt(y - 1.0), rt.reduce_sum(x / y), rt.reduce_max(x / y)


@pytest.mark.parametrize('dtype', [rt.float32, rt.float64])
def test_float_division_by_zero_gives_inf_and_nan_as_the_default_executor(dtype):
    x = rt.constant([1.0, -1.0, 0.0, 2.5, -0.0, np.inf], dtype)
    y = rt.constant([0.0, 0.0, 0.0, -0.0, 0.0, 0.0], dtype)
    expected = compare(float_division, x, y)
    quotient = expected[0].numpy()
    assert quotient[0] == np.inf and quotient[1] == -np.inf and np.isnan(quotient[2])
    compare(float_division, x[0], y[0])
    compare(float_division, x[2], y[2])


def likes(x, y):
    """ZerosLike and OnesLike of inf and nan: new arrays, fused into a loop, and scalars."""
    return rt.zeros_like(x), rt.ones_like(x), rt.zeros_like(x) + y, rt.ones_like(x) * y, \
        rt.zeros_like(x[0]), rt.ones_like(x[1])


def test_zeros_and_ones_like_of_inf_and_nan_are_zeros_and_ones():
    x = rt.constant([np.inf, np.nan, -np.inf, 1.0], rt.float32)
    expected = compare(likes, x, rt.constant([1.0, 2.0, 3.0, 4.0], rt.float32))
    assert not np.isnan(expected[2].numpy()).any()


def products(a, b, c):
    """Float matrix products of every transposition (the BLAS flags of native/once.py)."""
    return rt.matmul(a, b), rt.matmul(a, c, transpose_b=True), \
        rt.matmul(b, b, transpose_a=True), rt.matmul(b, c, transpose_a=True, transpose_b=True)


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_float_matmuls_of_every_transposition_as_the_default_executor(dtype):
    rng = np.random.default_rng(5)
    a, b, c = (rt.constant(rng.standard_normal(shape).astype(dtype))
               for shape in ((3, 4), (4, 5), (5, 4)))
    compare(products, a, b, c)


def casts(x):
    return rt.cast(x, rt.int32), rt.cast(x, rt.int64), rt.cast(x, rt.uint8), \
        rt.cast(rt.cast(x, rt.int32), rt.float32), rt.cast(x > 0.5, rt.int32)


def test_float_to_int_casts_truncate_as_the_default_executor():
    compare(casts, rt.constant([-2.7, -0.5, 0.0, 0.5, 2.7, 255.9, 1e6], rt.float32))
    compare(casts, rt.constant(-3.99, rt.float32))


def float_reductions(x):
    return rt.reduce_sum(x), rt.reduce_mean(x, axis=0), rt.reduce_sum(x * x, axis=1), \
        rt.reduce_max(x, axis=0), rt.reduce_min(x, axis=1), rt.math.reduce_logsumexp(x)


def test_float64_reductions_of_large_arrays_match_within_1e_6():
    values = np.random.default_rng(22).normal(size=(300, 257)) * 100.0 + 1.0
    compare(float_reductions, rt.constant(values, rt.float64))


def test_float32_sums_are_as_accurate_as_the_default_executors():
    """Sums of float32 terms that cancel (a mean of about 0.5 from terms of about 100): native
    code sums in another order than numpy's, so the two can differ by more than 1e-6 relative
    to the small result (by float32's rounding of the terms' size, 1e-7 relative to it), but
    native code is never further from the exact sum than the default executor."""
    values = np.random.default_rng(22).normal(size=(300, 257)).astype(np.float32) * 100 + 1
    x = rt.constant(values)
    expected, got = ag.function(float_reductions)(x), \
        ag.function(float_reductions, jit_compile=True)(x)
    exact = (values.astype(np.float64).sum(), values.astype(np.float64).mean(axis=0),
             np.square(values.astype(np.float64)).sum(axis=1))
    scale = (np.abs(values).sum(), np.abs(values).mean(axis=0), np.square(values).sum(axis=1))
    for g, e, truth, size in zip(got, expected, exact, scale):
        assert g.dtype == e.dtype == rt.float32
        error, default_error = np.abs(g.numpy() - truth), np.abs(e.numpy() - truth)
        assert np.all(error <= np.maximum(default_error, 1e-7 * size) * 1.0001)
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=0, atol=1e-6 * size.max())
    for g, e in zip(got[3:], expected[3:]):  # max, min and logsumexp: within 1e-6
        same(g, e)
