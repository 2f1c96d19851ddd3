"""The gradients of the special functions of runtime/ops/special_bessel.py (TensorFlow's
math_grad.py rules, with their conventions at 0)."""
import math as pymath

from runtime.gradients.rules.common import defgradient
from runtime.ops.compare import equal, where
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.math import cos, exp, log, sin, square
from runtime.ops.special_bessel import (
    OPS,
    bessel_j0,
    bessel_j1,
    bessel_k0,
    bessel_k0e,
    bessel_k1,
    bessel_k1e,
    bessel_y0,
    bessel_y1,
)


def _rule(public_name):
    return defgradient(OPS[public_name])


def _x(op):
    return convert_to_tensor(op.inputs[0])


_rule('bessel_j0')(lambda op, grad: [-grad * bessel_j1(_x(op))])
_rule('bessel_y0')(lambda op, grad: [-grad * bessel_y1(_x(op))])
_rule('bessel_k0')(lambda op, grad: [-grad * bessel_k1(_x(op))])
_rule('bessel_k0e')(lambda op, grad: [grad * (op.outputs[0] - bessel_k1e(_x(op)))])
_rule('bessel_y1')(lambda op, grad: [grad * (bessel_y0(_x(op)) - op.outputs[0] / _x(op))])
_rule('bessel_k1')(lambda op, grad: [grad * (-bessel_k0(_x(op)) - op.outputs[0] / _x(op))])
_rule('bessel_k1e')(lambda op, grad: [
    grad * (op.outputs[0] * (1 - 1 / _x(op)) - bessel_k0e(_x(op)))])
_rule('dawsn')(lambda op, grad: [grad * (1 - 2 * _x(op) * op.outputs[0])])
_rule('expint')(lambda op, grad: [grad * exp(_x(op)) / _x(op)])
_rule('fresnel_cos')(lambda op, grad: [grad * cos(pymath.pi / 2 * square(_x(op)))])
_rule('fresnel_sin')(lambda op, grad: [grad * sin(pymath.pi / 2 * square(_x(op)))])


@_rule('bessel_j1')
def _bessel_j1_gradient(op, grad):
    """J1'(x) = J0(x) - J1(x) / x, and 1/2 at 0 (as TensorFlow)."""
    x = _x(op)
    zero = equal(x, zeros_like(x))
    safe = where(zero, ones_like(x), x)
    return [grad * where(zero, 0.5 * ones_like(x), bessel_j0(x) - op.outputs[0] / safe)]


@_rule('spence')
def _spence_gradient(op, grad):
    """log(x) / (1 - x), and -1 at 1 (as TensorFlow)."""
    x = _x(op)
    one = equal(x, ones_like(x))
    safe = where(one, zeros_like(x) + 2, x)
    return [grad * where(one, -ones_like(x), log(safe) / (1 - safe))]
