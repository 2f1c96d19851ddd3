"""The elementwise functions of `rt.experimental.numpy`, made from one table.

Each row names a numpy function, the runtime op or composition that computes it, and how its
operands are prepared: `inexact` (integers become float64, as `tnp` promotes them), `same` (the
operands meet at their result type), `bool` (the operands become bools). The graph nodes are the
runtime's ops (`Sin`, `AddV2`, `Atan2`, ...), so the functions work inside `ag.function` and
have the gradients of those ops.
"""
import numpy as np

from runtime import math as rtm
from runtime.control_flow import while_loop
from runtime.core import dtypes
from runtime.experimental.numpy.core import asarray, inexact_operand, promote
from runtime.ops import bitwise
from runtime.ops.array import cast, identity
from runtime.ops.compare import where
from runtime.ops.creation import zeros_like
from runtime.ops.math import matmul as rt_matmul
from runtime.ops.shaping import broadcast_to
from runtime.ops.shaping import shape as shape_of


def _log_base(base):
    return lambda x: rtm.log(x) / np.log(base).astype(x.dtype.as_numpy_dtype)


def _scaled(factor):
    return lambda x: x * np.asarray(factor, x.dtype.as_numpy_dtype)


def _cbrt(x):
    return rtm.sign(x) * rtm.pow(rtm.abs(x), np.asarray(1 / 3, x.dtype.as_numpy_dtype))


def _sinc(x):
    pi_x = x * np.asarray(np.pi, x.dtype.as_numpy_dtype)
    safe = where(rtm.equal(x, 0), rtm.add(pi_x, 1), pi_x)
    return where(rtm.equal(x, 0), rtm.add(zeros_like(x), 1), rtm.sin(safe) / safe)


def _fix(x):
    return where(rtm.less(x, 0), rtm.ceil(x), rtm.floor(x))


def _exp2(x):
    return rtm.pow(np.asarray(2, x.dtype.as_numpy_dtype), x)


def _signbit(x):
    if x.dtype.is_floating:  # atan2(x, -1) is below 0 for negative numbers and -0.0
        return rtm.less(rtm.atan2(x, zeros_like(x) - 1), 0)
    return rtm.less(x, 0) if not x.dtype.is_bool else rtm.not_equal(x, x)


def _gcd(x1, x2):
    """Euclid's algorithm elementwise, as a while loop (TensorFlow's composition)."""
    if not x1.dtype.is_integer:
        raise ValueError(f'Arguments to gcd must be integers, got {x1.dtype.name}.')
    shape = broadcast_to(x1 + x2, shape_of(x1 + x2))
    a, b = rtm.abs(x1) + zeros_like(shape), rtm.abs(x2) + zeros_like(shape)

    def body(a, b):
        nonzero = rtm.not_equal(b, 0)
        safe = where(nonzero, b, rtm.add(zeros_like(b), 1))
        a, b = where(nonzero, b, a), where(nonzero, rtm.mod(a, safe), zeros_like(b))
        return where(rtm.less(a, b), b, a), where(rtm.less(a, b), a, b)
    return while_loop(lambda a, b: rtm.reduce_any(rtm.not_equal(b, 0)), body, [a, b])[0]


def _lcm(x1, x2):
    divisor = _gcd(x1, x2)
    safe = where(rtm.equal(divisor, 0), rtm.add(zeros_like(divisor), 1), divisor)
    return where(rtm.equal(divisor, 0), zeros_like(divisor),
                 rtm.abs(rtm.floordiv(x1, safe) * x2))


def _isneginf(x):
    return rtm.logical_and(rtm.is_inf(x), rtm.less(x, 0))


def _isposinf(x):
    return rtm.logical_and(rtm.is_inf(x), rtm.greater(x, 0))


def _hypot(x1, x2):
    return rtm.sqrt(rtm.square(x1) + rtm.square(x2))


def _logaddexp(x1, x2):
    amax = rtm.maximum(x1, x2)
    delta = x1 - x2
    return where(rtm.is_nan(delta), x1 + x2, amax + rtm.log1p(rtm.exp(-rtm.abs(delta))))


def _logaddexp2(x1, x2):
    amax = rtm.maximum(x1, x2)
    delta = x1 - x2
    log2 = np.log(2).astype(x1.dtype.as_numpy_dtype)
    return where(rtm.is_nan(delta), x1 + x2,
                 amax + rtm.log1p(rtm.pow(np.asarray(2, x1.dtype.as_numpy_dtype),
                                          -rtm.abs(delta))) / log2)


def _heaviside(x1, x2):
    zero = zeros_like(x1)
    return where(rtm.less(x1, 0), zero, where(rtm.greater(x1, 0), zero + 1, x2))


def _true_divide(x1, x2):
    return rtm.divide(x1, x2)


