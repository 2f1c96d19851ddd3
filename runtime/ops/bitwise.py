"""`rt.bitwise`: bitwise and, or, xor, invert and shifts of integer tensors (TensorFlow's ops
`BitwiseAnd`, `BitwiseOr`, `BitwiseXor`, `Invert`, `LeftShift`, `RightShift`; not
differentiable). Shifts by a negative amount or by the bit width or more give what TensorFlow's
kernels give: 0 for a left shift, the sign fill for a right shift.
"""
import numpy as np

from runtime.ops.convert import convert_to_tensor, unify_inputs, unify_operands
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import broadcast, same_as_input
from runtime.ops.registry import Elementwise, register


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


_BINARY = {  # public name: (TensorFlow op, kernel)
    'bitwise_and': ('BitwiseAnd', np.bitwise_and),
    'bitwise_or': ('BitwiseOr', np.bitwise_or),
    'bitwise_xor': ('BitwiseXor', np.bitwise_xor),
    'left_shift': ('LeftShift', _shift_kernel(np.left_shift)),
    'right_shift': ('RightShift', _shift_kernel(np.right_shift)),
}
BINARY_OPS = {name: register(op, kernel, broadcast, inputs=('x', 'y'), outputs=('z',),
                             convert_inputs=unify_inputs,
                             elementwise=Elementwise.of(kernel) if op.startswith('Bitwise')
                             else None)
              for name, (op, kernel) in _BINARY.items()}
INVERT = register('Invert', np.invert, same_as_input, inputs=('x',), outputs=('y',),
                  elementwise=Elementwise.of(np.invert))


def _integers(public_name, dtype):
    if not dtype.is_integer:
        raise TypeError(f'rt.bitwise.{public_name} needs integer operands, got {dtype.name}.')


def _binary(public_name):
    opdef = BINARY_OPS[public_name]

    def binary(x, y, name=None):
        (x, y), dtype = unify_operands(opdef.name, x, y)
        _integers(public_name, dtype)
        return apply(opdef, (x, y), None, name)
    return op_function(binary, public_name, f'Elementwise {public_name} of integers (op '
                                            f'`{opdef.name}`).')


bitwise_and = _binary('bitwise_and')
bitwise_or = _binary('bitwise_or')
bitwise_xor = _binary('bitwise_xor')
left_shift = _binary('left_shift')
right_shift = _binary('right_shift')


def invert(x, name=None):
    """Each bit of the integers of `x` flipped (op `Invert`)."""
    x = convert_to_tensor(x)
    _integers('invert', x.dtype)
    return apply(INVERT, [x], name=name)
