"""Special functions of `rt.math`: `lgamma`, `digamma`, `polygamma` (ops `Lgamma`, `Digamma`,
`Polygamma`), each the next one's derivative, computed in numpy without scipy.

digamma uses the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6 and the asymptotic series
there (reflection for negative x); polygamma(n, x) for n >= 1 is
(-1)^(n+1) n! zeta(n + 1, x), the Hurwitz zeta function summed with Euler-Maclaurin. Both are
accurate to about 1e-14 relative in float64.
"""
import math as pymath

import numpy as np

from runtime.core import dtypes
from runtime.ops.convert import convert_to_tensor, unify_operands
from runtime.ops.dispatch import apply, refused_dtype
from runtime.ops.infer import broadcast, same_as_input
from runtime.ops.registry import register

# Bernoulli numbers B2, B4, ..., B16.
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def digamma64(x):
    x = np.asarray(x, np.float64)
    reflect = x < 0.5  # psi(1 - x) - psi(x) = pi cot(pi x)
    with np.errstate(divide='ignore', invalid='ignore'):
        out = np.where(reflect, -np.pi / np.tan(np.pi * x), 0.0)
    pole = (x <= 0) & (x == np.floor(x))  # the poles 0, -1, ... (and -inf): nan, as TensorFlow
    x = np.where(reflect, 1 - x, x)
    out = np.where(pole, np.nan, out)
    while np.any(x < 6):
        small = x < 6
        out = out - np.where(small, 1 / np.where(small, x, 1), 0)
        x = np.where(small, x + 1, x)
    inv2 = 1 / (x * x)
    series = sum(b / (2 * (k + 1)) * inv2 ** (k + 1) for k, b in enumerate(_BERNOULLI))
    return out + np.log(x) - 0.5 / x - series


def hurwitz_zeta(s, x, n_terms=12):
    """zeta(s, x) = sum_k (x + k)^-s for s > 1, x > 0 (Euler-Maclaurin after `n_terms`)."""
    total = sum((x + k) ** -s for k in range(n_terms))
    a = x + n_terms
    total = total + a ** (1 - s) / (s - 1) + 0.5 * a ** -s
    rising = s  # s (s + 1) ... (s + 2j - 2)
    for j, b in enumerate(_BERNOULLI, start=1):
        total = total + b / pymath.factorial(2 * j) * rising * a ** (-s - 2 * j + 1)
        rising = rising * (s + 2 * j - 1) * (s + 2 * j)
    return total


def _polygamma(n, x):
    n, x = np.broadcast_arrays(np.asarray(n, np.float64), np.asarray(x, np.float64))
    out = np.empty(x.shape)
    for order in np.unique(n):
        at = n == order
        if order == 0:
            out[at] = digamma64(x[at])
        elif order < 0 or order != int(order):
            out[at] = np.nan
        else:
            k = int(order)
            with np.errstate(all='ignore'):
                out[at] = (-1) ** (k + 1) * pymath.factorial(k) * hurwitz_zeta(k + 1.0, x[at])
            # at the poles 0, -1, ... (and -inf): TensorFlow's zeta, inf for an even s = k + 1,
            # nan for an odd one
            pole = at & (x <= 0) & (x == np.floor(x))
            out[pole] = np.inf if k % 2 else np.nan
    return out


def _as(x, fn):
    return np.asarray(fn(), dtype=np.asarray(x).dtype)[()]


def _lgamma(v):
    try:
        return pymath.lgamma(v)
    except (ValueError, OverflowError):  # the poles 0, -1, ... and huge values: inf
        return pymath.inf


def _lgamma_kernel(x):
    return _as(x, lambda: np.frompyfunc(_lgamma, 1, 1)(np.asarray(x, np.float64)))


LGAMMA = register('Lgamma', _lgamma_kernel, same_as_input)
DIGAMMA = register('Digamma', lambda x: _as(x, lambda: digamma64(x)), same_as_input)
POLYGAMMA = register('Polygamma', lambda a, x: _as(x, lambda: _polygamma(a, x)), broadcast,
                     inputs=('a', 'x'), outputs=('z',),
                     dtypes=frozenset((dtypes.float32, dtypes.float64)))  # no float16, as TF


def floating_tensor(x, public_name):
    """`x` as a tensor, refused unless floating (`rt.math.<public_name>` names the caller)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise refused_dtype(f'rt.math.{public_name} needs a floating-point tensor, got '
                            f'{x.dtype.name}.', x)
    return x


def lgamma(x, name=None):
    """log |Gamma(x)| elementwise (op `Lgamma`)."""
    return apply(LGAMMA, [floating_tensor(x, 'lgamma')], name=name)


def digamma(x, name=None):
    """The derivative of lgamma, psi(x) (op `Digamma`)."""
    return apply(DIGAMMA, [floating_tensor(x, 'digamma')], name=name)


def polygamma(a, x, name=None):
    """The `a`-th derivative of digamma at `x` (op `Polygamma`; `a` a whole number >= 0, as a
    float of `x`'s dtype)."""
    (a, x), dtype = unify_operands('Polygamma', a, x)
    if not dtype.is_floating:
        raise refused_dtype(f'rt.math.polygamma needs floating-point operands, got '
                            f'{dtype.name}.', a, x)
    return apply(POLYGAMMA, (a, x), name=name)
