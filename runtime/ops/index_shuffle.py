"""`rt.random_index_shuffle` (op RandomIndexShuffle): the position of an index in a random
permutation of [0, max_index] fixed by a seed, without building the permutation.

As TensorFlow computes it, bit for bit: a Simon block cipher (a Feistel network over two words
of W bits, with TensorFlow's fixed key schedule from the three 32-bit seed words) encrypts the
index over a block of B = 2W bits, B the smallest even number of at least ceil(log2(max_index))
and 16 bits; encrypting again while the result exceeds max_index ("cycle walking") keeps it in
range. A fixed seed and max_index give a bijection of [0, max_index].
"""
import math

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.registry import register

_C = 0xfffffffc
_Z = 0x7369f885192c0ef5
INDEX_DTYPES = frozenset({dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64})


def _rotl(x, r, w, mask):
    return ((x << r) | (x >> (w - r))) & mask


def _rotr(x, r, w, mask):
    return ((x >> r) | (x << (w - r))) & mask


def _round_keys(key, rounds, w):
    mask = (1 << w) - 1
    keys = [k & mask for k in key]
    c, z = _C & mask, _Z & mask
    for i in range(3, rounds):
        keys.append(c ^ (z & 1) ^ keys[i - 3] ^ _rotr(keys[i - 1], 3, w, mask) ^
                    _rotr(keys[i - 1], 4, w, mask))
        z >>= 1
    return keys


def _encrypt(value, keys, w):
    mask = (1 << w) - 1

    def f(x):
        return (_rotl(x, 1, w, mask) & _rotl(x, 8, w, mask)) ^ _rotl(x, 2, w, mask)
    left, right = (value >> w) & mask, value & mask
    for i in range(0, len(keys) - 1, 2):
        left ^= f(right) ^ keys[i]
        right ^= f(left) ^ keys[i + 1]
    return (left << w) | right


def index_shuffle(index, key, max_index, rounds):
    """The image of `index` under the permutation of [0, max_index] of `key` (3 uint32s)."""
    if max_index == 0:
        return 0
    block = math.ceil(math.log2(max_index))
    block = min(max(block + block % 2, 16), 64)
    w = block // 2
    keys = _round_keys(key, rounds, w)
    value = index
    while True:
        value = _encrypt(value, keys, w)
        if value <= max_index:
            return value


def _kernel(index, seed, max_index, rounds=4):
    index, seed, max_index = np.asarray(index), np.asarray(seed), np.asarray(max_index)
    count = max(index.size, max_index.size, seed.size // 3)
    if not (index.ndim == 0 or index.shape == (count,)):
        raise errors.InvalidArgumentError(message='Index bust be a scalar or vector.')
    if not (seed.shape == (3,) or seed.shape == (count, 3)):
        raise errors.InvalidArgumentError(
            message=f'Seed must be a vector of size [3] or a matrix of size [{count}, 3] but '
                    f'got {list(seed.shape)}.')
    if not (max_index.ndim == 0 or max_index.shape == (count,)):
        raise errors.InvalidArgumentError(
            message=f'Maxval must be a scalar or a vector of the same size as index but got '
                    f'{list(max_index.shape)}')
    if rounds < 4 or rounds % 2:
        raise errors.InvalidArgumentError(message=f'rounds must be an even number >= 4, got '
                                                  f'{rounds}')
    seeds = seed.reshape(-1, 3).astype(np.int64) & 0xffffffff
    out = np.empty(count, index.dtype)
    bits = index.dtype.itemsize * 8
    for i in range(count):
        value = int(index.ravel()[i if index.ndim else 0]) % (1 << bits)
        top = int(max_index.ravel()[i if max_index.ndim else 0]) % (1 << bits)
        key = [int(k) for k in seeds[i if len(seeds) > 1 else 0]]
        result = index_shuffle(value, key, top, rounds)
        out[i] = np.array(result, np.uint64).astype(index.dtype)
    if index.ndim == 0 and seed.ndim == 1 and max_index.ndim == 0:
        return out.reshape(())
    return out


def _infer(inputs, attrs):
    index, seed, max_index = inputs
    if seed.shape.rank is not None and (seed.shape.rank not in (1, 2) or seed.shape[-1] != 3):
        raise ValueError(f'Seed must have shape [3] or [n, 3] but got {seed.shape}.')
    if index.shape.rank == 0 and seed.shape.rank == 1 and max_index.shape.rank == 0:
        return [(index.dtype, TensorShape([]))]
    known = [d for d in (index.shape[0] if index.shape.rank == 1 else None,
                         max_index.shape[0] if max_index.shape.rank == 1 else None,
                         seed.shape[0] if seed.shape.rank == 2 else None) if d is not None]
    return [(index.dtype, TensorShape([known[0] if known else None]))]


RANDOM_INDEX_SHUFFLE = register(
    'RandomIndexShuffle', _kernel, _infer, inputs=('index', 'seed', 'max_index'),
    outputs=('output',), type_attrs=(('dtype', 0), ('Tseed', 1)), defaults={'rounds': 4})


def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """The position of `index` in the permutation of [0, max_index] that `seed` (3 ints, or one
    row of 3 per index) fixes (op `RandomIndexShuffle`); `index` and `max_index` are scalars
    or vectors of one length."""
    index = convert_to_tensor(index)
    if index.dtype not in INDEX_DTYPES:
        raise TypeError(f'random_index_shuffle: index must be int32, int64, uint32 or uint64, '
                        f'got {index.dtype.name}.')
    seed = convert_to_tensor(seed)
    if seed.dtype not in INDEX_DTYPES:
        raise TypeError(f'random_index_shuffle: seed must be int32, int64, uint32 or uint64, '
                        f'got {seed.dtype.name}.')
    attrs = {'rounds': int(rounds)} if rounds != 4 else {}
    return apply(RANDOM_INDEX_SHUFFLE, [index, seed, convert_to_tensor(max_index, index.dtype)],
                 attrs, name=name)
