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
from runtime.ops.infer import constant_value
from runtime.ops.registry import register

_MASK = (1 << 64) - 1
_K0, _K1, _K2 = 0xc3a5c85c97cb3127, 0xb492b66fbe98f273, 0x9ae16a3b2f90404f


def _fetch64(s, i):
    return int.from_bytes(s[i:i + 8], 'little')


def _fetch32(s, i):
    return int.from_bytes(s[i:i + 4], 'little')


def _rotate(value, shift):
    """Right rotation of a 64-bit value."""
    return value if shift == 0 else ((value >> shift) | (value << (64 - shift))) & _MASK


def _shift_mix(value):
    return value ^ (value >> 47)


def _hash16(u, v, mul):
    a = ((u ^ v) * mul) & _MASK
    a ^= a >> 47
    b = ((v ^ a) * mul) & _MASK
    b ^= b >> 47
    return (b * mul) & _MASK


def _hash_0_to_16(s, n):
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & _MASK
        b = _fetch64(s, n - 8)
        c = (_rotate(b, 37) * mul + a) & _MASK
        d = ((_rotate(a, 25) + b) * mul) & _MASK
        return _hash16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _hash16((n + (_fetch32(s, 0) << 3)) & _MASK, _fetch32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _MASK) * _K2) & _MASK
    return _K2


def _hash_17_to_32(s, n):
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _MASK
    d = (_fetch64(s, n - 16) * _K2) & _MASK
    return _hash16((_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK,
                   (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)


def _hash_33_to_64(s, n):
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & _MASK
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _MASK
    d = (_fetch64(s, n - 16) * _K2) & _MASK
    y = (_rotate((a + b) & _MASK, 43) + _rotate(c, 30) + d) & _MASK
    z = _hash16(y, (a + _rotate((b + _K2) & _MASK, 18) + c) & _MASK, mul)
    e = (_fetch64(s, 16) * mul) & _MASK
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _MASK
    h = ((z + _fetch64(s, n - 24)) * mul) & _MASK
    return _hash16((_rotate((e + f) & _MASK, 43) + _rotate(g, 30) + h) & _MASK,
                   (e + _rotate((f + a) & _MASK, 18) + g) & _MASK, mul)


def _weak_hash_32(s, i, a, b):
    """(a', b'): FarmHash's quick 16-byte hash of s[i:i + 32] with the seeds a and b."""
    w, x, y, z = (_fetch64(s, i + 8 * k) for k in range(4))
    a = (a + w) & _MASK
    b = _rotate((b + a + z) & _MASK, 21)
    c = a
    a = (a + x + y) & _MASK
    b = (b + _rotate(a, 44)) & _MASK
    return (a + z) & _MASK, (b + c) & _MASK


def fingerprint64(s):
    """FarmHash's Fingerprint64 of the bytes `s`."""
    n = len(s)
    if n <= 16:
        return _hash_0_to_16(s, n)
    if n <= 32:
        return _hash_17_to_32(s, n)
    if n <= 64:
        return _hash_33_to_64(s, n)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _MASK
    z = (_shift_mix((y * _K2 + 113) & _MASK) * _K2) & _MASK
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & _MASK
    end = ((n - 1) // 64) * 64
    i = 0
    while True:
        x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _MASK, 37) * _K1) & _MASK
        y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _MASK, 42) * _K1) & _MASK
        x ^= w[1]
        y = (y + v[0] + _fetch64(s, i + 40)) & _MASK
        z = (_rotate((z + w[0]) & _MASK, 33) * _K1) & _MASK
        v = _weak_hash_32(s, i, (v[1] * _K1) & _MASK, (x + w[0]) & _MASK)
        w = _weak_hash_32(s, i + 32, (z + w[1]) & _MASK, (y + _fetch64(s, i + 16)) & _MASK)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = (_K1 + ((z & 0xff) << 1)) & _MASK
    i = n - 64  # the last 64 bytes
    w = ((w[0] + ((n - 1) & 63)) & _MASK, w[1])
    v = ((v[0] + w[0]) & _MASK, v[1])
    w = ((w[0] + v[0]) & _MASK, w[1])
    x = (_rotate((x + y + v[0] + _fetch64(s, i + 8)) & _MASK, 37) * mul) & _MASK
    y = (_rotate((y + v[1] + _fetch64(s, i + 48)) & _MASK, 42) * mul) & _MASK
    x ^= (w[1] * 9) & _MASK
    y = (y + v[0] * 9 + _fetch64(s, i + 40)) & _MASK
    z = (_rotate((z + w[0]) & _MASK, 33) * mul) & _MASK
    v = _weak_hash_32(s, i, (v[1] * mul) & _MASK, (x + w[0]) & _MASK)
    w = _weak_hash_32(s, i + 32, (z + w[1]) & _MASK, (y + _fetch64(s, i + 16)) & _MASK)
    z, x = x, z
    return _hash16((_hash16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _MASK,
                   (_hash16(v[1], w[1], mul) + x) & _MASK, mul)


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
