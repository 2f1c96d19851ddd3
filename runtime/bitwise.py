"""`rt.bitwise`: TensorFlow's `tf.bitwise` (ops `BitwiseAnd`, `BitwiseOr`, `BitwiseXor`,
`Invert`, `LeftShift`, `RightShift`; runtime/ops/bitwise.py)."""
from runtime.ops.bitwise import (
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    invert,
    left_shift,
    right_shift,
)

__all__ = ['bitwise_and', 'bitwise_or', 'bitwise_xor', 'invert', 'left_shift', 'right_shift']