def _bool_fn(fn):
    return lambda *xs: fn(*[x if x.dtype.is_bool else rtm.not_equal(x, 0) for x in xs])


def _int_or_bool(int_fn, bool_fn):
    return lambda *xs: bool_fn(*xs) if xs[0].dtype.is_bool else int_fn(*xs)


def _real(x):
    return bitwise.real(x) if x.dtype.is_complex else x


def _imag(x):
    return bitwise.imag(x) if x.dtype.is_complex else zeros_like(x)


def _conj(x):
    return bitwise.conj(x) if x.dtype.is_complex else identity(x)


def _iscomplex(x):
    return rtm.not_equal(bitwise.imag(x), 0) if x.dtype.is_complex else \
        rtm.logical_and(rtm.equal(zeros_like(x), 0), False)


def _isreal(x):
    return rtm.logical_not(_iscomplex(x))


_UNARY = {  # name: (function of the prepared operand, how operands are prepared)
    'abs': (rtm.abs, 'same'), 'absolute': (rtm.abs, 'same'), 'fabs': (rtm.abs, 'inexact'),
    'negative': (rtm.negative, 'same'), 'positive': (identity, 'same'),
    'square': (rtm.square, 'same'),
    'sqrt': (rtm.sqrt, 'inexact'), 'exp': (rtm.exp, 'inexact'), 'exp2': (_exp2, 'inexact'),
    'expm1': (rtm.expm1, 'inexact'), 'log': (rtm.log, 'inexact'),
    'log1p': (rtm.log1p, 'inexact'), 'log2': (_log_base(2), 'inexact'),
    'log10': (_log_base(10), 'inexact'), 'reciprocal': (rtm.reciprocal, 'inexact'),
    'sin': (rtm.sin, 'inexact'), 'cos': (rtm.cos, 'inexact'), 'tan': (rtm.tan, 'inexact'),
    'arcsin': (rtm.asin, 'inexact'), 'arccos': (rtm.acos, 'inexact'),
    'arctan': (rtm.atan, 'inexact'), 'sinh': (rtm.sinh, 'inexact'),
    'cosh': (rtm.cosh, 'inexact'), 'tanh': (rtm.tanh, 'inexact'),
    'arcsinh': (rtm.asinh, 'inexact'), 'arccosh': (rtm.acosh, 'inexact'),
    'arctanh': (rtm.atanh, 'inexact'), 'cbrt': (_cbrt, 'inexact'),
    'deg2rad': (_scaled(np.pi / 180), 'inexact'), 'rad2deg': (_scaled(180 / np.pi), 'inexact'),
    'sinc': (_sinc, 'inexact'), 'floor': (rtm.floor, 'inexact'),
    'ceil': (rtm.ceil, 'inexact'), 'fix': (_fix, 'inexact'),
    'isnan': (rtm.is_nan, 'inexact'), 'isinf': (rtm.is_inf, 'inexact'),
    'isfinite': (rtm.is_finite, 'inexact'), 'isneginf': (_isneginf, 'inexact'),
    'isposinf': (_isposinf, 'inexact'), 'signbit': (_signbit, 'same'),
    'logical_not': (_bool_fn(rtm.logical_not), 'same'),
    'bitwise_not': (_int_or_bool(bitwise.invert, rtm.logical_not), 'same'),
    'conj': (_conj, 'same'),
    'conjugate': (_conj, 'same'), 'iscomplex': (_iscomplex, 'same'),
    'isreal': (_isreal, 'same'),
}

_BINARY = {
    'add': (rtm.add, 'same'), 'subtract': (rtm.subtract, 'same'),
    'multiply': (rtm.multiply, 'same'), 'divide': (_true_divide, 'inexact'),
    'true_divide': (_true_divide, 'inexact'), 'floor_divide': (rtm.floordiv, 'same'),
    'mod': (rtm.mod, 'same'), 'remainder': (rtm.mod, 'same'), 'power': (rtm.pow, 'same'),
    'float_power': (rtm.pow, 'inexact'), 'maximum': (rtm.maximum, 'same'),
    'minimum': (rtm.minimum, 'same'), 'arctan2': (rtm.atan2, 'inexact'),
    'hypot': (_hypot, 'inexact'), 'logaddexp': (_logaddexp, 'inexact'),
    'logaddexp2': (_logaddexp2, 'inexact'), 'heaviside': (_heaviside, 'same'),
    'nextafter': (bitwise.nextafter, 'inexact'),
    'equal': (rtm.equal, 'same'), 'not_equal': (rtm.not_equal, 'same'),
    'greater': (rtm.greater, 'same'), 'greater_equal': (rtm.greater_equal, 'same'),
    'less': (rtm.less, 'same'), 'less_equal': (rtm.less_equal, 'same'),
    'logical_and': (_bool_fn(rtm.logical_and), 'same'),
    'logical_or': (_bool_fn(rtm.logical_or), 'same'),
    'logical_xor': (_bool_fn(rtm.logical_xor), 'same'),
    'bitwise_and': (_int_or_bool(bitwise.bitwise_and, rtm.logical_and), 'same'),
    'bitwise_or': (_int_or_bool(bitwise.bitwise_or, rtm.logical_or), 'same'),
    'bitwise_xor': (_int_or_bool(bitwise.bitwise_xor, rtm.logical_xor), 'same'),
    'matmul': (rt_matmul, 'same'), 'gcd': (_gcd, 'same'), 'lcm': (_lcm, 'same'),
}


