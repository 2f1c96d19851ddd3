"""More special functions of `rt.math`, computed in numpy without scipy (float64 inside, the
result in the input's dtype): the inverse error functions (`Erfinv`, `Ndtri`), the regularized
incomplete gamma and beta functions (`Igamma`, `Igammac`, `Betainc`), the exponentially scaled
and plain modified Bessel functions of order 0 and 1 (`BesselI0`, `BesselI0e`, `BesselI1`,
`BesselI1e`) and the Hurwitz zeta function (`Zeta`).

erfinv and ndtri refine a starting guess with Newton steps on `math.erf`/`math.erfc` (on erfc
in the tails, where its relative accuracy holds); igamma uses the power series below x = a + 1
and Legendre's continued fraction above; betainc the continued fraction of Numerical Recipes
on whichever side of the mean converges; the Bessel functions their power series below |x| = 30
and their asymptotic expansion above. All are accurate to about 1e-13 relative in float64.
"""
import math as pymath

import numpy as np

from runtime.core import dtypes
from runtime.ops.convert import convert_to_tensor, unify_operands
from runtime.ops.dispatch import apply, refused_dtype
from runtime.ops.infer import broadcast, broadcast_shape, same_as_input
from runtime.ops.registry import register
from runtime.ops.special import digamma64, floating_tensor, hurwitz_zeta

FLOAT_TYPES = frozenset((dtypes.float32, dtypes.float64))
ALL_FLOAT_TYPES = FLOAT_TYPES | {dtypes.float16}
_erf = np.frompyfunc(pymath.erf, 1, 1)
_erfc = np.frompyfunc(pymath.erfc, 1, 1)
_lgamma = np.frompyfunc(lambda v: pymath.lgamma(v) if v > 0 else pymath.inf, 1, 1)
_TWO_OVER_SQRT_PI = 2 / pymath.sqrt(pymath.pi)


def _f64(fn):
    return lambda v: np.asarray(fn(v), np.float64)


erf64, erfc64, lgamma64 = _f64(_erf), _f64(_erfc), _f64(_lgamma)


def _in_dtype(like, fn):
    """A kernel: `fn` on float64 copies of the operands, the result in the first's dtype."""
    def kernel(*args):
        with np.errstate(all='ignore'):
            out = fn(*np.broadcast_arrays(*(np.asarray(a, np.float64) for a in args)))
        return np.asarray(out, dtype=np.asarray(args[like]).dtype)[()]
    return kernel


# ---- inverse error functions --------------------------------------------------------------------

def erfcinv64(z):
    """y with erfc(y) = z, for z in (0, 2); 0 -> inf, 2 -> -inf, outside: nan."""
    z = np.asarray(z, np.float64)
    upper = z > 1  # erfc(-y) = 2 - erfc(y)
    w = np.where(upper, 2 - z, z)
    ok = (w > 0) & (w <= 1)
    w = np.where(ok, w, 0.5)
    t = np.sqrt(-np.log(w))  # a start: the asymptotic erfc(y) ~ exp(-y^2) / (y sqrt(pi))
    y = np.where(w < 0.3, t - np.log(np.maximum(t, 0.5) * pymath.sqrt(pymath.pi)) / (2 * t),
                 (1 - w) * pymath.sqrt(pymath.pi) / 2)
    for _ in range(60):  # Newton on log erfc(y) = log w (on erfc(y) = w near 1)
        e = erfc64(y)
        slope = -_TWO_OVER_SQRT_PI * np.exp(-y * y)
        step = np.where(w < 0.3, (np.log(e) - np.log(w)) * e / slope, (e - w) / slope)
        y = y - step
        if np.all(np.abs(step) <= 1e-16 * np.maximum(np.abs(y), 1e-300)):
            break
    y = np.where(upper, -y, y)
    y = np.where(z == 0, np.inf, np.where(z == 2, -np.inf, y))
    return np.where(ok | (z == 0) | (z == 2), y, np.nan)


