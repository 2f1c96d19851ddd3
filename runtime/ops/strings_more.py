"""More of `tf.strings`: `ngrams` (op `StringNGrams`), `unsorted_segment_join`
(`UnsortedSegmentJoin`), `to_hash_bucket` (`StringToHashBucket`, TensorFlow's 64-bit hash),
`to_hash_bucket_fast` (`StringToHashBucketFast`, FarmHash), `to_hash_bucket_strong`
(`StringToHashBucketStrong`, SipHash-2-4), `unicode_transcode`
(`UnicodeTranscode`) and `unicode_split_with_offsets`."""
import numpy as np

from runtime.core import dtypes
from runtime.core import errors as errors_module  # `errors` is a parameter name here
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.farmhash import fingerprint64
from runtime.ops.registry import NO_GRADIENT, register
from runtime.ops.shaping import reshape
from runtime.ops.string_split import unicode_decode_with_offsets, unicode_split

_MASK = (1 << 64) - 1


def _strings(value, what):
    t = convert_to_tensor(value)
    if t.dtype is not dtypes.string:
        raise TypeError(f'{what} must be a string tensor, got {t.dtype.name}.')
    return t


# ---- n-grams --------------------------------------------------------------------------------
def _row_ngrams(row, widths, separator, left, right, pad_width, preserve_short):
    out = []
    for width in widths:
        pad = width - 1 if pad_width < 0 or pad_width > width - 1 else pad_width
        padded = [left] * pad + list(row) + [right] * pad
        count = len(padded) - width + 1
        if preserve_short and len(row) > 0 and count <= 0:
            out.append(separator.join(padded))
            continue
        out.extend(separator.join(padded[i:i + width]) for i in range(max(count, 0)))
    return out


def _ngrams_kernel(data, data_splits, separator=b' ', ngram_widths=(), left_pad=b'',
                   right_pad=b'', pad_width=0, preserve_short_sequences=False):
    def raw(v):
        return v.encode('utf-8') if isinstance(v, str) else v
    separator, left, right = raw(separator), raw(left_pad), raw(right_pad)
    rows, splits = [], [0]
    for start, end in zip(data_splits[:-1], data_splits[1:]):
        rows.extend(_row_ngrams(data[start:end], ngram_widths, separator, left, right,
                                pad_width, preserve_short_sequences))
        splits.append(len(rows))
    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return out, np.asarray(splits, np.int64)


STRING_NGRAMS = register(
    'StringNGrams', _ngrams_kernel,
    lambda inputs, attrs: [(dtypes.string, TensorShape([None])),
                           (inputs[1].dtype, TensorShape([None]))],
    inputs=('data', 'data_splits'), outputs=('ngrams', 'ngrams_splits'), type_attrs=(),
    gradient=NO_GRADIENT)


