"""native/vmath.py: the float32 exp, tanh and log that native loops vectorize give numpy's
float32 results within 1e-6 relative over the whole float32 range (a strided sample of every
bit pattern), within an ulp of the correctly rounded result (log: that result but for rare
last-bit roundings), and numpy's special values (inf, NaN, -0.0, overflow to inf, underflow to
0); and graphs use them in loops over float32 arrays. Also the fixes `pytest --jit` found in
the emitter."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt

numba = pytest.importorskip('numba')

from runtime.executor.native import vmath  # noqa: E402 (imports numba)

TINY = np.finfo(np.float32).tiny


def _applier(function):
    """A numba loop applying `function` to each element (one per test: each compiles only the
    function it checks)."""
    @numba.njit(error_model='numpy')
    def apply(x, out):
        for i in range(x.shape[0]):
            out[i] = function(x[i])
    return apply


SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.73, -87.33, -103.97, -104.0,
                     -200.0, 300.0, 1e-30, -1e-30, 1.4e-45, -1.4e-45, 9.0, 9.1, -9.1, 0.01,
                     -0.01, 0.55, TINY, 3.4e38, -3.4e38], np.float32)


def _sample():
    """Every 4099th float32 bit pattern (~1M values, all exponents) and the special values."""
    bits = np.arange(0, 2 ** 32, 4099, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([bits.view(np.float32), SPECIALS])


def _ulps(a, b):
    """How many float32 steps apart `a` and `b` are (elementwise; -0.0 and 0.0 are 0 apart)."""
    def ordered(x):
        bits = x.view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7fffffff), bits)
    return np.abs(ordered(a) - ordered(b))


@pytest.mark.parametrize('name,ufunc,ulps', [('exp_f32', np.exp, 1), ('tanh_f32', np.tanh, 1),
                                              ('log_f32', np.log, 0)], ids=['exp', 'tanh', 'log'])
def test_float32_math_gives_numpys_results_over_the_whole_range(name, ufunc, ulps):
    x = _sample()
    got = np.empty_like(x)
    _applier(getattr(vmath, name))(x, got)
    with np.errstate(all='ignore'):
        expected = ufunc(x)
        exact = ufunc(x.astype(np.float64)).astype(np.float32)
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan)
    normal = ~nan & (np.abs(expected) >= TINY)
    np.testing.assert_allclose(got[normal], expected[normal], rtol=1e-6)
    # results numpy rounds to 0, inf or a subnormal: within a subnormal step of the correctly
    # rounded value, a few of numpy's (numpy's own float32 exp is off there)
    edge = ~nan & ~normal
    assert np.all((got[edge] == expected[edge]) | (np.abs(got[edge] - exact[edge]) <= 1.5e-45) &
                  (np.abs(got[edge] - expected[edge]) <= 8e-45))
    assert np.array_equal(np.signbit(got[~nan]), np.signbit(expected[~nan]))  # -0.0 stays
    # exp and tanh (float32 arithmetic) within `ulps` of the correctly rounded result; log
    # (float64 arithmetic) correctly rounded but for a few, an ulp away
    steps = _ulps(got[~nan], exact[~nan])
    assert steps.max() <= max(ulps, 1)
    if not ulps:
        assert np.mean(steps > 0) < 1e-5


def test_small_float32_loops_call_the_vectorizable_forms():
    x = rt.constant(np.linspace(-12, 12, 60, dtype=np.float32).reshape(6, 10))

    def f(x):
        return rt.exp(rt.tanh(x) * 0.5) + rt.sigmoid(x) + rt.math.log(rt.abs(x) + 1e-3)

    default, jit = ag.function(f), ag.function(f, jit_compile=True)
    np.testing.assert_allclose(jit(x).numpy(), default(x).numpy(), rtol=1e-6)
    source = jit.get_concrete_function(x)._run.source
    assert 'exp_f32(' in source and 'tanh_f32(' in source and 'log_f32(' in source
    x64 = rt.constant(np.linspace(-3, 3, 12))
    jit64 = ag.function(rt.tanh, jit_compile=True)
    np.testing.assert_allclose(jit64(x64).numpy(), np.tanh(x64.numpy()), rtol=1e-15)
    assert 'tanh_f32' not in jit64.get_concrete_function(x64)._run.source  # float64: libm


def slice_and_select(a, condition):
    shape = rt.shape(a)
    picked = rt.where(condition, rt.ones_like(shape), shape)
    return a[..., :shape[1] // 2], picked


def test_a_slice_with_an_ellipsis_and_a_fused_operand_that_loops_no_more():
    """Found by `pytest --jit` (expm's gradient of unknown dims): a slice `[..., :n]` calls its
    kernel, so the Pack of its bounds is an array, not left to the slice; a ones_like(shape)
    left to be fused into a select that has no loop (its condition's length is unknown) is
    computed as an array first."""
    signature = [rt.TensorSpec([None, None], rt.float64), rt.TensorSpec([None], rt.bool)]
    default = ag.function(slice_and_select, input_signature=signature)
    jit = ag.function(slice_and_select, input_signature=signature, jit_compile=True)
    args = rt.constant(np.arange(12.0).reshape(3, 4)), rt.constant([True, False])
    for got, expected in zip(jit(*args), default(*args)):
        np.testing.assert_array_equal(got.numpy(), expected.numpy())
