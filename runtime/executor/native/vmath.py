"""float32 `exp`, `tanh` and `log` that LLVM vectorizes: numba's `np.exp` of a float32 calls
the C library's `expf` for each element, a call no loop around it can vectorize (numba would
need Intel's SVML, which current llvmlite builds do not use). These use range reduction and a
polynomial, branch-free (every branch is a select), so a loop over an array applying them runs
on SIMD lanes: in float32 arithmetic (16 lanes with AVX-512), within an ulp of the correctly
rounded result. All are within 1e-6 relative of numpy's float32 loops
(tests/runtime/executor/test_vmath.py checks the whole float32 range); overflow, underflow,
NaN, infinities and -0.0 come out as numpy's. float64 operands keep numba's libm calls.

`njit(cache=True)`: compiled once per machine; LLVM inlines them into the generated loops
(native/rules/forms.py names them in loop elements of float32 ops).
"""
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_LOG2E = 1.4426950408889634
_LN2 = 0.6931471805599453


# ---- exp and tanh in float32 arithmetic: 16 SIMD lanes (float64 gives 8), no division in exp --
# Their polynomials were fitted here by weighted least squares on Chebyshev nodes (relative
# error of the polynomial alone below 5e-9, far below float32's ulp, 6e-8); with FMA
# contraction (`contract`, which only rounds less often) the results are within an ulp of the
# correctly rounded ones, numpy's float32 loops within 2.5e-7 relative.
_F32 = np.float32
_ONE = _F32(1.0)
_LOG2E_32 = _F32(_LOG2E)
_LN2_HIGH = _F32(0.693359375)  # ln 2 = _LN2_HIGH + _LN2_LOW; k * _LN2_HIGH is exact for |k| < 2**15
_LN2_LOW = _F32(_LN2 - 0.693359375)
_ROUND_32 = _F32(12582912.0)  # 2**23 + 2**22: x + _ROUND_32 - _ROUND_32 rounds x to an integer
_EXP_HIGH, _EXP_LOW = _F32(89.0), _F32(-104.0)  # beyond: inf, 0 (e**-104 < half 2**-149)
# e**r = 1 + r + r**2 q(r) for |r| <= ln2 / 2
_Q4, _Q3, _Q2, _Q1, _Q0 = (_F32(c) for c in (1.37514e-3, 8.36892e-3, 4.166953e-2, 0.16666518,
                                             0.49999989))
_TANH_SMALL, _TANH_BIG = _F32(0.5625), _F32(9.1)
# tanh x = x + x z s(z) for |x| < 0.5625, z = x**2: s of degree 4 fitted here for the relative
# error of tanh (Lawson's iteratively reweighted least squares on 2000 Chebyshev nodes of
# [0, 0.5625], in long double, to the minimax fit: 1.3e-9 with these float32 coefficients'
# rounding, a fiftieth of float32's ulp)
_S0, _S1, _S2, _S3, _S4 = (_F32(c) for c in (-0.33333313, 0.13332452, -0.053837433, 0.021007475,
                                             -0.00617983))
_FLOAT32 = {'error_model': 'numpy', 'fastmath': {'contract'}}


@intrinsic
def _f32_from_bits(typingctx, bits):
    """The float32 whose IEEE bits are the int32 `bits` (an LLVM bitcast)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.FloatType())
    return types.float32(types.int32), codegen


@intrinsic
def _bits_of_f32(typingctx, value):
    """The IEEE bits of the float32 `value` as an int32."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(32))
    return types.int32(types.float32), codegen


@numba.njit(cache=True, **_FLOAT32)
def _exp_reduced(c):
    """e**c for a float32 c in [-104, 89]: c = k ln2 + r, |r| <= ln2 / 2 (ln2 in two parts, so
    r is exact), e**r by its polynomial, times 2**k in two factors, each a normal float32, so
    a subnormal result is rounded once."""
    k = (c * _LOG2E_32 + _ROUND_32) - _ROUND_32
    r = (c - k * _LN2_HIGH) - k * _LN2_LOW
    p = _ONE + r + r * r * (_Q0 + r * (_Q1 + r * (_Q2 + r * (_Q3 + r * _Q4))))
    whole = np.int32(k)
    half = whole >> 1
    return p * _f32_from_bits((half + 127) << 23) * _f32_from_bits((whole - half + 127) << 23)


