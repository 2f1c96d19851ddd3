"""Splitting and decoding strings: `rt.strings.split`, `bytes_split`, `unicode_split`,
`unicode_decode`, `unicode_decode_with_offsets`, `unicode_encode` and `rt.io.decode_raw`.

The ops are TensorFlow's (StringSplitV2, StringSplit, UnicodeDecode, UnicodeDecodeWithOffsets,
UnicodeEncode, DecodeRaw, DecodePaddedRaw), with their inputs, outputs and attrs. Splitting a
vector of strings gives a RaggedTensor in TensorFlow (each string its own number of pieces), and
ragged tensors are out of scope here (docs/reference.md): the functions take a scalar string,
whose result is dense (a vector), and refuse a tensor of strings with a ValueError saying so.
`decode_raw` gives dense results for every shape (its strings have one length) and takes any.
"""
import re

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import range as range_
from runtime.ops.dispatch import apply
from runtime.ops.registry import register
from runtime.ops.shaping import reshape, size

_VECTOR = TensorShape([None])
_ENCODINGS = {'UTF-8': 'utf-8', 'UTF-16-BE': 'utf-16-be', 'UTF-32-BE': 'utf-32-be'}
_ERRORS = ('strict', 'replace', 'ignore')


def _string_vector(values):
    return np.asarray(values, dtype=object).reshape(-1)


def _scalar_bytes(value):
    return np.asarray(value, dtype=object)[()]


def _sparse_pieces(rows):
    """The (indices, values, shape) outputs of a split from each string's pieces."""
    indices = [(i, j) for i, pieces in enumerate(rows) for j in range(len(pieces))]
    values = np.empty(len(indices), dtype=object)
    values[:] = [piece for pieces in rows for piece in pieces]
    width = max((len(pieces) for pieces in rows), default=0)
    return (np.asarray(indices, np.int64).reshape(-1, 2), values,
            np.asarray([len(rows), width], np.int64))


def _split_infer(inputs, attrs):
    return [(dtypes.int64, TensorShape([None, 2])), (dtypes.string, _VECTOR),
            (dtypes.int64, TensorShape([2]))]


def _split_v2_kernel(input, sep, maxsplit=-1):
    sep = _scalar_bytes(sep) or None  # empty: runs of ASCII whitespace, as bytes.split()
    return _sparse_pieces([s.split(sep, maxsplit) for s in _string_vector(input)])


def _split_v1_kernel(input, delimiter, skip_empty=True):
    delimiter = _scalar_bytes(delimiter)
    if not delimiter:  # each byte its own piece
        rows = [[s[i:i + 1] for i in range(len(s))] for s in _string_vector(input)]
    else:  # each byte of the delimiter delimits
        pattern = re.compile(b'[' + re.escape(delimiter) + b']')
        rows = [pattern.split(s) for s in _string_vector(input)]
        if skip_empty:
            rows = [[p for p in pieces if p] for pieces in rows]
    return _sparse_pieces(rows)


SPLIT_OUTPUTS = ('indices', 'values', 'shape')
STRING_SPLIT_V2 = register('StringSplitV2', _split_v2_kernel, _split_infer,
                           inputs=('input', 'sep'), outputs=SPLIT_OUTPUTS, type_attrs=(),
                           defaults={'maxsplit': -1})
STRING_SPLIT = register('StringSplit', _split_v1_kernel, _split_infer,
                        inputs=('input', 'delimiter'), outputs=SPLIT_OUTPUTS, type_attrs=(),
                        defaults={'skip_empty': True})


# ---- UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode ------------------------------------

def _codec(encoding, direction):
    codec = _ENCODINGS.get(encoding)
    if codec is None:
        raise errors.InvalidArgumentError(
            message=f'Could not create converter for {direction} encoding: {encoding} '
                    f'(supported here: {", ".join(_ENCODINGS)})')
    return codec


def _decode_one(text, codec, errors_mode, replacement_char, replace_control):
    """([code point], [byte offset of each]) of one string."""
    chars, starts, pos = [], [], 0
    while pos <= len(text):
        try:
            decoded, end, bad = text[pos:].decode(codec), len(text), None
        except UnicodeDecodeError as e:
            decoded, end = text[pos:pos + e.start].decode(codec), pos + e.start
            bad = pos + e.end
        offset = pos
        for ch in decoded:
            code = ord(ch)
            chars.append(replacement_char if replace_control and code < 0x20 else code)
            starts.append(offset)
            offset += len(ch.encode(codec))
        if bad is None:
            break
        if errors_mode == 'strict':
            raise errors.InvalidArgumentError(message='Invalid formatting on input string')
        if errors_mode == 'replace':
            chars.append(replacement_char)
            starts.append(end)
        pos = bad
    return chars, starts


