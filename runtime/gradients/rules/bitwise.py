"""The gradients of the ops of runtime/ops/bitwise.py: none for the bitwise ops (integers);
`Real`, `Imag`, `Angle`, `Complex` and `Conj` as TensorFlow's
math_grad.py."""
from runtime.gradients.rules.common import defgradient, not_differentiable, unbroadcast
from runtime.ops import bitwise
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.math import divide, negative

not_differentiable(*bitwise.BINARY_OPS.values(), bitwise.INVERT)


@defgradient(bitwise.REAL)
def _real_grad(op, grad):
    return [bitwise.complex(grad, zeros_like(grad))]


@defgradient(bitwise.IMAG)
def _imag_grad(op, grad):
    return [bitwise.complex(zeros_like(grad), grad)]


@defgradient(bitwise.ANGLE)
def _angle_grad(op, grad):
    z = op.inputs[0]
    turned = bitwise.complex(bitwise.imag(z), bitwise.real(z))
    turned = divide(ones_like(turned), turned)
    return [negative(bitwise.complex(grad, zeros_like(grad)) * turned)]


@defgradient(bitwise.COMPLEX)
def _complex_grad(op, grad):
    return [unbroadcast(bitwise.real(grad), op.inputs[0]),
            unbroadcast(bitwise.imag(grad), op.inputs[1])]


@defgradient(bitwise.CONJ)
def _conj_grad(op, grad):
    return [bitwise.conj(grad)]