@numba.njit(cache=True, **_FLOAT32)
def exp_f32(x):
    """np.exp of a float32: over 88.73 inf, under -103.98 0 (subnormals between), NaN NaN."""
    c = _EXP_HIGH if x > _EXP_HIGH else x
    c = _EXP_LOW if c < _EXP_LOW else c
    e = _exp_reduced(c)
    return e if x == x else x


@numba.njit(cache=True, **_FLOAT32)
def tanh_f32(x):
    """np.tanh of a float32, with x's sign (-0.0 stays -0.0), NaN NaN; both forms computed,
    one selected (no branch): below |x| = 0.5625 the odd polynomial |x| + |x| z s(z), z = x**2,
    above it 1 - 2 / (1 + e**2|x|) (e**2|x| = 2**k e**r as in `exp`; from |x| = 9.1 on, where
    tanh rounds to 1, e**18.2), where 2 / (1 + e) < 0.5 keeps its rounding errors under half an
    ulp of the result. Within an ulp of the correctly rounded result (2% of float32s an ulp
    away); one division."""
    a = abs(x)
    z = a * a
    small = a + a * z * (_S0 + z * (_S1 + z * (_S2 + z * (_S3 + z * _S4))))
    c = a if a < _TANH_BIG else _TANH_BIG  # NaN too: no NaN reaches the integer conversion
    y = c + c
    k = (y * _LOG2E_32 + _ROUND_32) - _ROUND_32
    r = (y - k * _LN2_HIGH) - k * _LN2_LOW
    e = (_ONE + r + r * r * (_Q0 + r * (_Q1 + r * (_Q2 + r * (_Q3 + r * _Q4))))) * \
        _f32_from_bits((np.int32(k) + 127) << 23)
    large = _ONE - _F32(2.0) / (_ONE + e)
    return np.copysign(large if a >= _TANH_SMALL else small, x)  # NaN: `small`, NaN


# log(1 + f) = f - f**2 / 2 + f**3 p(f) for f in [sqrt(1/2) - 1, sqrt(2) - 1): p of degree 8,
# Cephes' `logf` minimax fit (S. Moshier), whose float32 evaluation is within an ulp
_LOG_P = tuple(_F32(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
                                 -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
                                 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1))
_LOG_P8, _LOG_P7, _LOG_P6, _LOG_P5, _LOG_P4, _LOG_P3, _LOG_P2, _LOG_P1, _LOG_P0 = _LOG_P
_LN2_LOW_LOG = _F32(-2.12194440e-4)  # ln 2 = _LN2_HIGH - _LN2_LOW_LOG, to float32's precision
_SQRT2_32 = _F32(1.4142135)
_TWO_23 = _F32(8388608.0)  # scales a subnormal to a normal float32


@numba.njit(cache=True, **_FLOAT32)
def log_f32(x):
    """np.log of a float32 in float32 arithmetic (16 lanes, no division): x = m 2**e with m in
    [sqrt(1/2), sqrt(2)) (a subnormal scaled by 2**23 first), f = m - 1 exact, log(1 + f) by
    Cephes' polynomial, e ln2 in two parts; within an ulp of the correctly rounded result.
    0 gives -inf, negatives NaN, inf inf, NaN NaN."""
    subnormal = x < _F32(1.1754944e-38)
    scaled = x * _TWO_23 if subnormal else x
    bits = _bits_of_f32(scaled)  # of a negative, infinite or NaN x: replaced by `special`
    # the exponent as a float32 (int32 to float32: 16 lanes; numba's int64 arithmetic has 8)
    e = _F32(np.int32((bits >> 23) & 0xff)) - (_F32(150.0) if subnormal else _F32(127.0))
    m = _f32_from_bits(np.int32((bits & 0x7fffff) | 0x3f800000))  # in [1, 2)
    high = m >= _SQRT2_32
    m = m * _F32(0.5) if high else m
    k = e + _ONE if high else e
    f = m - _ONE
    z = f * f
    z2 = z * z  # Estrin's scheme: a shorter dependency chain than Horner's
    p = (_LOG_P0 + f * _LOG_P1) + z * (_LOG_P2 + f * _LOG_P3) + z2 * (
        (_LOG_P4 + f * _LOG_P5) + z * (_LOG_P6 + f * _LOG_P7) + z2 * _LOG_P8)
    y = f * z * p + k * _LN2_LOW_LOG - _F32(0.5) * z
    result = (f + y) + k * _LN2_HIGH
    special = -_F32(np.inf) if x == _F32(0.0) else (x if x == _F32(np.inf) or x != x else
                                                   _F32(np.nan))
    return result if x > _F32(0.0) and x < _F32(np.inf) else special


