"""The functions of `rt.math.special` beyond the modified Bessel functions of the first kind
(runtime/ops/special_more.py), in numpy without scipy (float64 inside, the result in the
input's dtype): the Bessel functions J0, J1, Y0, Y1, the modified Bessel functions of the
second kind K0, K1 and their exponentially scaled forms, Dawson's integral, the exponential
integral Ei, the Fresnel integrals and Spence's function (ops `BesselJ0`, `BesselJ1`,
`BesselY0`, `BesselY1`, `BesselK0`, `BesselK0e`, `BesselK1`, `BesselK1e`, `Dawsn`, `Expint`,
`FresnelCos`, `FresnelSin`, `Spence`).

Each uses, by range of its argument, a convergent series (small arguments), an integral
representation summed with a Gauss-Legendre rule or the periodic trapezoidal rule (middle
arguments, where series lose digits to cancellation), and its asymptotic expansion (large
arguments, where it is exact to rounding): about 1e-13 relative in float64 away from zeros.
"""
import numpy as np

from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply, refused_dtype
from runtime.ops.infer import same_as_input
from runtime.ops.registry import register
from runtime.ops.special_more import ALL_FLOAT_TYPES, FLOAT_TYPES, bessel_i0_64, bessel_i1_64

EULER = 0.57721566490153286061
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(128)
_FAR = 25.0  # above it the asymptotic expansions are exact to rounding


def _gauss(f, lo, hi):
    """The integral of f over [lo, hi] (arrays of limits) with 128-point Gauss-Legendre."""
    half = (hi - lo)[:, None] / 2
    points = half * _NODES + ((hi + lo) / 2)[:, None]
    return (half[:, 0]) * (f(points) @ _WEIGHTS)


def _by_range(x, parts):
    """out[mask] = fn(x[mask]) for each (mask, fn) of `parts` (later masks win)."""
    out = np.full(x.shape, np.nan)
    for mask, fn in parts:
        if np.any(mask):
            out[mask] = fn(x[mask])
    return out


def _harmonic(k):
    return sum(1.0 / j for j in range(1, k + 1))


def _psi_int(k):
    """digamma at the whole number k >= 1: -gamma + H_(k-1)."""
    return -EULER + _harmonic(k - 1)