def erfinv64(x):
    """y with erf(y) = x, for x in [-1, 1] (+-1: +-inf, outside: nan)."""
    x = np.asarray(x, np.float64)
    small = np.abs(x) < 0.5
    xs = np.where(small, x, 0.0)
    y = xs * pymath.sqrt(pymath.pi) / 2 * (1 + pymath.pi / 12 * xs * xs)
    for _ in range(30):  # Newton on erf(y) = x, where erf's absolute accuracy is enough
        step = (erf64(y) - xs) / (_TWO_OVER_SQRT_PI * np.exp(-y * y))
        y = y - step
        if np.all(np.abs(step) <= 1e-17 * np.maximum(np.abs(y), 1e-300)):
            break
    with np.errstate(invalid='ignore'):
        tail = np.sign(x) * erfcinv64(1 - np.abs(x))  # 1 - |x| is exact for |x| >= 0.5
    return np.where(small, y, np.where(np.abs(x) > 1, np.nan, tail))


def ndtri64(p):
    """The standard normal quantile: sqrt(2) erfinv(2p - 1), from erfc in both tails."""
    p = np.asarray(p, np.float64)
    low = -pymath.sqrt(2) * erfcinv64(2 * p)
    high = pymath.sqrt(2) * erfcinv64(2 * (1 - p))  # 1 - p is exact for p >= 0.5
    out = np.where(p < 0.5, low, high)
    return np.where((p < 0) | (p > 1), np.nan, out)


# ---- incomplete gamma ---------------------------------------------------------------------------

def _igamma_series(a, x):
    """P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n))."""
    term = np.ones_like(x)
    total = np.ones_like(x)
    n = 0
    while True:
        n += 1
        term = term * x / (a + n)
        total = total + term
        if np.all(np.abs(term) <= 1e-17 * np.abs(total)) or n > 5000:
            break
    return total * np.exp(a * np.log(x) - x - lgamma64(a + 1))


def _igammac_fraction(a, x):
    """Q(a, x) by Legendre's continued fraction (modified Lentz)."""
    tiny = 1e-300
    b = x + 1 - a
    c = np.full_like(x, 1 / tiny)
    d = 1 / b
    h = d
    for i in range(1, 5000):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1 / d
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1) <= 1e-15):
            break
    return np.exp(a * np.log(x) - x - lgamma64(a)) * h