# ---- float64 tanh: libmvec's `tanh` took ~1.5x numpy's loop ---------------------------------
_ROUND_64 = 6755399441055744.0  # 2**52 + 2**51: x + _ROUND_64 - _ROUND_64 rounds x to an integer
_LN2_HIGH_64, _LN2_LOW_64 = 6.93147180369123816490e-01, 1.90821492927058770002e-10  # fdlibm's
# e**r - 1 = r + r**2 (1/2 + r/6 + ...): Taylor's coefficients to r**13 (|r| <= ln2 / 2: the
# first term left out, r**14 / 14!, is below 2**-56 of r)
_EXPM1_64 = tuple(1.0 / float(np.prod(np.arange(1, n + 1, dtype=np.float64)))
                  for n in range(2, 14))
(_E2, _E3, _E4, _E5, _E6, _E7, _E8, _E9, _E10, _E11, _E12, _E13) = _EXPM1_64


@intrinsic
def _f64_from_bits(typingctx, bits):
    """The float64 whose IEEE bits are the int64 `bits` (an LLVM bitcast)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@numba.njit(cache=True, error_model='numpy', fastmath={'contract'})
def tanh_f64(x):
    """np.tanh of a float64, branch-free: tanh |x| = -m / (2 + m) for m = e**-2|x| - 1 =
    2**k (e**r - 1) + (2**k - 1), -2|x| = k ln2 + r (|r| <= ln2 / 2, ln2 in two parts), e**r - 1
    by its Taylor polynomial (no cancellation near 0); |x| over 20, where tanh rounds to 1,
    taken as 20. x's sign (-0.0 stays -0.0), NaN NaN; within 3 ulps of the correctly rounded
    result (tests/runtime/executor/test_vmath.py)."""
    a = abs(x)
    y = -2.0 * (a if a < 20.0 else 20.0)  # NaN too: no NaN reaches the integer conversion
    k = (y * _LOG2E + _ROUND_64) - _ROUND_64
    r = (y - k * _LN2_HIGH_64) - k * _LN2_LOW_64
    q = _E2 + r * (_E3 + r * (_E4 + r * (_E5 + r * (_E6 + r * (_E7 + r * (_E8 + r * (
        _E9 + r * (_E10 + r * (_E11 + r * (_E12 + r * _E13))))))))))
    p = r + r * r * q
    scale = _f64_from_bits((np.int64(k) + 1023) << 52)
    m = scale * p + (scale - 1.0)
    t = -m / (2.0 + m)
    return np.copysign(t, x) if x == x else x


# ---- float64 log: libmvec's `log` took 1.1-1.3x numpy's loop ---------------------------------
# fdlibm's e_log.c: log(1 + f) = f - hfsq + s (hfsq + R(z)), s = f / (2 + f), z = s**2, hfsq =
# f**2 / 2, R a minimax polynomial (its error below 2**-58.45), below an ulp in all
_LG1, _LG2, _LG3, _LG4, _LG5, _LG6, _LG7 = (
    6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01,
    2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01,
    1.479819860511658591e-01)
_TWO_54 = 18014398509481984.0  # scales a subnormal to a normal float64


@intrinsic
def _bits_of_f64(typingctx, value):
    """The IEEE bits of the float64 `value` as an int64."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@numba.njit(cache=True, error_model='numpy', fastmath={'contract'})