def _prepare(operands, how):
    if how == 'inexact':
        return promote(*operands, inexact=True) if len(operands) > 1 else \
            [inexact_operand(operands[0])]
    return promote(*operands) if len(operands) > 1 else [asarray(operands[0])]


def _make_unary(name, fn, how):
    def unary(x):
        return fn(*_prepare((x,), how))
    unary.__name__ = unary.__qualname__ = name
    unary.__doc__ = f'numpy.{name} of a tensor (TensorFlow\'s tf.experimental.numpy.{name}).'
    return unary


def _make_binary(name, fn, how):
    def binary(x1, x2):
        return fn(*_prepare((x1, x2), how))
    binary.__name__ = binary.__qualname__ = name
    binary.__doc__ = f'numpy.{name} of two tensors (TensorFlow\'s tf.experimental.numpy.{name}).'
    return binary


FUNCTIONS = {name: _make_unary(name, fn, how) for name, (fn, how) in _UNARY.items()}
FUNCTIONS.update({name: _make_binary(name, fn, how) for name, (fn, how) in _BINARY.items()})


def divmod(x1, x2):  # noqa: A001 - numpy's name
    """numpy.divmod: (floor_divide, mod) of two tensors."""
    x1, x2 = promote(x1, x2)
    return rtm.floordiv(x1, x2), rtm.mod(x1, x2)


def angle(z, deg=False):
    """numpy.angle: the argument of a complex tensor (0 or pi for real ones)."""
    z = asarray(z)
    if z.dtype.is_complex:
        result = bitwise.angle(z)
    else:
        z = inexact_operand(z)
        result = where(rtm.less(z, 0), zeros_like(z) + np.pi, zeros_like(z))
    return result * np.asarray(180 / np.pi, result.dtype.as_numpy_dtype) if deg else result


def around(a, decimals=0):
    """numpy.around: round half to even, at `decimals` places."""
    a = asarray(a)
    if decimals == 0 or a.dtype.is_integer and decimals > 0:
        return rtm.round(a) if a.dtype.is_floating else a
    if a.dtype.is_integer:
        a = cast(a, dtypes.float64)
        factor = np.asarray(10.0 ** decimals, np.float64)
        return cast(rtm.round(a * factor) / factor, asarray(0).dtype)
    factor = np.asarray(10.0 ** decimals, a.dtype.as_numpy_dtype)
    return rtm.round(a * factor) / factor


def clip(a, a_min, a_max):
    """numpy.clip, with None for an open end."""
    if a_min is None and a_max is None:
        raise ValueError('Not more than one of `a_min` and `a_max` may be `None`.')
    if a_min is None:
        return FUNCTIONS['minimum'](a, a_max)
    if a_max is None:
        return FUNCTIONS['maximum'](a, a_min)
    a, a_min, a_max = promote(a, a_min, a_max)
    return rtm.minimum(rtm.maximum(a, a_min), a_max)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.isclose: |a - b| <= atol + rtol * |b| elementwise."""
    a, b = promote(a, b, inexact=True)
    dtype = a.dtype.as_numpy_dtype
    close = rtm.less_equal(rtm.abs(a - b), np.asarray(atol, dtype) +
                           np.asarray(rtol, dtype) * rtm.abs(b))
    close = rtm.logical_or(close, rtm.equal(a, b))  # equal infinities
    if equal_nan:
        close = rtm.logical_or(close, rtm.logical_and(rtm.is_nan(a), rtm.is_nan(b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.allclose: `isclose` everywhere."""
    return rtm.reduce_all(isclose(a, b, rtol, atol, equal_nan))


def sign(x, out=None, where=None, **kwargs):  # noqa: A002 - numpy's signature
    """numpy.sign (`out` and `where` are not supported, as in TensorFlow)."""
    if out is not None or where is not None or kwargs:
        raise ValueError('tf.numpy doesnt support setting out, where or kwargs.')
    return rtm.sign(asarray(x))


def real(val):
    """numpy.real: the real parts (the tensor itself when it is not complex)."""
    return _real(asarray(val))


def imag(val):
    """numpy.imag: the imaginary parts (zeros when the tensor is not complex)."""
    return _imag(asarray(val))


round = around  # noqa: A001 - numpy's name