def igamma_pair(a, x):
    """(P(a, x), Q(a, x)), each computed where it is accurate and the other as 1 - it; nan for
    a <= 0 or x < 0 (P(a, 0) = 0), as TensorFlow."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    bad = ~(((a > 0) & (x >= 0)) | ((a >= 0) & (x == 0)))
    series = (x < a + 1) & ~bad & (x > 0)
    fraction = (x >= a + 1) & ~bad & np.isfinite(x)
    p = np.zeros(a.shape)
    q = np.ones(a.shape)
    if series.any():
        p[series] = _igamma_series(a[series], x[series])
        q[series] = 1 - p[series]
    if fraction.any():
        q[fraction] = _igammac_fraction(a[fraction], x[fraction])
        p[fraction] = 1 - q[fraction]
    infinite = (x == np.inf) & (a > 0)
    p[infinite], q[infinite] = 1.0, 0.0
    p[bad], q[bad] = np.nan, np.nan
    q[(a == 0) & (x == 0)] = np.nan  # TensorFlow's igammac(0, 0); its igamma(0, 0) is 0
    return p, q


def igamma64(a, x):
    return igamma_pair(a, x)[0]


def igammac64(a, x):
    return igamma_pair(a, x)[1]


def _series_grad_a(a, x):
    """dP/da from the power series, differentiated term by term."""
    term = np.ones_like(x)
    harmonic = np.zeros_like(x)  # sum_k 1 / (a + k): d log(term) / da = -harmonic
    total, dtotal = np.ones_like(x), np.zeros_like(x)
    for n in range(1, 5000):
        term = term * x / (a + n)
        harmonic = harmonic + 1 / (a + n)
        total = total + term
        dtotal = dtotal - term * harmonic
        if np.all(np.abs(term) * np.maximum(harmonic, 1) <= 1e-17 * np.abs(total)):
            break
    front = np.exp(a * np.log(x) - x - lgamma64(a + 1))
    return front * (total * (np.log(x) - digamma64(a + 1)) + dtotal)


def _fraction_grad_a(a, x):
    """dP/da = -dQ/da from Legendre's continued fraction, carried with its derivative in a
    (forward mode through the Lentz recurrence)."""
    tiny = 1e-300
    b, db = x + 1 - a, -np.ones_like(x)
    c, dc = np.full_like(x, 1 / tiny), np.zeros_like(x)
    d = 1 / b
    dd = -db * d * d
    h, dh = d, dd
    for i in range(1, 5000):
        an, dan = -i * (i - a), i
        b = b + 2
        big_d = an * d + b
        dbig_d = dan * d + an * dd + db
        big_d = np.where(np.abs(big_d) < tiny, tiny, big_d)
        big_c = b + an / c
        dbig_c = db + (dan * c - an * dc) / (c * c)
        big_c = np.where(np.abs(big_c) < tiny, tiny, big_c)
        d, dd = 1 / big_d, -dbig_d / (big_d * big_d)
        c, dc = big_c, dbig_c
        delta, ddelta = d * c, dd * c + d * dc
        h, dh = h * delta, dh * delta + h * ddelta
        if np.all((np.abs(delta - 1) <= 1e-15) & (np.abs(h * ddelta) <= 1e-16 * np.abs(dh))):
            break
    front = np.exp(a * np.log(x) - x - lgamma64(a))
    return -(front * h * (np.log(x) - digamma64(a)) + front * dh)


def igamma_grad_a64(a, x):
    """dP(a, x)/da (TensorFlow's IgammaGradA): the series' derivative below x = a + 1, the
    continued fraction's above; 0 at x = 0 and x = inf, nan where P is."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    bad = ~(((a > 0) & (x >= 0)) | ((a >= 0) & (x == 0)))
    series = (x < a + 1) & ~bad & (x > 0)
    fraction = (x >= a + 1) & ~bad & np.isfinite(x)
    out = np.zeros(a.shape)
    if series.any():
        out[series] = _series_grad_a(a[series], x[series])
    if fraction.any():
        out[fraction] = _fraction_grad_a(a[fraction], x[fraction])
    out[bad] = np.nan
    return out


def igammainv64(a, p):
    """x with P(a, x) = p (a > 0, p in [0, 1]): Numerical Recipes' start, then Halley steps on
    P (on Q above the median, where 1 - p is the accurate side)."""
    a, p = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(p, np.float64))
    shape = a.shape
    a1 = a - 1
    gln = lgamma64(a)
    pp = np.where(p < 0.5, p, 1 - p)
    t = np.sqrt(-2 * np.log(np.maximum(pp, 1e-300)))
    z = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t
    z = np.where(p < 0.5, -z, z)
    big = np.maximum(a * (1 - 1 / (9 * a) - z / (3 * np.sqrt(a))) ** 3, 1e-3)
    t0 = 1 - a * (0.253 + a * 0.12)
    small = np.where(p < t0, (np.maximum(p, 1e-300) / np.maximum(t0, 1e-300)) ** (1 / a),
                     1 - np.log(np.maximum(1 - (p - t0) / (1 - t0), 1e-300)))
    x = np.where(a > 1, big, small).ravel().copy()
    a, a1, gln, p = a.ravel(), a1.ravel(), gln.ravel(), p.ravel()
    active = np.flatnonzero((a > 0) & (p > 0) & (p < 1) & np.isfinite(x))
    for _ in range(60):  # the elements not converged yet
        if active.size == 0:
            break
        xa, aa, pa = x[active], a[active], p[active]
        lower, upper = igamma_pair(aa, xa)
        err = np.where(pa < 0.5, lower - pa, (1 - pa) - upper)
        u = err / np.maximum(np.exp(a1[active] * np.log(xa) - xa - gln[active]), 1e-300)
        step = u / (1 - 0.5 * np.minimum(1.0, u * (a1[active] / xa - 1)))
        x_new = np.where(xa - step <= 0, 0.5 * xa, xa - step)
        x[active] = x_new
        active = active[np.abs(x_new - xa) > 1e-15 * x_new]
    x = x.reshape(shape)
    a, p = a.reshape(shape), p.reshape(shape)
    x = np.where(p == 0, 0.0, np.where(p == 1, np.inf, x))
    return np.where((a > 0) & (p >= 0) & (p <= 1), x, np.nan)


# ---- incomplete beta ----------------------------------------------------------------------------

def _beta_fraction(a, b, x):
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c = np.ones_like(x)
    d = 1 - qab * x / qap
    d = 1 / np.where(np.abs(d) < tiny, tiny, d)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / np.where(np.abs(d) < tiny, tiny, d)
        c = 1 + aa / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        h = h * d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / np.where(np.abs(d) < tiny, tiny, d)
        c = 1 + aa / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        delta = d * c
        h = h * delta
        if np.all(np.abs(delta - 1) <= 1e-15):
            break
    return h