def _decode(input, input_encoding, errors='replace', replacement_char=65533,
            replace_control_characters=False, Tsplits=dtypes.int64):
    codec = _codec(input_encoding, 'input')
    strings = _string_vector(input)
    decoded = [_decode_one(s, codec, errors, replacement_char, replace_control_characters)
               for s in strings]
    splits = np.cumsum([0] + [len(chars) for chars, _ in decoded]).astype(Tsplits.np_dtype)
    values = np.asarray([c for chars, _ in decoded for c in chars], np.int32)
    starts = np.asarray([o for _, offsets in decoded for o in offsets], np.int64)
    return splits, values, starts


def _decode_infer(with_offsets):
    def infer(inputs, attrs):
        n = inputs[0].shape.num_elements()
        splits = TensorShape([None if n is None else n + 1])
        specs = [(attrs.get('Tsplits', dtypes.int64), splits), (dtypes.int32, _VECTOR)]
        return specs + [(dtypes.int64, _VECTOR)] if with_offsets else specs
    return infer


_DECODE_DEFAULTS = {'errors': 'replace', 'replacement_char': 65533,
                    'replace_control_characters': False, 'Tsplits': dtypes.int64}
UNICODE_DECODE = register('UnicodeDecode', lambda input, **attrs: _decode(input, **attrs)[:2],
                          _decode_infer(False), inputs=('input',),
                          outputs=('row_splits', 'char_values'), type_attrs=(),
                          defaults=_DECODE_DEFAULTS)
UNICODE_DECODE_WITH_OFFSETS = register(
    'UnicodeDecodeWithOffsets', _decode, _decode_infer(True), inputs=('input',),
    outputs=('row_splits', 'char_values', 'char_to_byte_starts'), type_attrs=(),
    defaults=_DECODE_DEFAULTS)


def _encode_kernel(input_values, input_splits, output_encoding, errors='replace',
                   replacement_char=65533):
    codec = _codec(output_encoding, 'output')
    out = np.empty(max(len(input_splits) - 1, 0), dtype=object)
    for row in range(out.shape[0]):
        pieces = []
        for code in input_values[int(input_splits[row]):int(input_splits[row + 1])]:
            code = int(code)
            if not (0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF):
                if errors == 'strict':
                    raise errors_module.InvalidArgumentError(
                        message=f'Invalid code point: {code}')
                if errors == 'ignore':
                    continue
                code = replacement_char
            pieces.append(chr(code).encode(codec))
        out[row] = b''.join(pieces)
    return out


errors_module = errors  # the kernel's `errors` argument is TensorFlow's attr of that name
UNICODE_ENCODE = register(
    'UnicodeEncode', _encode_kernel,
    lambda inputs, attrs: [(dtypes.string, TensorShape(
        [None if inputs[1].shape[0] is None else max(inputs[1].shape[0] - 1, 0)]))],
    inputs=('input_values', 'input_splits'), outputs=('output',),
    type_attrs=(('Tsplits', 1),), defaults={'errors': 'replace', 'replacement_char': 65533})


# ---- DecodeRaw ----------------------------------------------------------------------------------

_RAW_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32,
              dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64, dtypes.bool)


def _raw_item(out_type, little_endian):
    if out_type is dtypes.bool:  # one byte each; any non-zero byte is True
        return np.dtype(np.uint8)
    return np.dtype(out_type.np_dtype).newbyteorder('<' if little_endian else '>')


def _from_bytes(data, item, out_type, shape):
    out = np.frombuffer(data, dtype=item)
    out = out != 0 if out_type is dtypes.bool else out.astype(out_type.np_dtype)
    return out.reshape(shape)