def log_f64(x):
    """np.log of a float64, branch-free (one division, 8 lanes): x = m 2**e with m in
    [sqrt(1/2), sqrt(2)) (a subnormal scaled by 2**54 first), f = m - 1 exact, log(1 + f) as
    fdlibm writes it, e ln2 in two parts; within an ulp. 0 gives -inf, negatives NaN, inf inf,
    NaN NaN."""
    subnormal = x < 2.2250738585072014e-308
    bits = _bits_of_f64(x * _TWO_54 if subnormal else x)  # of x <= 0, inf, NaN: `special`
    e = np.float64((bits >> 52) & 0x7ff) - (1077.0 if subnormal else 1023.0)
    m = _f64_from_bits((bits & 0xfffffffffffff) | 0x3ff0000000000000)  # in [1, 2)
    high = m >= 1.4142135623730951
    m = m * 0.5 if high else m
    k = e + 1.0 if high else e
    f = m - 1.0
    hfsq = 0.5 * f * f
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    r = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7))) + w * (_LG2 + w * (_LG4 + w * _LG6))
    result = k * _LN2_HIGH_64 - ((hfsq - (s * (hfsq + r) + k * _LN2_LOW_64)) - f)
    special = -np.inf if x == 0.0 else (x if x == np.inf or x != x else np.nan)
    return result if x > 0.0 and x < np.inf else special


# ---- glibc's vector math library (libmvec) for float64 math and float32 sin/cos ---------------
# A loop calling `sin` cannot vectorize (LLVM knows no vector `sin` without a vector library,
# which numba does not configure: it widens the call to 8 scalar calls). glibc ships libmvec,
# SIMD versions of the math functions under the x86_64 vector ABI names (`_ZGVeN8v_sin`: AVX-512,
# unmasked, 8 lanes). `vector_math` declares them and marks its scalar call with the
# `vector-function-abi-variant` attribute naming them, so LLVM's loop vectorizer calls the SIMD
# version for each vector of elements and the scalar one for the loop's remainder. The scalar
# call names glibc's alias (`sinf64` for `sin`), which LLVM does not recognise as the libm
# function (it would turn `sin` into its `llvm.sin` intrinsic, dropping the attribute). glibc
# documents libmvec's functions within 4 ulps; tests/runtime/executor/test_vmath.py measures
# them (docs/jit.md has the figures). Without libmvec (not glibc, not x86_64, a numba target
# that is not the host's CPU) the same functions are plain libm calls.

_ISAS = (('e', 'avx512f', 512), ('d', 'avx2', 256), ('b', 'sse4.1', 128))  # the vector ABI's


def _vector_variants():
    """[(ISA letter, vector bits)] of libmvec's variants this process can call, best first
    (loaded into the process's symbol table for the JIT), and whether libm has the `sinf64`
    style aliases; ([], False) where not available."""
    import llvmlite.binding  # deferred: optional dependency numba (the jit extra)
    from numba.core import config  # deferred: optional dependency numba (the jit extra)
    if config.CPU_NAME is not None or config.CPU_FEATURES is not None:
        return [], False
    try:
        (mvec, path), (libm, _) = _library('mvec', 'libmvec.so.1'), _library('m', 'libm.so.6')
        llvmlite.binding.load_library_permanently(path)
    except OSError:
        return [], False
    features = llvmlite.binding.get_host_cpu_features()
    variants = [(letter, bits) for letter, feature, bits in _ISAS if features.get(feature) and
                hasattr(mvec, f'_ZGV{letter}N{bits // 64}v_sin')]
    return variants, hasattr(libm, 'sinf64') and hasattr(libm, 'tanhf32')


def _library(name, soname):
    """(the C library `name`, its file) by glibc's file name, else as `ctypes.util.find_library`
    finds it (which runs `ldconfig` in a subprocess: ~35 ms before native code could run);
    OSError if neither loads."""
    import ctypes  # deferred: start-up cost (only the vector math's set-up uses it)
    try:
        return ctypes.CDLL(soname), soname
    except OSError:
        import ctypes.util  # deferred: start-up cost (a C library other than glibc)
        path = ctypes.util.find_library(name)
        if path is None:
            raise
        return ctypes.CDLL(path), path