def betainc64(a, b, x):
    """The regularized incomplete beta function I_x(a, b); nan for a <= 0, b <= 0 or x
    outside [0, 1], as TensorFlow."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    bad = ~((a > 0) & (b > 0) & (x >= 0) & (x <= 1))
    inner = ~bad & (x > 0) & (x < 1)
    out = np.where(x >= 1, 1.0, 0.0)
    if inner.any():
        ai, bi, xi = a[inner], b[inner], x[inner]
        log_front = (ai * np.log(xi) + bi * np.log1p(-xi) - lgamma64(ai) - lgamma64(bi)
                     + lgamma64(ai + bi))
        direct = xi < (ai + 1) / (ai + bi + 2)
        aa, bb = np.where(direct, ai, bi), np.where(direct, bi, ai)
        xx = np.where(direct, xi, 1 - xi)
        value = np.exp(log_front) * _beta_fraction(aa, bb, xx) / aa
        out[inner] = np.where(direct, value, 1 - value)
    return np.where(bad, np.nan, out)


# ---- modified Bessel functions of order 0 and 1 ----------------------------------------------

def _bessel_ie(order, x):
    """exp(-|x|) I_order(|x|) for order 0 or 1."""
    ax = np.abs(np.asarray(x, np.float64))
    near = ax < 30
    out = np.empty(ax.shape)
    if near.any():  # sum_k (x/2)^(2k + order) / (k! (k + order)!), all terms positive
        v = ax[near]
        q = v * v / 4
        term = (v / 2) ** order / pymath.factorial(order)
        total = term.copy()
        for k in range(1, 200):
            term = term * q / (k * (k + order))
            total = total + term
            if np.all(term <= 1e-17 * total):
                break
        out[near] = total * np.exp(-v)
    far = ~near
    if far.any():  # 1/sqrt(2 pi x) sum_k (-1)^k prod_j (4 n^2 - (2j - 1)^2) / (k! (8x)^k)
        v = ax[far]
        mu = 4.0 * order * order
        term = np.ones_like(v)
        total = term.copy()
        for k in range(1, 40):
            term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * v)
            total = total + term
        out[far] = total / np.sqrt(2 * np.pi * v)
    return out


def bessel_i0e64(x):
    return _bessel_ie(0, x)


def bessel_i1e64(x):
    x = np.asarray(x, np.float64)
    return np.sign(x) * _bessel_ie(1, x)


def bessel_i0_64(x):
    x = np.asarray(x, np.float64)
    return _bessel_ie(0, x) * np.exp(np.abs(x))


def bessel_i1_64(x):
    x = np.asarray(x, np.float64)
    return np.sign(x) * _bessel_ie(1, x) * np.exp(np.abs(x))


# ---- Hurwitz zeta -------------------------------------------------------------------------------

def zeta64(x, q):
    """sum_k (q + k)^-x: inf at x = 1, nan for x < 1; at q <= 0, nan where x is not a whole
    number, and where q is one, inf for an even x and nan for an odd one (as TensorFlow)."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    out = np.full(x.shape, np.nan)
    good = (x > 1) & ((q > 0) | (x == np.floor(x)))
    if good.any():
        out[good] = hurwitz_zeta(x[good], q[good])
    pole = (x > 1) & (q <= 0) & (q == np.floor(q))  # TensorFlow's: inf for an even x, else nan
    out[pole] = np.where(x[pole] % 2 == 0, np.inf, np.nan)
    out[x == 1] = np.inf
    return out


# ---- the ops --------------------------------------------------------------------------------

def _unary_op(name, fn, types=ALL_FLOAT_TYPES):
    return register(name, _in_dtype(0, fn), same_as_input, dtypes=frozenset(types))


ERFINV = _unary_op('Erfinv', erfinv64, FLOAT_TYPES)
NDTRI = _unary_op('Ndtri', ndtri64, FLOAT_TYPES)
BESSEL_I0 = _unary_op('BesselI0', bessel_i0_64)
BESSEL_I0E = _unary_op('BesselI0e', bessel_i0e64)
BESSEL_I1 = _unary_op('BesselI1', bessel_i1_64)
BESSEL_I1E = _unary_op('BesselI1e', bessel_i1e64)
IGAMMA = register('Igamma', _in_dtype(0, igamma64), broadcast, inputs=('a', 'x'),
                  outputs=('z',), dtypes=ALL_FLOAT_TYPES)
