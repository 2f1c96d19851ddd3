"""float32 `exp`, `tanh` and `log` that LLVM vectorizes: numba's `np.exp` of a float32 calls
the C library's `expf` for each element, a call no loop around it can vectorize (numba would
need Intel's SVML, which current llvmlite builds do not use). These compute in float64 with
range reduction and a polynomial, branch-free (every branch is a select), so a loop over an
array applying them runs on SIMD lanes; float64 keeps their error far below float32's ulp, so
the results are numpy's float32 ones but for a rare last-bit rounding (within 1e-6 relative,
tests/runtime/executor/test_vmath.py checks the whole float32 range). Overflow, underflow,
NaN, infinities and -0.0 come out as numpy's. float64 operands keep numba's libm calls.

`njit(cache=True)`: compiled once per machine; LLVM inlines them into the generated loops
(native/rules/forms.py names them in loop elements of float32 ops).
"""
import math

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_LOG2E = 1.4426950408889634
_LN2 = 0.6931471805599453
_ROUND = 6755399441055744.0  # 2**52 + 2**51: x + _ROUND - _ROUND rounds x to an integer
_SQRT_HALF = 0.7071067811865476


@intrinsic
def _f64_from_bits(typingctx, bits):
    """The float64 whose IEEE bits are the int64 `bits` (an LLVM bitcast)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@intrinsic
def _bits_of_f64(typingctx, value):
    """The IEEE bits of the float64 `value` as an int64."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


# highest power first: e**r's Taylor series to r**10, atanh(s) / s's in z = s*s to z**7
_EXP_SERIES = tuple(1.0 / math.factorial(n) for n in range(10, -1, -1))
_ATANH_SERIES = tuple(1.0 / (2 * n + 1) for n in range(7, -1, -1))


@numba.njit(cache=True, error_model='numpy')
def _horner(coefficients, x):
    """The polynomial of `coefficients` (highest power first) at x (LLVM unrolls the loop)."""
    p = 0.0
    for c in coefficients:
        p = p * x + c
    return p


@numba.njit(cache=True, error_model='numpy')
def exp_core(d):
    """e**d for a float64 d in [-300, 300] (NaN gives an unspecified value): d = k ln2 + r,
    |r| <= ln2 / 2, e**r by its Taylor polynomial to r**10 (error < 1e-11 relative), times
    2**k built from its bits."""
    k = (d * _LOG2E + _ROUND) - _ROUND
    r = d - k * _LN2
    return _horner(_EXP_SERIES, r) * _f64_from_bits((np.int64(k) + 1023) << 52)


@numba.njit(cache=True, error_model='numpy')
def exp_f32(x):
    """np.exp of a float32: over 88.73 inf, under -103.98 0 (subnormals between), NaN NaN."""
    d = np.float64(x)
    c = 200.0 if d > 200.0 else d
    c = -200.0 if c < -200.0 else c
    e = exp_core(c)
    return np.float32(e if d == d else d)


@numba.njit(cache=True, error_model='numpy')
def tanh_f32(x):
    """np.tanh of a float32: an odd polynomial below 0.01 (so -0.0 and tiny values keep their
    sign and relative precision), else 1 - 2 / (e**2|x| + 1) with x's sign; +-1 from 9.1,
    NaN NaN."""
    d = np.float64(x)
    a = -d if d < 0 else d
    a = 20.0 if a > 20.0 else a
    s = d * d
    small = d * (1.0 + s * (-1.0 / 3.0 + s * (2.0 / 15.0 + s * (-17.0 / 315.0))))
    big = 1.0 - 2.0 / (exp_core(2.0 * a) + 1.0)
    big = -big if d < 0 else big
    return np.float32(big if a >= 0.01 else small)


@numba.njit(cache=True, error_model='numpy')
def log_f32(x):
    """np.log of a float32: x = m 2**e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s) for
    s = (m - 1) / (m + 1), |s| < 0.172, by its series to s**15; 0 gives -inf, negatives NaN,
    inf inf, NaN NaN."""
    d = np.float64(x)
    positive = d > 0.0 and d < np.inf
    bits = _bits_of_f64(d if positive else 1.0)
    e = ((bits >> 52) & 0x7ff) - 1023
    m = _f64_from_bits((bits & 0xfffffffffffff) | 0x3ff0000000000000)  # in [1, 2)
    high = m >= 1.4142135623730951
    m = m * 0.5 if high else m
    e = e + 1 if high else e
    s = (m - 1.0) / (m + 1.0)
    z = s * s
    result = 2.0 * s * _horner(_ATANH_SERIES, z) + np.float64(e) * _LN2
    special = -np.inf if d == 0.0 else (d if d == np.inf or d != d else np.nan)
    return np.float32(result if positive else special)


EXPORTS = {'exp_f32': exp_f32, 'tanh_f32': tanh_f32, 'log_f32': log_f32}
