"""`rt.math.special`: TensorFlow's special functions (the Bessel functions, Dawson's integral,
the exponential and Fresnel integrals, Spence's function); runtime/ops/special_more.py and
runtime/ops/special_bessel.py compute them."""
from runtime.ops.special_bessel import (
    bessel_j0,
    bessel_j1,
    bessel_k0,
    bessel_k0e,
    bessel_k1,
    bessel_k1e,
    bessel_y0,
    bessel_y1,
    dawsn,
    expint,
    fresnel_cos,
    fresnel_sin,
    spence,
)
from runtime.ops.special_more import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e

__all__ = ['bessel_i0', 'bessel_i0e', 'bessel_i1', 'bessel_i1e', 'bessel_j0', 'bessel_j1',
           'bessel_k0', 'bessel_k0e', 'bessel_k1', 'bessel_k1e', 'bessel_y0', 'bessel_y1',
           'dawsn', 'expint', 'fresnel_cos', 'fresnel_sin', 'spence']