VARIANTS, _ALIASES = _vector_variants()
"""[(ISA letter, vector bits)] of the libmvec variants loops call, best first; [] for none."""
_TYPES = {types.float32: (ir.FloatType(), 32, 'f'), types.float64: (ir.DoubleType(), 64, '')}


def _keep(module, function):
    """Add `function` to the module's `llvm.compiler.used` (LLVM would drop the declaration of
    a function nothing calls yet, and the vectorizer finds the variant by its declaration)."""
    pointer = ir.PointerType(ir.IntType(8))
    used = module.globals.get('llvm.compiler.used')
    if used is None:
        used = ir.GlobalVariable(module, ir.ArrayType(pointer, 0), 'llvm.compiler.used')
        used.linkage, used.section = 'appending', 'llvm.metadata'
        members = []
    else:
        members = list(used.initializer.constant)
    if function in members:
        return
    members.append(function)
    used.value_type = ir.ArrayType(pointer, len(members))  # llvmlite writes the global's type
    used.initializer = ir.Constant(used.value_type, members)


def vector_math(name, numba_type):
    """An intrinsic computing libm's `name` (sin, cos, exp, log, tanh) of a float32 or float64
    that LLVM's loop vectorizer computes with libmvec's SIMD variants."""
    float_type, bits, suffix = _TYPES[numba_type]
    aliased = bool(VARIANTS) and _ALIASES
    scalar = f'{name}f{bits}' if aliased else name + suffix

    def codegen(context, builder, signature, args):
        module = builder.module
        declared = module.globals.get(scalar) or \
            ir.Function(module, ir.FunctionType(float_type, [float_type]), scalar)
        call = builder.call(declared, args, attrs=('nounwind', 'readnone'))
        if aliased:
            mappings = []
            for letter, width in VARIANTS:
                lanes = width // bits
                vector = f'_ZGV{letter}N{lanes}v_{name}{suffix}'
                vector_type = ir.VectorType(float_type, lanes)
                _keep(module, module.globals.get(vector) or
                      ir.Function(module, ir.FunctionType(vector_type, [vector_type]), vector))
                mappings.append(f'_ZGV_LLVM_N{lanes}v_{scalar}({vector})')
            # a string attribute, which llvmlite's attribute set (a set of known names) refuses
            set.add(call.attributes, f'"vector-function-abi-variant"="{",".join(mappings)}"')
        return call

    def typer(typingctx, x):
        return numba_type(numba_type), codegen
    typer.__name__ = f'{name}_f{bits}'
    return intrinsic(typer)


VECTOR_MATH = {(name, bits): vector_math(name, numba_type)
               for name in ('sin', 'cos', 'exp', 'log', 'tanh')
               for numba_type, bits in ((types.float32, 32), (types.float64, 64))}
"""(ufunc name, float bits) -> the intrinsic, exported as `sin_f64`...; float32 exp, log and
tanh are the forms above (closer to the correctly rounded result than libmvec's)."""


@intrinsic
def accumulate(typingctx, total, value):
    """total + value for float64s, an addition LLVM may reorder (`reassoc`): a loop adding
    with it vectorizes, into partial sums (a plain addition keeps one running total). Only
    this addition is reordered, not the loop's other arithmetic."""
    def codegen(context, builder, signature, args):
        return builder.fadd(args[0], args[1], flags=('reassoc',))
    return types.float64(types.float64, types.float64), codegen


# the forms of this module's own, which take the place of libmvec's for their op and dtype
_OWN_FORMS = {'exp_f32': exp_f32, 'tanh_f32': tanh_f32, 'log_f32': log_f32,
              'tanh_f64': tanh_f64, 'log_f64': log_f64}
EXPORTS = {**{f'{name}_f{bits}': function for (name, bits), function in VECTOR_MATH.items()},
           **_OWN_FORMS, 'accumulate': accumulate}