def _decode_raw_kernel(bytes, out_type, little_endian=True):  # noqa: A002 - TensorFlow's name
    strings = np.asarray(bytes, dtype=object)
    flat = strings.reshape(-1)
    item = _raw_item(out_type, little_endian)
    length = len(flat[0]) if flat.size else 0
    for i, s in enumerate(flat):
        if len(s) != length:
            raise errors.InvalidArgumentError(
                message=f'DecodeRaw requires input strings to all be the same size, but '
                        f'element {i} has size {length} != {len(s)}')
    if length % item.itemsize:
        raise errors.InvalidArgumentError(
            message=f'Input to DecodeRaw has length {length} that is not a multiple of '
                    f'{item.itemsize}, the size of {out_type.name}')
    return _from_bytes(b''.join(flat), item, out_type,
                       strings.shape + (length // item.itemsize,))


def _decode_padded_raw_kernel(input_bytes, fixed_length, out_type, little_endian=True):
    strings = np.asarray(input_bytes, dtype=object)
    item, length = _raw_item(out_type, little_endian), int(fixed_length)
    if length % item.itemsize:
        raise errors.InvalidArgumentError(
            message=f'fixed_length ({length}) must be a multiple of the size of out_type '
                    f'({item.itemsize})')
    data = b''.join(s[:length].ljust(length, b'\0') for s in strings.reshape(-1))
    return _from_bytes(data, item, out_type, strings.shape + (length // item.itemsize,))


def _raw_infer(inputs, attrs):
    return [(attrs['out_type'], inputs[0].shape.concatenate([None]))]


DECODE_RAW = register('DecodeRaw', _decode_raw_kernel, _raw_infer, inputs=('bytes',),
                      outputs=('output',), type_attrs=(), defaults={'little_endian': True})
DECODE_PADDED_RAW = register('DecodePaddedRaw', _decode_padded_raw_kernel, _raw_infer,
                             inputs=('input_bytes', 'fixed_length'), outputs=('output',),
                             type_attrs=(), defaults={'little_endian': True})


# ---- the public functions -----------------------------------------------------------------------

def _scalar_string(value, public_name, what):
    t = convert_to_tensor(value)
    if t.dtype is not dtypes.string:
        raise TypeError(f'{public_name} needs a string tensor, got {t.dtype.name}.')
    if t.shape.rank != 0:
        shape = 'of unknown rank' if t.shape.rank is None else f'of shape {t.shape}'
        raise ValueError(
            f'{public_name} of a string tensor {shape} gives a RaggedTensor in TensorFlow (the '
            f'{what} of each string, of different lengths), and ragged tensors are out of scope '
            f'here (docs/reference.md). Pass one scalar string at a time (its result is a '
            f'vector), e.g. in rt.map_fn or a Python loop.')
    return t


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TensorFlow's argument name
    """The pieces of a scalar string between `sep` (runs of whitespace when None), at most
    `maxsplit` splits (op `StringSplitV2`); a vector of strings would give a RaggedTensor."""
    x = _scalar_string(input, 'rt.strings.split', 'pieces')
    attrs = {'maxsplit': int(maxsplit)} if maxsplit != -1 else None
    separator = convert_to_tensor(sep or '', dtypes.string)
    return apply(STRING_SPLIT_V2, [stack([x]), separator], attrs, name=name)[1]


def bytes_split(input, name=None):  # noqa: A002 - TensorFlow's argument name
    """The bytes of a scalar string, each a string (op `StringSplit` with an empty
    delimiter)."""
    x = _scalar_string(input, 'rt.strings.bytes_split', 'bytes')
    return apply(STRING_SPLIT, [stack([x]), convert_to_tensor('', dtypes.string)],
                 {'skip_empty': False}, name=name)[1]


def _checked_decode_attrs(encoding, errors_mode, replacement_char, replace_control):
    if not isinstance(encoding, str):
        raise TypeError(f'the encoding is a Python string such as "UTF-8", got {encoding!r}.')
    if errors_mode not in _ERRORS:
        raise errors.InvalidArgumentError(
            message=f'Value for attr \'errors\' of "{errors_mode}" is not in the list of allowed '
                    f'values: "strict", "replace", "ignore"')
    return {'input_encoding': encoding, 'errors': errors_mode,
            'replacement_char': int(replacement_char),
            'replace_control_characters': bool(replace_control)}


def unicode_decode(input, input_encoding, errors='replace', replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """The code points (int32) of a scalar string in `input_encoding` ("UTF-8", "UTF-16-BE",
    "UTF-32-BE"); invalid text gives `replacement_char`, is dropped (`errors='ignore'`) or is
    an InvalidArgumentError (`'strict'`) (op `UnicodeDecode`)."""
    x = _scalar_string(input, 'rt.strings.unicode_decode', 'code points')
    attrs = _checked_decode_attrs(input_encoding, errors, replacement_char,
                                  replace_control_characters)
    return apply(UNICODE_DECODE, [reshape(x, [-1])], attrs, name=name)[1]


def unicode_decode_with_offsets(input, input_encoding, errors='replace',  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """(code points, the int64 byte offset where each starts) of a scalar string (op
    `UnicodeDecodeWithOffsets`)."""
    x = _scalar_string(input, 'rt.strings.unicode_decode_with_offsets', 'code points')
    attrs = _checked_decode_attrs(input_encoding, errors, replacement_char,
                                  replace_control_characters)
    _, values, starts = apply(UNICODE_DECODE_WITH_OFFSETS, [reshape(x, [-1])], attrs, name=name)
    return values, starts


def unicode_split(input, input_encoding, errors='replace', replacement_char=65533,  # noqa: A002
                  name=None):
    """The characters of a scalar string, each a string in the same encoding (ops
    `UnicodeDecode`, then `UnicodeEncode` of one character a row, as TensorFlow builds it)."""
    x = _scalar_string(input, 'rt.strings.unicode_split', 'characters')
    attrs = _checked_decode_attrs(input_encoding, errors, replacement_char, False)
    values = apply(UNICODE_DECODE, [reshape(x, [-1])], attrs, name=name)[1]
    splits = range_(0, size(values, out_type=dtypes.int64) + 1, dtype=dtypes.int64)
    return apply(UNICODE_ENCODE, [values, splits],
                 {'output_encoding': input_encoding, 'errors': attrs['errors'],
                  'replacement_char': attrs['replacement_char']})


def unicode_encode(input, output_encoding, errors='replace', replacement_char=65533,  # noqa: A002
                   name=None):
    """The string of a vector of code points (a vector of strings for a matrix, one per row)
    in `output_encoding` ("UTF-8", "UTF-16-BE", "UTF-32-BE"; op `UnicodeEncode`)."""
    x = convert_to_tensor(input, dtypes.int32)
    if x.shape.rank not in (1, 2):
        raise ValueError(f'rt.strings.unicode_encode takes a vector or a matrix of code points '
                         f'(a RaggedTensor is out of scope here), got shape {x.shape}.')
    if errors not in _ERRORS:
        raise errors_module.InvalidArgumentError(
            message=f'Value for attr \'errors\' of "{errors}" is not in the list of allowed '
                    f'values: "strict", "replace", "ignore"')
    attrs = {'output_encoding': output_encoding, 'errors': errors,
             'replacement_char': int(replacement_char)}
    if x.shape.rank == 1:
        splits = stack([np.int64(0), size(x, out_type=dtypes.int64)])
        return reshape(apply(UNICODE_ENCODE, [x, splits], attrs, name=name), [])
    width = x.shape[1]
    if not width:
        raise ValueError(f'rt.strings.unicode_encode of a matrix needs a known, non-zero number '
                         f'of columns, got shape {x.shape}.')
    splits = range_(0, size(x, out_type=dtypes.int64) + 1, width, dtype=dtypes.int64)
    return apply(UNICODE_ENCODE, [reshape(x, [-1]), splits], attrs, name=name)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """The bytes of each string read as numbers of `out_type` (op `DecodeRaw`): a tensor of
    the input's shape plus one dimension; all strings need one length, a multiple of the
    dtype's size."""
    x = convert_to_tensor(input_bytes)
    out_type = dtypes.as_dtype(out_type)
    if x.dtype is not dtypes.string:
        raise errors.InvalidArgumentError(
            message=f'cannot compute DecodeRaw as input #0(zero-based) was expected to be a '
                    f'string tensor but is a {x.dtype.name} tensor [Op:DecodeRaw]')
    if out_type not in _RAW_TYPES:
        raise TypeError(f'rt.io.decode_raw reads {", ".join(d.name for d in _RAW_TYPES)}, got '
                        f'{out_type.name}.')
    attrs = {'out_type': out_type}
    if not little_endian:
        attrs['little_endian'] = False
    if fixed_length is not None:  # each string cut or padded with zero bytes to this length
        return apply(DECODE_PADDED_RAW, [x, convert_to_tensor(fixed_length, dtypes.int32)],
                     attrs, name=name)
    return apply(DECODE_RAW, [x], attrs, name=name)
