"""`rt.fingerprint` (op Fingerprint): a stable 64-bit fingerprint of each row of a tensor, as
TensorFlow computes it: FarmHash's Fingerprint64 (its "na" 64-bit hash) of the row's bytes
(little-endian values; for strings, of the concatenated fingerprints of the row's strings, or
of the one string of a row of one), written as 8 little-endian bytes.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.farmhash import fingerprint64
from runtime.ops.infer import constant_value
from runtime.ops.registry import register


def _row_bytes(fingerprints):
    return b''.join(f.to_bytes(8, 'little') for f in fingerprints)


def _kernel(data, method):
    method = method.decode() if isinstance(method, bytes) else str(method)
    if method != 'farmhash64':
        raise errors.InvalidArgumentError(message=f'Unsupported fingerprint method: {method}')
    if np.ndim(data) == 0:
        raise errors.InvalidArgumentError(
            message=f'`data` should have at least one dimension: {list(np.shape(data))}')
    rows = np.shape(data)[0]
    out = np.empty((rows, 8), np.uint8)
    if data.dtype == object:  # strings: each string, then each row of several
        flat = data.reshape(rows, -1)
        for r in range(rows):
            prints = [fingerprint64(bytes(v)) for v in flat[r]]
            value = prints[0] if len(prints) == 1 else fingerprint64(_row_bytes(prints))
            out[r] = np.frombuffer(value.to_bytes(8, 'little'), np.uint8)
        return out
    raw = np.ascontiguousarray(data).astype(data.dtype.newbyteorder('<')).reshape(rows, -1)
    for r in range(rows):
        out[r] = np.frombuffer(fingerprint64(raw[r].tobytes()).to_bytes(8, 'little'), np.uint8)
    return out


def _infer(inputs, attrs):
    data, method = inputs
    known = constant_value(method)
    if known is not None and np.ndim(known) == 0 and bytes(known) != b'farmhash64':
        raise ValueError(f'Unsupported method: {bytes(known).decode()}')
    if data.shape.rank == 0:
        raise ValueError(f'`data` should have at least one dimension: {data.shape}')
    first = data.shape[0] if data.shape.rank else None
    return [(dtypes.uint8, TensorShape([first, 8]))]


FINGERPRINT = register('Fingerprint', _kernel, _infer, inputs=('data', 'method'),
                       outputs=('fingerprint',), type_attrs=(('T', 0),))


def fingerprint(data, method='farmhash64', name=None):
    """[rows, 8] uint8: FarmHash's 64-bit fingerprint of each row (first-axis slice) of `data`,
    stable across runs and platforms (op `Fingerprint`)."""
    return apply(FINGERPRINT, [convert_to_tensor(data), convert_to_tensor(method, dtypes.string)],
                 name=name)