def _hankel_pq(order, x, terms=30):
    """The asymptotic P and Q of Hankel's expansion of J_order and Y_order."""
    mu = 4.0 * order * order
    p, q = np.ones_like(x), np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 2 * terms):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        if k % 2:
            q = q + (term if (k // 2) % 2 == 0 else -term)
        else:
            p = p + (term if (k // 2) % 2 == 0 else -term)
    return p, q


def _hankel(order, x, kind):
    p, q = _hankel_pq(order, x)
    chi = x - (2 * order + 1) * np.pi / 4
    scale = np.sqrt(2 / (np.pi * x))
    if kind == 'j':
        return scale * (p * np.cos(chi) - q * np.sin(chi))
    return scale * (p * np.sin(chi) + q * np.cos(chi))


def _j_integral(order, x):
    """J_order(x) = (1/2pi) integral over a period of cos(order t - x sin t): the trapezoidal
    rule, exact to rounding for |x| <= 25 with 64 points."""
    t = np.arange(64) * (2 * np.pi / 64)
    return np.cos(order * t - x[:, None] * np.sin(t)).mean(axis=1)


def bessel_j64(order, x):
    x = np.asarray(x, np.float64)
    ax = np.abs(x)
    out = _by_range(ax, [(ax <= _FAR, lambda v: _j_integral(order, v)),
                         (ax > _FAR, lambda v: _hankel(order, v, 'j'))])
    out[np.isinf(ax)] = np.nan  # as TensorFlow
    return np.where(x < 0, -out, out) if order % 2 else out


def _y_series(order, x):
    """A&S 9.1.11 for Y_0 and Y_1 (x <= 2)."""
    q = -x * x / 4
    total = np.zeros_like(x)
    term = np.ones_like(x) if order == 0 else x / 2
    for k in range(40):
        total = total + (_psi_int(k + 1) + _psi_int(k + order + 1)) * term
        term = term * q / ((k + 1) * (k + 1 + order))
    out = (2 / np.pi) * np.log(x / 2) * bessel_j64(order, x) - total / np.pi
    return out - 2 / (np.pi * x) if order == 1 else out


def _y_integral(order, x):
    """Y_n(x) = (1/pi) int_0^pi sin(x sin t - n t) dt
    - (1/pi) int_0^inf (e^(n t) + (-1)^n e^(-n t)) e^(-x sinh t) dt."""
    zero = np.zeros_like(x)
    first = _gauss(lambda t: np.sin(x[:, None] * np.sin(t) - order * t), zero, zero + np.pi)
    end = np.arcsinh(60 / x) + 1

    def tail(t):
        return (np.exp(order * t) + (-1) ** order * np.exp(-order * t)) * \
            np.exp(-x[:, None] * np.sinh(t))
    return (first - _gauss(tail, zero, end)) / np.pi


def bessel_y64(order, x):
    x = np.asarray(x, np.float64)
    out = _by_range(x, [((x > 0) & (x <= 2), lambda v: _y_series(order, v)),
                        ((x > 2) & (x <= _FAR), lambda v: _y_integral(order, v)),
                        (x > _FAR, lambda v: _hankel(order, v, 'y'))])
    out[x <= 0] = -np.inf  # as TensorFlow, below 0 too
    out[x == np.inf] = np.nan
    return out


def _k_series_scaled(order, x):
    """e^x K_order(x) from A&S 9.6.11 (x <= 2)."""
    q = x * x / 4
    total = np.zeros_like(x)
    term = np.ones_like(x) if order == 0 else x / 2
    for k in range(40):
        total = total + (_psi_int(k + 1) + _psi_int(k + order + 1)) * term
        term = term * q / ((k + 1) * (k + 1 + order))
    if order == 0:
        out = -np.log(x / 2) * bessel_i0_64(x) + total / 2
    else:
        out = 1 / x + np.log(x / 2) * bessel_i1_64(x) - total / 2
    return out * np.exp(x)


def _k_integral_scaled(order, x):
    """e^x K_n(x) = int_0^inf e^(-x (cosh t - 1)) cosh(n t) dt."""
    zero = np.zeros_like(x)
    end = np.arccosh(np.maximum(1 + 60 / x, 1.0)) + 0.5
    return _gauss(lambda t: np.exp(-x[:, None] * (np.cosh(t) - 1)) * np.cosh(order * t),
                  zero, end)


def _k_asymptotic_scaled(order, x, terms=40):
    mu = 4.0 * order * order
    total, term = np.ones_like(x), np.ones_like(x)
    for k in range(1, terms):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        total = total + term
    return np.sqrt(np.pi / (2 * x)) * total


def bessel_ke64(order, x):
    """e^x K_order(x): inf at 0 and below (as TensorFlow)."""
    x = np.asarray(x, np.float64)
    out = _by_range(x, [((x > 0) & (x <= 2), lambda v: _k_series_scaled(order, v)),
                        ((x > 2) & (x <= _FAR), lambda v: _k_integral_scaled(order, v)),
                        (x > _FAR, lambda v: _k_asymptotic_scaled(order, v))])
    out[x <= 0] = np.inf
    out[x == np.inf] = 0.0
    return out


def bessel_k64(order, x):
    x = np.asarray(x, np.float64)
    return bessel_ke64(order, x) * np.exp(-x)


def dawsn64(x):
    """Dawson's integral e^(-x^2) int_0^x e^(t^2) dt (odd)."""
    x = np.asarray(x, np.float64)
    ax = np.abs(x)

    def near(v):
        zero = np.zeros_like(v)
        return v * _gauss(lambda s: np.exp(v[:, None] ** 2 * (s * s - 1)), zero, zero + 1)

    def far(v):  # 1/(2x) sum_k (2k - 1)!! / (2x^2)^k
        total, term = np.ones_like(v), np.ones_like(v)
        for k in range(1, 30):
            term = term * (2 * k - 1) / (2 * v * v)
            total = total + term
        return total / (2 * v)
    out = _by_range(ax, [(ax <= 6, near), (ax > 6, far)])
    out[np.isinf(ax)] = 0.0
    return np.where(x < 0, -out, out)


def expint64(x):
    """The exponential integral Ei(x) for x > 0; -inf at 0, nan below (as TensorFlow)."""
    x = np.asarray(x, np.float64)

    def series(v):
        total, term = np.zeros_like(v), np.ones_like(v)
        for k in range(1, 400):
            term = term * v / k
            total = total + term / k
            if np.all(term / k <= 1e-17 * total):
                break
        return EULER + np.log(v) + total

    def asymptotic(v):
        total, term = np.ones_like(v), np.ones_like(v)
        for k in range(1, 40):
            term = term * k / v
            total = total + term
        with np.errstate(over='ignore'):
            return np.exp(v) / v * total
    out = _by_range(x, [((x > 0) & (x <= 40), series), (x > 40, asymptotic)])
    out[x == 0] = -np.inf
    return out


def _fresnel(x, kind):
    x = np.asarray(x, np.float64)
    ax = np.abs(x)

    def near(v):
        zero = np.zeros_like(v)
        wave = np.cos if kind == 'cos' else np.sin
        return v * _gauss(lambda s: wave(np.pi / 2 * (v[:, None] * s) ** 2), zero, zero + 1)

    def far(v):  # A&S 7.3.9-10 with the asymptotic f and g of 7.3.27-28
        z = np.pi * v * v
        f, g = np.ones_like(v), np.ones_like(v) / z
        term_f, term_g = np.ones_like(v), np.ones_like(v) / z
        for m in range(1, 12):
            term_f = -term_f * (4 * m - 3) * (4 * m - 1) / (z * z)
            term_g = -term_g * (4 * m - 1) * (4 * m + 1) / (z * z)
            f, g = f + term_f, g + term_g
        f, g = f / (np.pi * v), g / (np.pi * v)
        phase = np.pi / 2 * v * v
        if kind == 'cos':
            return 0.5 + f * np.sin(phase) - g * np.cos(phase)
        return 0.5 - f * np.cos(phase) - g * np.sin(phase)
    out = _by_range(ax, [(ax <= 5, near), (ax > 5, far)])
    out[ax > 36974.0] = 0.5  # TensorFlow's (Cephes') cut-off
    return np.where(x < 0, -out, out)


def fresnel_cos64(x):
    return _fresnel(x, 'cos')


def fresnel_sin64(x):
    return _fresnel(x, 'sin')


def _dilog_series(z):
    """Li2(z) = sum_k z^k / k^2 for |z| <= 1/2."""
    total, power = np.zeros_like(z), np.ones_like(z)
    for k in range(1, 60):
        power = power * z
        total = total + power / (k * k)
    return total


def _dilog_unit(z):
    """Li2(z) for z in [-1/2, 1]: the series, or its reflection for z > 1/2."""
    out = np.empty_like(z)
    low = z <= 0.5
    out[low] = _dilog_series(z[low])
    high = ~low
    zh = z[high]
    with np.errstate(divide='ignore', invalid='ignore'):
        out[high] = np.pi ** 2 / 6 - np.where(zh == 1, 0.0, np.log(zh) * np.log1p(-zh)) - \
            _dilog_series(1 - zh)
    return out


def spence64(x):
    """Spence's function int_1^x log(t) / (1 - t) dt = Li2(1 - x), x >= 0 (nan below)."""
    x = np.asarray(x, np.float64)

    def near(v):  # 1 - x in [-1/2, 1]
        return _dilog_unit(1 - v)

    def far(v):  # Li2(z) = -Li2(z / (z - 1)) - log(1 - z)^2 / 2 for z = 1 - x < -1/2
        return -_dilog_unit((v - 1) / v) - np.log(v) ** 2 / 2
    out = _by_range(x, [((x >= 0) & (x <= 1.5), near), (x > 1.5, far)])
    return out


# ---- the ops and their functions -----------------------------------------------------------

def _kernel(fn):
    def kernel(x):
        with np.errstate(all='ignore'):
            out = fn(np.asarray(x, np.float64))
        return np.asarray(out, dtype=np.asarray(x).dtype)[()]
    return kernel


def _y1_narrow(x):
    """Y1 as TensorFlow's float16/float32 kernel has it: nan at 0 (float64's is -inf)."""
    out = np.asarray(_kernel(lambda v: bessel_y64(1, v))(x))
    if out.dtype != np.float64:
        out = np.where(np.asarray(x) == 0, np.nan, out).astype(out.dtype)
    return out[()]


_TABLE = {  # public name: (op, float64 function)
    'bessel_j0': ('BesselJ0', lambda x: bessel_j64(0, x)),
    'bessel_j1': ('BesselJ1', lambda x: bessel_j64(1, x)),
    'bessel_y0': ('BesselY0', lambda x: bessel_y64(0, x)),
    'bessel_y1': ('BesselY1', lambda x: bessel_y64(1, x)),
    'bessel_k0': ('BesselK0', lambda x: bessel_k64(0, x)),
    'bessel_k0e': ('BesselK0e', lambda x: bessel_ke64(0, x)),
    'bessel_k1': ('BesselK1', lambda x: bessel_k64(1, x)),
    'bessel_k1e': ('BesselK1e', lambda x: bessel_ke64(1, x)),
    'dawsn': ('Dawsn', dawsn64),
    'expint': ('Expint', expint64),
    'fresnel_cos': ('FresnelCos', fresnel_cos64),
    'fresnel_sin': ('FresnelSin', fresnel_sin64),
    'spence': ('Spence', spence64),
}
OPS = {name: register(op, _y1_narrow if op == 'BesselY1' else _kernel(fn), same_as_input,
                      dtypes=FLOAT_TYPES if op in ('Dawsn', 'Expint', 'FresnelCos',
                                                   'FresnelSin', 'Spence') else ALL_FLOAT_TYPES)
       for name, (op, fn) in _TABLE.items()}


def _function(public_name):
    opdef = OPS[public_name]

    def function(x, name=None):
        x = convert_to_tensor(x)
        if not x.dtype.is_floating:
            raise refused_dtype(f'rt.math.special.{public_name} needs a floating-point tensor, '
                                f'got {x.dtype.name}.', x)
        return apply(opdef, [x], name=name)
    function.__name__ = function.__qualname__ = public_name
    function.__doc__ = f'Elementwise {public_name} (op `{opdef.name}`).'
    return function


bessel_j0, bessel_j1 = _function('bessel_j0'), _function('bessel_j1')
bessel_y0, bessel_y1 = _function('bessel_y0'), _function('bessel_y1')
bessel_k0, bessel_k0e = _function('bessel_k0'), _function('bessel_k0e')
bessel_k1, bessel_k1e = _function('bessel_k1'), _function('bessel_k1e')
dawsn, expint = _function('dawsn'), _function('expint')
fresnel_cos, fresnel_sin = _function('fresnel_cos'), _function('fresnel_sin')
spence = _function('spence')

__all__ = ['bessel_j0', 'bessel_j1', 'bessel_k0', 'bessel_k0e', 'bessel_k1', 'bessel_k1e',
           'bessel_y0', 'bessel_y1', 'dawsn', 'expint', 'fresnel_cos', 'fresnel_sin', 'spence']
