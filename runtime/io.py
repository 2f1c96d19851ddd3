"""`rt.io`: of TensorFlow's `tf.io`, `decode_raw` (the rest is out of scope: docs/reference.md)."""
from runtime.ops.string_split import decode_raw

__all__ = ['decode_raw']