IGAMMAC = register('Igammac', _in_dtype(0, igammac64), broadcast, inputs=('a', 'x'),
                   outputs=('z',), dtypes=ALL_FLOAT_TYPES)
IGAMMA_GRAD_A = register('IgammaGradA', _in_dtype(0, igamma_grad_a64), broadcast,
                         inputs=('a', 'x'), outputs=('z',), dtypes=FLOAT_TYPES)
ZETA = register('Zeta', _in_dtype(0, zeta64), broadcast, inputs=('x', 'q'), outputs=('z',),
                dtypes=FLOAT_TYPES)


def _broadcast3(inputs, attrs):
    a, b, x = (t.shape for t in inputs)
    return [(inputs[0].dtype, broadcast_shape(broadcast_shape(a, b), x))]


BETAINC = register('Betainc', _in_dtype(0, betainc64), _broadcast3, inputs=('a', 'b', 'x'),
                   outputs=('z',), dtypes=FLOAT_TYPES)


# ---- the public functions ---------------------------------------------------------------------

def _floats(op_name, public_name, *operands):
    operands, dtype = unify_operands(op_name, *operands)
    if not dtype.is_floating:
        raise refused_dtype(f'rt.math.{public_name} needs floating-point operands, got '
                            f'{dtype.name}.', *operands)
    return operands


def erfinv(x, name=None):
    """The inverse of erf: y with erf(y) = x, for x in [-1, 1] (op `Erfinv`)."""
    return apply(ERFINV, [floating_tensor(x, 'erfinv')], name=name)


def ndtri(x, name=None):
    """The standard normal distribution's quantile function (op `Ndtri`)."""
    return apply(NDTRI, [floating_tensor(x, 'ndtri')], name=name)


def erfcinv(x, name=None):
    """The inverse of erfc, as TensorFlow computes it: -ndtri(x / 2) / sqrt(2)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:  # TensorFlow's `0.5 * x` fails first, with a TypeError
        raise TypeError(f'rt.math.erfcinv needs a floating-point tensor, got {x.dtype.name}.')
    return -ndtri(0.5 * x) * np.asarray(pymath.sqrt(0.5), x.dtype.np_dtype)


def bessel_i0(x, name=None):
    """The modified Bessel function of the first kind of order 0 (op `BesselI0`)."""
    return apply(BESSEL_I0, [floating_tensor(x, 'bessel_i0')], name=name)


def bessel_i0e(x, name=None):
    """exp(-|x|) bessel_i0(x) (op `BesselI0e`)."""
    return apply(BESSEL_I0E, [floating_tensor(x, 'bessel_i0e')], name=name)


def bessel_i1(x, name=None):
    """The modified Bessel function of the first kind of order 1 (op `BesselI1`)."""
    return apply(BESSEL_I1, [floating_tensor(x, 'bessel_i1')], name=name)


def bessel_i1e(x, name=None):
    """exp(-|x|) bessel_i1(x) (op `BesselI1e`)."""
    return apply(BESSEL_I1E, [floating_tensor(x, 'bessel_i1e')], name=name)


def igamma(a, x, name=None):
    """The lower regularized incomplete gamma function P(a, x) (op `Igamma`)."""
    return apply(IGAMMA, _floats('Igamma', 'igamma', a, x), name=name)


def igammac(a, x, name=None):
    """The upper regularized incomplete gamma function Q(a, x) = 1 - P(a, x) (op `Igammac`)."""
    return apply(IGAMMAC, _floats('Igammac', 'igammac', a, x), name=name)


def igamma_grad_a(a, x, name=None):
    """d igamma(a, x) / da (op `IgammaGradA`)."""
    return apply(IGAMMA_GRAD_A, _floats('IgammaGradA', 'igamma_grad_a', a, x), name=name)


def zeta(x, q, name=None):
    """The Hurwitz zeta function sum_k (q + k)^-x (op `Zeta`)."""
    return apply(ZETA, _floats('Zeta', 'zeta', x, q), name=name)


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b) (op `Betainc`)."""
    return apply(BETAINC, _floats('Betainc', 'betainc', a, b, x), name=name)
