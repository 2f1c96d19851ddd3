"""Philox-4x32-10 and the distributions TensorFlow's CPU kernels build on it, in numpy.

The numbers are TensorFlow's, bit for bit, for the same key, counter, shape and dtype:
- a Philox block is 4 uint32 words from a 128-bit counter (4 words, lowest first) and a 64-bit
  key (2 words); every block moves the counter on by one;
- a stateless seed (two ints) becomes a key and a counter by one Philox block of the seed words
  under a fixed key (`key_counter_of`);
- an output of N numbers reads the blocks at counter, counter + 1, ...: 4 floats or halves
  or int32s per block, 2 doubles or int64s per block; a truncated normal group (4 floats or 2
  doubles) starts 256 (128 for doubles) blocks after the group before it and draws normal
  pairs until its numbers within 2 standard deviations are found.
The functions work on int64 key/counter arrays (TensorFlow's are uint64 of the same bits).
"""
import ctypes
import ctypes.util

import numpy as np

from runtime.core import errors

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)  # the round multipliers
_W0, _W1 = 0x9E3779B9, 0xBB67AE85  # the key schedule (the golden ratio, sqrt(3) - 1)
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_SEED_KEY = (0x3EC8F720, 0x02461E29)  # the key that scrambles a stateless seed
TRUNCATED_SKIP = 256  # blocks reserved per output group of a truncated normal (floats)
TRUNCATE = 2.0


def philox_words(counter_words, key_words):
    """The 10-round Philox-4x32 blocks of counters [n, 4] (uint64 holding uint32 words) under
    the key (two uint32 words): [n, 4] uint64 words."""
    c0, c1, c2, c3 = (counter_words[:, i].copy() for i in range(4))
    k0, k1 = int(key_words[0]), int(key_words[1])
    for round_ in range(10):
        if round_:
            k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
        p0 = c0 * _M0
        p1 = c2 * _M1
        c0, c1, c2, c3 = ((p1 >> _32) ^ c1 ^ np.uint64(k0), p1 & _LOW,
                          (p0 >> _32) ^ c3 ^ np.uint64(k1), p0 & _LOW)
    return np.stack([c0, c1, c2, c3], axis=1)


def sizes(shape):
    """The dims of a shape operand and their product; a negative dim is TensorFlow's error."""
    dims = [int(d) for d in np.ravel(shape)]
    for d in dims:
        if d < 0:
            raise errors.InvalidArgumentError(message=f'Dimension {d} must be >= 0')
    return dims, int(np.prod(dims, dtype=np.int64))


def _u64(value):
    return int(value) & 0xFFFFFFFFFFFFFFFF


def blocks(key, counter, count):
    """`count` Philox blocks for a key (int64 [1]) and counter (int64 [2]): [count, 4]
    uint64 words."""
    return _blocks_at(key, counter, np.arange(count, dtype=np.uint64))


def _blocks_at(key, counter, offsets):
    """The Philox blocks at counter + each of `offsets` (uint64): [len(offsets), 4] words."""
    key_bits = _u64(np.ravel(key)[0])
    low, high = (_u64(c) for c in np.ravel(counter)[:2])
    lows = np.uint64(low) + offsets  # uint64 arrays wrap silently
    highs = np.uint64(high) + (lows < np.uint64(low)).astype(np.uint64)
    words = np.stack([lows & _LOW, lows >> _32, highs & _LOW, highs >> _32], axis=1)
    return philox_words(words, (key_bits & 0xFFFFFFFF, key_bits >> 32))