def ngrams(data, ngram_width, separator=' ', pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams of each row (the last axis) of a string tensor, joined by `separator`,
    optionally padded with `pad_values` (op `StringNGrams`); every row must give as many."""
    data = _strings(data, 'data')
    if data.shape.rank in (None, 0):
        raise ValueError('ngrams needs a tensor of rank 1 or more.')
    widths = [int(w) for w in np.atleast_1d(ngram_width)]
    if any(w < 1 for w in widths):
        raise ValueError('All ngram_widths must be greater than 0.')
    if pad_values is None:
        left = right = ''
        pad_width = 0 if padding_width is None else -1
    else:
        left, right = (pad_values, pad_values) if isinstance(pad_values, (str, bytes)) \
            else pad_values
        pad_width = -1 if padding_width is None else int(padding_width)
    dims = data.shape.as_list()
    row_length = dims[-1]
    if None in dims:
        raise ValueError('ngrams needs the shape of `data` known.')
    rows = int(np.prod(dims[:-1], dtype=np.int64))
    splits = np.arange(rows + 1, dtype=np.int64) * row_length
    attrs = {'separator': separator, 'ngram_widths': widths, 'left_pad': left,
             'right_pad': right, 'pad_width': pad_width,
             'preserve_short_sequences': bool(preserve_short_sequences)}
    grams, _ = apply(STRING_NGRAMS, [reshape(data, [-1]), splits], attrs, name=name)
    return reshape(grams, dims[:-1] + [-1]) if rows else grams


# ---- joins by segment -----------------------------------------------------------------------
def _segment_join_kernel(inputs, segment_ids, num_segments, separator=''):
    separator = separator.encode('utf-8') if isinstance(separator, str) else separator
    ids = np.asarray(segment_ids)
    n = int(num_segments)
    inner = inputs.shape[ids.ndim:]
    parts = [[[] for _ in range(int(np.prod(inner, dtype=np.int64)))] for _ in range(n)]
    flat = inputs.reshape(ids.size, -1)
    for position, segment in enumerate(ids.ravel()):
        if segment >= n:
            raise errors_module.InvalidArgumentError(
                None, None, f'segment_ids[{position}] = {segment} is out of range [0, {n})')
        if segment < 0:
            continue
        for k, value in enumerate(flat[position]):
            parts[segment][k].append(value)
    out = np.empty((n,) + inner, dtype=object)
    out.reshape(n, -1)[...] = [[separator.join(cell) for cell in row] for row in parts] \
        if n else np.empty((0, 0), dtype=object)
    return out


UNSORTED_SEGMENT_JOIN = register(
    'UnsortedSegmentJoin', _segment_join_kernel,
    lambda inputs, attrs: [(dtypes.string, TensorShape(None))],
    inputs=('inputs', 'segment_ids', 'num_segments'), outputs=('output',),
    type_attrs=(('Tindices', 1), ('Tnumsegments', 2)), gradient=NO_GRADIENT)


def unsorted_segment_join(inputs, segment_ids, num_segments, separator='', name=None):
    """The strings of each segment joined by `separator`, in input order (op
    `UnsortedSegmentJoin`); a segment with none gives ''."""
    return apply(UNSORTED_SEGMENT_JOIN,
                 [_strings(inputs, 'inputs'), convert_to_tensor(segment_ids),
                  convert_to_tensor(num_segments)], {'separator': separator}, name=name)


# ---- hashing --------------------------------------------------------------------------------
def hash64(data, seed=0xDECAFCAFFE):
    """TensorFlow's 64-bit string hash (a MurmurHash2 variant), the one `to_hash_bucket` uses."""
    m, r = 0xC6A4A7935BD1E995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _MASK
    whole = n - n % 8
    for i in range(0, whole, 8):
        k = int.from_bytes(data[i:i + 8], 'little')
        k = (k * m) & _MASK
        k ^= k >> r
        k = (k * m) & _MASK
        h ^= k
        h = (h * m) & _MASK
    tail = data[whole:]
    if tail:
        for i in range(len(tail) - 1, -1, -1):
            h ^= tail[i] << (8 * i)
        h = (h * m) & _MASK
    h ^= h >> r
    h = (h * m) & _MASK
    h ^= h >> r
    return h


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _MASK


def siphash24(key0, key1, data):
    """SipHash-2-4 of `data` under the 128-bit key (key0, key1)."""
    v = [key0 ^ 0x736F6D6570736575, key1 ^ 0x646F72616E646F6D,
         key0 ^ 0x6C7967656E657261, key1 ^ 0x7465646279746573]

    def rounds(count):
        for _ in range(count):
            v[0] = (v[0] + v[1]) & _MASK
            v[1] = _rotl(v[1], 13) ^ v[0]
            v[0] = _rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & _MASK
            v[3] = _rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & _MASK
            v[3] = _rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & _MASK
            v[1] = _rotl(v[1], 17) ^ v[2]
            v[2] = _rotl(v[2], 32)
    n = len(data)
    whole = n - n % 8
    for i in range(0, whole, 8):
        m = int.from_bytes(data[i:i + 8], 'little')
        v[3] ^= m
        rounds(2)
        v[0] ^= m
    last = ((n & 0xFF) << 56) | int.from_bytes(data[whole:] + b'\0' * (8 - n % 8), 'little') \
        if n % 8 else (n & 0xFF) << 56
    v[3] ^= last
    rounds(2)
    v[0] ^= last
    v[2] ^= 0xFF
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def _bucket_kernel(hash_fn):
    def kernel(string_tensor, num_buckets=1, key=()):
        values = np.asarray(string_tensor, dtype=object)
        out = np.frompyfunc(lambda s: hash_fn(s, key) % num_buckets, 1, 1)(values)
        return np.asarray(out, dtype=np.int64)
    return kernel


def _bucket_infer(inputs, attrs):
    return [(dtypes.int64, inputs[0].shape)]


TO_HASH_BUCKET = register('StringToHashBucket', _bucket_kernel(lambda s, key: hash64(s)),
                          _bucket_infer, inputs=('string_tensor',), outputs=('output',),
                          type_attrs=(), gradient=NO_GRADIENT)
TO_HASH_BUCKET_FAST = register(
    'StringToHashBucketFast', _bucket_kernel(lambda s, key: fingerprint64(s)), _bucket_infer,
    inputs=('input',), outputs=('output',), type_attrs=(), gradient=NO_GRADIENT)
TO_HASH_BUCKET_STRONG = register(
    'StringToHashBucketStrong', _bucket_kernel(lambda s, key: siphash24(key[0], key[1], s)),
    _bucket_infer, inputs=('input',), outputs=('output',), type_attrs=(), gradient=NO_GRADIENT)


def to_hash_bucket(input, num_buckets, name=None):  # noqa: A002 - TensorFlow's name
    """Each string's bucket in [0, num_buckets) by TensorFlow's 64-bit hash (op
    `StringToHashBucket`)."""
    if num_buckets < 1:
        raise ValueError('num_buckets must be >= 1')
    return apply(TO_HASH_BUCKET, [_strings(input, 'input')], {'num_buckets': int(num_buckets)},
                 name=name)


def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TensorFlow's name
    """Each string's bucket in [0, num_buckets) by FarmHash's Fingerprint64 (op
    `StringToHashBucketFast`)."""
    if num_buckets < 1:
        raise ValueError('num_buckets must be >= 1')
    return apply(TO_HASH_BUCKET_FAST, [_strings(input, 'input')],
                 {'num_buckets': int(num_buckets)}, name=name)


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's bucket by SipHash-2-4 under `key` (two uint64s) (op
    `StringToHashBucketStrong`)."""
    key = [int(k) & _MASK for k in key]
    if len(key) != 2:
        raise ValueError('key must have size 2')
    if num_buckets < 1:
        raise ValueError('num_buckets must be >= 1')
    return apply(TO_HASH_BUCKET_STRONG, [_strings(input, 'input')],
                 {'num_buckets': int(num_buckets), 'key': key}, name=name)


# ---- encodings ------------------------------------------------------------------------------
_CODECS = {'UTF-8': 'utf-8', 'UTF-16-BE': 'utf-16-be', 'UTF-32-BE': 'utf-32-be',
           'US-ASCII': 'ascii', 'ISO-8859-1': 'latin-1'}


def _transcode(value, input_encoding, output_encoding, errors='replace',
               replacement_char=65533, replace_control_characters=False):
    source, target = _CODECS[input_encoding], _CODECS[output_encoding]
    if errors == 'strict':
        try:
            text = value.decode(source)
        except UnicodeDecodeError as error:
            raise errors_module.InvalidArgumentError(
                None, None, f'Invalid formatting on input string: {error}') from None
    else:
        text = value.decode(source, 'replace' if errors == 'replace' else 'ignore')
        if errors == 'replace' and replacement_char != 0xFFFD:
            text = text.replace('\ufffd', chr(replacement_char))
    if replace_control_characters:
        text = ''.join(chr(replacement_char) if ord(c) < 0x20 else c for c in text)
    return text.encode(target, 'replace')


UNICODE_TRANSCODE = register(
    'UnicodeTranscode', lambda input, **attrs: np.asarray(np.frompyfunc(
        lambda v: _transcode(v, **attrs), 1, 1)(np.asarray(input, dtype=object)),
        dtype=object),
    lambda inputs, attrs: [(dtypes.string, inputs[0].shape)], inputs=('input',),
    outputs=('output',), type_attrs=(),
    defaults={'errors': 'replace', 'replacement_char': 65533,
              'replace_control_characters': False}, gradient=NO_GRADIENT)


def unicode_transcode(input, input_encoding, output_encoding, errors='replace',  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """Each string decoded from `input_encoding` and encoded in `output_encoding` (UTF-8,
    UTF-16-BE, UTF-32-BE, US-ASCII, ISO-8859-1) (op `UnicodeTranscode`)."""
    for encoding in (input_encoding, output_encoding):
        if encoding not in _CODECS:
            raise errors_module.InvalidArgumentError(None, None, f'Could not create converter '
                                                     f'for encoding: {encoding}')
    return apply(UNICODE_TRANSCODE, [_strings(input, 'input')],
                 {'input_encoding': input_encoding, 'output_encoding': output_encoding,
                  'errors': errors, 'replacement_char': int(replacement_char),
                  'replace_control_characters': bool(replace_control_characters)}, name=name)


def unicode_split_with_offsets(input, input_encoding, errors='replace',  # noqa: A002
                               replacement_char=65533, name=None):
    """(the characters of a scalar string, the byte offset where each starts)."""
    _, offsets = unicode_decode_with_offsets(input, input_encoding, errors, replacement_char)
    return unicode_split(input, input_encoding, errors, replacement_char), offsets

