"""Bitwise ops (`tf.bitwise`), the parts of complex numbers (`Real`, `Imag`, `Conj`, `Angle`)
and `NextAfter`: elementwise ops with numpy kernels."""
import numpy as np

from runtime.core import dtypes
from runtime.ops.compare import less, where
from runtime.ops.convert import convert_to_tensor, unify_inputs
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import broadcast, same_as_input
from runtime.ops.registry import Elementwise, register

_INTEGERS = frozenset(d for d in dtypes.PUBLIC if d.is_integer)
_FLOATS = frozenset({dtypes.float32, dtypes.float64})


def _real_infer(inputs, attrs):
    return [(dtypes.float64 if inputs[0].dtype == dtypes.complex128 else dtypes.float32,
             inputs[0].shape)]


def _shift_kernel(shift):
    def kernel(x, y):
        bits = x.dtype.itemsize * 8
        y = np.asarray(y)
        out_of_range = (y < 0) | (y >= bits)
        safe = np.where(out_of_range, 0, y).astype(x.dtype)
        shifted = shift(x, safe)
        if shift is np.left_shift:
            fill = np.zeros((), x.dtype)
        else:
            fill = np.where(x < 0, -1, 0).astype(x.dtype) if x.dtype.kind == 'i' else \
                np.zeros((), x.dtype)
        return np.where(out_of_range, fill, shifted).astype(x.dtype)[()]
    return kernel


_BINARY = {  # public name: (TensorFlow op, kernel, accepted dtypes)
    'bitwise_and': ('BitwiseAnd', np.bitwise_and, _INTEGERS),
    'bitwise_or': ('BitwiseOr', np.bitwise_or, _INTEGERS),
    'bitwise_xor': ('BitwiseXor', np.bitwise_xor, _INTEGERS),
    'left_shift': ('LeftShift', _shift_kernel(np.left_shift), _INTEGERS),
    'right_shift': ('RightShift', _shift_kernel(np.right_shift), _INTEGERS),
    'nextafter': ('NextAfter', np.nextafter, _FLOATS),
}
BINARY_OPS = {name: register(op, kernel, broadcast,
                             inputs=('x1', 'x2') if op == 'NextAfter' else ('x', 'y'),
                             outputs=('output',) if op == 'NextAfter' else ('z',),
                             convert_inputs=unify_inputs, dtypes=allowed,
                             elementwise=None if op.endswith('Shift') else Elementwise.of(kernel))
              for name, (op, kernel, allowed) in _BINARY.items()}
NEXT_AFTER = BINARY_OPS['nextafter']
INVERT = register('Invert', np.invert, same_as_input, dtypes=_INTEGERS, involution=True,
                  elementwise=Elementwise(np.invert))
# Real, Imag, Angle: complex in, real out (attr Tout); Conj keeps the dtype


def _taking_tout(kernel):
    return lambda input, Tout=None: kernel(input)


REAL, IMAG, ANGLE = (register(op, _taking_tout(kernel), _real_infer, inputs=('input',),
                              outputs=('output',))
                     for op, kernel in (('Real', np.real), ('Imag', np.imag),
                                        ('Angle', np.angle)))
CONJ = register('Conj', np.conj, same_as_input, inputs=('input',), outputs=('output',),
                elementwise=Elementwise.of(np.conj))


def _complex_kernel(real, imag, Tout=None):
    return (real + 1j * imag).astype(np.complex128 if real.dtype == np.float64 else np.complex64)


def _complex_infer(inputs, attrs):
    dtype = dtypes.complex128 if inputs[0].dtype == dtypes.float64 else dtypes.complex64
    return [(dtype, broadcast(inputs, attrs)[0][1])]


COMPLEX = register('Complex', _complex_kernel, _complex_infer, inputs=('real', 'imag'),
                   outputs=('out',), convert_inputs=unify_inputs, dtypes=_FLOATS)


def complex(real, imag, name=None):  # noqa: A001 - tf.complex
    """The complex tensor `real + imag * 1j` (op `Complex`; complex128 from float64)."""
    real = convert_to_tensor(real)
    imag = convert_to_tensor(imag, dtype=real.dtype)
    dtype = dtypes.complex128 if real.dtype == dtypes.float64 else dtypes.complex64
    return apply(COMPLEX, (real, imag), {'Tout': dtype}, name=name)


def _binary(public_name):
    opdef = BINARY_OPS[public_name]

    def binary(x, y, name=None):
        return apply(opdef, (x, y), None, name)
    return op_function(binary, public_name, f'Elementwise {public_name} (op `{opdef.name}`).')


bitwise_and = _binary('bitwise_and')
bitwise_or = _binary('bitwise_or')
bitwise_xor = _binary('bitwise_xor')
left_shift = _binary('left_shift')
right_shift = _binary('right_shift')


def nextafter(x1, x2, name=None):
    """The next representable float after `x1` in the direction of `x2`, elementwise (op
    `NextAfter`)."""
    return apply(NEXT_AFTER, (x1, x2), None, name)


def invert(x, name=None):
    """Flips every bit of an integer tensor (op `Invert`)."""
    return apply(INVERT, [convert_to_tensor(x)], name=name)


def _complex_part(opdef, doc, of_real):
    def part(input, name=None):
        input = convert_to_tensor(input)
        if not input.dtype.is_complex:  # TensorFlow's answer for real tensors
            return of_real(input)
        attrs = None if opdef is CONJ else {'Tout': _real_infer([input], {})[0][0]}
        return apply(opdef, [input], attrs, name=name)
    part.__doc__ = doc
    return part


def _real_angle(x):
    return where(less(x, 0), zeros_like(x) + np.asarray(np.pi, x.dtype.as_numpy_dtype),
                 zeros_like(x))


real = _complex_part(REAL, 'The real parts of a tensor (op `Real`; a real tensor itself).',
                     lambda x: x)
imag = _complex_part(IMAG, 'The imaginary parts of a tensor (op `Imag`; zeros for a real one).',
                     zeros_like)
angle = _complex_part(ANGLE, 'The arguments of a tensor (op `Angle`; 0 or pi for a real one).',
                      _real_angle)
_conj = _complex_part(CONJ, 'The complex conjugate (op `Conj`; a real tensor itself).',
                      lambda x: x)


def conj(x, name=None):
    """The complex conjugate (op `Conj`); a real tensor is returned as it is."""
    return _conj(x, name=name)