def _words(key, counter, n, per_block):
    """The first `n * 4 / per_block` words of the blocks from the counter on, flat."""
    count = -(-n // per_block)
    return blocks(key, counter, count).reshape(-1)


def key_counter_of(seed):
    """TensorFlow's (key int64 [1], counter int64 [2]) for a stateless seed of two ints
    (StatelessRandomGetKeyCounter): one Philox block of the seed words under a fixed key."""
    s0, s1 = (_u64(s) for s in np.ravel(seed)[:2])
    words = np.array([[s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32]], np.uint64)
    mix = philox_words(words, _SEED_KEY)[0]
    key = np.array([int(mix[0]) | int(mix[1]) << 32], np.uint64).view(np.int64)
    counter = np.array([0, int(mix[2]) | int(mix[3]) << 32], np.uint64).view(np.int64)
    return key, counter


def skip(counter, count):
    """A 128-bit counter (int64 [2]) moved on by `count` blocks (mod 2**128)."""
    low, high = (_u64(c) for c in np.ravel(counter)[:2])
    total = (low | high << 64) + (int(count) & 0xFFFFFFFFFFFFFFFF)
    return np.array([total & 0xFFFFFFFFFFFFFFFF, (total >> 64) & 0xFFFFFFFFFFFFFFFF],
                    np.uint64).view(np.int64)


# ---- bits to numbers --------------------------------------------------------------------------

def _unit_float32(words):
    """[1, 2) from 23 mantissa bits, minus 1: floats in [0, 1)."""
    bits = ((words & np.uint64(0x7FFFFF)) | np.uint64(0x3F800000)).astype(np.uint32)
    return bits.view(np.float32) - np.float32(1)


def _unit_float64(high, low):
    """[1, 2) from 20 + 32 mantissa bits, minus 1: doubles in [0, 1)."""
    bits = ((high & np.uint64(0xFFFFF)) << _32) | low | np.uint64(1023 << 52)
    return bits.view(np.float64) - 1.0


def _unit_float16(words):
    bits = ((words & np.uint64(0x3FF)) | np.uint64(15 << 10)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1)


def _pairs(words):
    return words[0::2], words[1::2]


def uniform(key, counter, n, np_dtype):
    """n uniform numbers in [0, 1) of a floating dtype (StatelessRandomUniformV2)."""
    if np_dtype == np.float64:
        return _unit_float64(*_pairs(_words(key, counter, n, 2)))[:n]
    words = _words(key, counter, n, 4)[:n]
    return _unit_float16(words) if np_dtype == np.float16 else _unit_float32(words)


def _box_muller_float(x0, x1):
    """Pairs of standard normal floats from pairs of words, computed as TensorFlow's float
    Box-Muller: u1 clamped at 1e-7, v1 = 2 pi u2 (pi a double), log, sin and cos in float32."""
    u1 = np.maximum(_unit_float32(x0), np.float32(1e-7))
    v1 = (2.0 * np.pi * _unit_float32(x1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * libm('log', u1))
    out = np.empty(2 * len(x0), np.float32)
    out[0::2] = libm('sin', v1) * radius
    out[1::2] = libm('cos', v1) * radius
    return out


def _box_muller_double(words):
    x0, x1, x2, x3 = (words[i::4] for i in range(4))
    u1 = np.maximum(_unit_float64(x0, x1), 1e-7)
    v1 = 2.0 * np.pi * _unit_float64(x2, x3)
    radius = np.sqrt(-2.0 * libm('log', u1))
    out = np.empty(2 * len(x0), np.float64)
    out[0::2] = libm('sin', v1) * radius
    out[1::2] = libm('cos', v1) * radius
    return out


# ---- the C library's log, sin and cos -------------------------------------------------------
# TensorFlow's kernels call the C library's logf/sinf/cosf (log/sin/cos for doubles), which
# are not always correctly rounded, and numpy's own vectorised versions differ from them in
# the last bit now and then. Each value is computed in higher precision (double for floats,
# long double for doubles) and rounded; the values close enough to a rounding boundary for
# the C library to round them the other way are computed again by the C library itself
# (ctypes). Without a C math library the rounded values stand.

_WIDER = {np.dtype(np.float32): np.float64, np.dtype(np.float64): np.longdouble}
# How close to a rounding boundary (in ulps of the result) the C library may round the other
# way: glibc documents logf within 0.82 ulp, sinf/cosf within 0.56 and the double functions
# within about 0.52; each with a margin.
_CLOSE = {('log', 4): 0.4, ('sin', 4): 0.2, ('cos', 4): 0.2,
          ('log', 8): 0.05, ('sin', 8): 0.05, ('cos', 8): 0.05}
_C_FUNCTIONS = {}


def _c_function(name, itemsize):
    """The C library's `name` (`namef` for floats) as a ctypes function, or None."""
    key = (name, itemsize)
    if key not in _C_FUNCTIONS:
        _C_FUNCTIONS[key] = None
        try:  # loaded on first use, not at import: a library lookup costs start-up time
            library = ctypes.CDLL('libm.so.6')
        except OSError:
            path = ctypes.util.find_library('m')
            library = ctypes.CDLL(path) if path else None
        if library is not None:
            c_type = ctypes.c_float if itemsize == 4 else ctypes.c_double
            function = getattr(library, name + ('f' if itemsize == 4 else ''))
            function.restype, function.argtypes = c_type, [c_type]
            _C_FUNCTIONS[key] = function
    return _C_FUNCTIONS[key]


def libm(name, x):
    """`np.<name>(x)` (log, sin or cos) of a float32 or float64 array, rounded as the C
    library rounds it."""
    if x.dtype == np.float32 and _GLIBC[name] is not None and _glibc_agrees(name, x):
        wide, margin = _GLIBC[name](x), 1e-6  # the C library's own algorithm, in numpy
    else:
        wide, margin = getattr(np, name)(x.astype(_WIDER[x.dtype])), _CLOSE[name, x.dtype.itemsize]
    out = wide.astype(x.dtype)
    function = _c_function(name, x.dtype.itemsize)
    if function is None:
        return out
    ulp = np.spacing(np.nextafter(np.abs(out), x.dtype.type(0))).astype(wide.dtype)
    off = np.abs(wide - out) / ulp  # 0: on a representable value, 0.5: on a boundary
    close = np.flatnonzero(~(off < 0.5 - margin))
    if len(close):
        out[close] = [function(v) for v in x[close].tolist()]
    return out


# glibc's logf (2.28 to 2.40; ARM's optimized-routines): log(x) = log1p(z / c - 1) + log(c) +
# k ln2 with x = 2^k z, c from a table of 16 by z's leading mantissa bits, and a cubic for
# log1p, all in double. Computed here in numpy, it gives the C library's float (the double
# result rounds the same way but within 1e-6 ulp of a boundary, left to the C library). Used
# only once it agreed with the C library on a sample (`_glibc_agrees`).


def _doubles(*hex_values):
    return np.array([float.fromhex(v) for v in hex_values])


_LOGF_INVC = _doubles(
    '0x1.661ec79f8f3bep+0', '0x1.571ed4aaf883dp+0', '0x1.49539f0f010bp+0',
    '0x1.3c995b0b80385p+0', '0x1.30d190c8864a5p+0', '0x1.25e227b0b8eap+0',
    '0x1.1bb4a4a1a343fp+0', '0x1.12358f08ae5bap+0', '0x1.0953f419900a7p+0', '0x1p+0',
    '0x1.e608cfd9a47acp-1', '0x1.ca4b31f026aap-1', '0x1.b2036576afce6p-1',
    '0x1.9c2d163a1aa2dp-1', '0x1.886e6037841edp-1', '0x1.767dcf5534862p-1')
_LOGF_LOGC = _doubles(
    '-0x1.57bf7808caadep-2', '-0x1.2bef0a7c06ddbp-2', '-0x1.01eae7f513a67p-2',
    '-0x1.b31d8a68224e9p-3', '-0x1.6574f0ac07758p-3', '-0x1.1aa2bc79c81p-3',
    '-0x1.a4e76ce8c0e5ep-4', '-0x1.1973c5a611cccp-4', '-0x1.252f438e10c1ep-5', '0x0p+0',
    '0x1.aa5aa5df25984p-5', '0x1.c5e53aa362eb4p-4', '0x1.526e57720db08p-3',
    '0x1.bc2860d22477p-3', '0x1.1058bc8a07ee1p-2', '0x1.4043057b6ee09p-2')
_LN2 = float.fromhex('0x1.62e42fefa39efp-1')
_LOGF_POLY = _doubles('-0x1.00ea348b88334p-2', '0x1.5575b0be00b6ap-2', '-0x1.ffffef20a4123p-2')


def _glibc_logf(x):
    """glibc's logf of positive normal floats, before its final rounding (doubles)."""
    bits = x.view(np.uint32).astype(np.int64)
    tmp = bits - 0x3F330000
    i = (tmp >> 19) & 15
    k = tmp.astype(np.uint32).view(np.int32).astype(np.int64) >> 23
    z = (bits - (tmp & 0xFF800000)).astype(np.uint32).view(np.float32).astype(np.float64)
    r = z * _LOGF_INVC[i] - 1
    r2 = r * r
    a0, a1, a2 = _LOGF_POLY
    y = a0 * r2 + (a1 * r + a2)
    return y * r2 + ((_LOGF_LOGC[i] + k * _LN2) + r)


# glibc's sinf/cosf (the same releases): x reduced by the nearest multiple n of pi/2, then
# odd or even polynomials in double by the quadrant (table 1 negates the cosine's).
_HPI_INV, _HPI = float.fromhex('0x1.45F306DC9C883p+23'), float.fromhex('0x1.921FB54442D18p0')
_COS_POLY = _doubles('0x1p0', '-0x1.ffffffd0c621cp-2', '0x1.55553e1068f19p-5',
                     '-0x1.6c087e89a359dp-10', '0x1.99343027bf8c3p-16')
_SIN_POLY = _doubles('-0x1.555545995a603p-3', '0x1.1107605230bc4p-7', '-0x1.994eb3774cf24p-13')
_QUADRANT_SIGN = np.array([1.0, -1.0, -1.0, 1.0])


def _glibc_sincosf(y, want_cos):
    """glibc's sinf (or cosf) of floats below 120 in magnitude, before the final rounding."""
    top = (y.view(np.uint32) >> 20) & 0x7FF
    x = y.astype(np.float64)
    small = top < 0x3F4  # below 0.75: no reduction
    n = np.where(small, 0, ((x * _HPI_INV).astype(np.int32) + 0x800000) >> 24)
    reduced = x - n * _HPI
    xs = reduced * np.where(small, 1.0, _QUADRANT_SIGN[n & 3])
    x2 = reduced * reduced
    x3, x4 = xs * x2, x2 * x2
    s1, s2, s3 = _SIN_POLY
    sine = (xs + x3 * s1) + (x3 * x2) * (s2 + x2 * s3)
    c0, c1, c2, c3, c4 = _COS_POLY
    cosine = ((c0 + x2 * c1) + x4 * c2) + (x4 * x2) * (c3 + x2 * c4)
    cosine = np.where((n & 2) != 0, -cosine, cosine)
    odd = (n & 1) == (0 if want_cos else 1)
    out = np.where(odd, cosine, sine)
    tiny = top < 0x398  # below 2^-12: sin y = y, cos y = 1
    return np.where(tiny, 1.0 if want_cos else x, out)


_GLIBC = {'log': _glibc_logf, 'sin': lambda y: _glibc_sincosf(y, False),
          'cos': lambda y: _glibc_sincosf(y, True)}
_GLIBC_AGREES = {}


def _glibc_agrees(name, x):
    """Whether the numpy form of glibc's `name`f gives the C library's results on 4096 sample
    floats (checked once per function), and `x` lies where that form applies."""
    if name != 'log' and not np.all(np.abs(x) < 120):
        return False
    if name not in _GLIBC_AGREES:
        function = _c_function(name, 4)
        steps = np.arange(1, 4097, dtype=np.float64)
        sample = (steps / 4096 if name == 'log' else steps * (7.0 / 4096)).astype(np.float32)
        _GLIBC_AGREES[name] = function is not None and \
            _GLIBC[name](sample).astype(np.float32).tolist() == [function(v) for v in
                                                                 sample.tolist()]
    return _GLIBC_AGREES[name]


def normal(key, counter, n, np_dtype):
    """n standard normal numbers (StatelessRandomNormalV2)."""
    if np_dtype == np.float64:
        return _box_muller_double(_words(key, counter, n, 2))[:n]
    out = _box_muller_float(*_pairs(_words(key, counter, n, 4)))[:n]
    return out.astype(np.float16) if np_dtype == np.float16 else out


def truncated_normal(key, counter, n, np_dtype):
    """n standard normal numbers within 2 standard deviations (StatelessTruncatedNormalV2):
    each group of 4 (2 for doubles) starts at its own reserved run of blocks and keeps the
    first normal numbers that fall inside."""
    double = np_dtype == np.float64
    group = 2 if double else 4
    groups = -(-n // group)
    out = np.empty((groups, group), np.float64 if double else np.float32)
    todo = np.arange(groups, dtype=np.uint64)
    width = 2  # blocks per group tried first; a group that finds too few tries again wider
    while len(todo):
        offsets = todo[:, None] * np.uint64(TRUNCATED_SKIP * group // 4) + \
            np.arange(width, dtype=np.uint64)
        flat = _blocks_at(key, counter, offsets.reshape(-1)).reshape(-1)
        values = _box_muller_double(flat) if double else _box_muller_float(*_pairs(flat))
        values = values.reshape(len(todo), -1)
        inside = np.abs(values) < TRUNCATE
        first = np.argsort(~inside, axis=1, kind='stable')[:, :group]
        full = inside.sum(axis=1) >= group
        rows = np.flatnonzero(full)
        out[todo[rows].astype(np.int64)] = np.take_along_axis(values[rows], first[rows], 1)
        todo = todo[~full]
        width *= 4
    out = out.reshape(-1)[:n]
    return out.astype(np.float16) if np_dtype == np.float16 else out


def uniform_int(key, counter, n, minval, maxval):
    """n integers in [minval, maxval) as TensorFlow draws them: a word (int32) or two words
    (int64) modulo the range (StatelessRandomUniformIntV2)."""
    np_dtype = np.asarray(minval).dtype
    if np_dtype == np.int64:
        low, high = _pairs(_words(key, counter, n, 2))
        bits = (low | (high << _32))[:n]
        span = np.uint64((int(maxval) - int(minval)) & 0xFFFFFFFFFFFFFFFF)
        return (np.int64(minval) + (bits % span).view(np.int64)).astype(np.int64)
    words = _words(key, counter, n, 4)[:n]
    span = np.uint64((int(maxval) - int(minval)) & 0xFFFFFFFF)
    offsets = (words % span).astype(np.uint32).view(np.int32)
    with np.errstate(over='ignore'):
        return (np.asarray(minval, np.int32) + offsets).astype(np_dtype)


def uniform_full_int(key, counter, n, np_dtype):
    """n integers over the dtype's whole range (StatelessRandomUniformFullIntV2)."""
    if np.dtype(np_dtype).itemsize == 8:
        low, high = _pairs(_words(key, counter, n, 2))
        return (low | (high << _32))[:n].view(np.int64).astype(np_dtype)
    return _words(key, counter, n, 4)[:n].astype(np.uint32).view(np.int32).astype(np_dtype)
