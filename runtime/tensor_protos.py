"""`rt.make_tensor_proto` and `rt.make_ndarray`: a value as a TensorProto message and back.

A message is the project's form of a protocol buffer (a dict of its fields, as GraphDefs are
here: runtime/graph/serialization); `make_ndarray` also takes a message's serialized bytes,
as TensorFlow writes them.
"""
import numpy as np

from runtime.core import dtypes
from runtime.core.tensor import Tensor
from runtime.graph.serialization import wire
from runtime.graph.serialization.graph_io import tensor_from_proto, tensor_to_proto
from runtime.ops.convert import convert_to_tensor


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """The TensorProto message of `values` (of `dtype`, the values' own when None): with
    `shape`, a scalar fills it, other values must have its size (and, with `verify_shape`,
    its shape; with `allow_broadcast`, values broadcast to it)."""
    if isinstance(values, Tensor):
        values = values.numpy()
    value = convert_to_tensor(values, dtype).numpy() if not isinstance(values, np.ndarray) \
        else np.asarray(values, dtypes.as_dtype(dtype).np_dtype if dtype is not None else None)
    dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.as_dtype(value.dtype)
    if shape is not None:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape, dtype=np.int64))
        if verify_shape and list(np.shape(value)) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                            f'{np.shape(value)}.')
        if allow_broadcast or np.ndim(value) == 0:
            value = np.broadcast_to(value, shape)
        elif np.size(value) != size:
            raise TypeError(f'Expected {size} elements for shape {shape}, got '
                            f'{np.size(value)}.')
        else:
            value = np.reshape(value, shape)
    return tensor_to_proto(value, dtype)


def make_ndarray(tensor):
    """The numpy array a TensorProto message (or its serialized bytes, or a protobuf object
    that serializes to them) holds."""
    if hasattr(tensor, 'SerializeToString'):
        tensor = tensor.SerializeToString()
    if isinstance(tensor, (bytes, bytearray)):
        tensor = wire.decode('TensorProto', bytes(tensor))
    if not isinstance(tensor, dict):
        raise TypeError(f'make_ndarray needs a TensorProto message, got '
                        f'{type(tensor).__name__}.')
    return np.asarray(tensor_from_proto(tensor))
