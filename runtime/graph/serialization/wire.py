"""The protocol-buffer binary wire format, driven by the message definitions in `schema`.

A message is a plain dict from field name to value: a scalar (`str` for `string`, `bytes` for
`bytes`, `int`, `float`, `bool`), a dict for a sub-message, a list for a repeated field and a
dict for a map field. Fields absent from the dict are unset. `encode(type_name, message)` gives
the bytes protobuf would write (repeated numbers packed, as proto3 does); `decode` reads them
back, accepts packed or unpacked repeated numbers, skips unknown fields and raises `DecodeError`
on bytes that are not a well-formed message.
"""
import struct

from runtime.graph.serialization.schema import MAP, ONEOF, REP, SCHEMA, Field

VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5

_WIRE_TYPE = {'int32': VARINT, 'int64': VARINT, 'uint32': VARINT, 'uint64': VARINT,
              'sint64': VARINT, 'bool': VARINT, 'enum': VARINT, 'fixed64': FIXED64,
              'fixed32': FIXED32,
              'double': FIXED64, 'float': FIXED32, 'string': LENGTH, 'bytes': LENGTH}
_DEFAULTS = {'string': '', 'bytes': b'', 'float': 0.0, 'double': 0.0, 'bool': False}


class DecodeError(ValueError):
    """Bytes that are not a well-formed message of the expected type."""


# ---- encoding ----------------------------------------------------------------------------------

def encode(type_name, message):
    out = bytearray()
    _encode_message(SCHEMA[type_name], message, out)
    return bytes(out)


def put_varint(value, out):
    """Append `value` to bytearray `out` as a varint (a negative int as 64-bit two's
    complement)."""
    if value < 0:
        value += 1 << 64
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _key(number, wire_type, out):
    put_varint((number << 3) | wire_type, out)


def _encode_message(fields, message, out):
    for name in message:
        if name not in fields:
            raise KeyError(f'{name!r} is not a field of this message; fields: {sorted(fields)}')
    for name, spec in _in_number_order(fields):  # protobuf writes fields by number
        value = message.get(name)
        if value is None:
            continue
        if spec.label == MAP:
            key_kind, value_kind = spec.kind
            for k in sorted(value):
                entry = bytearray()
                _encode_value(1, key_kind, k, entry)
                _encode_value(2, value_kind, value[k], entry)
                _key(spec.number, LENGTH, out)
                put_varint(len(entry), out)
                out += entry
        elif spec.label == REP:
            if spec.kind in _WIRE_TYPE and _WIRE_TYPE[spec.kind] != LENGTH:
                if value:
                    packed = bytearray()
                    for item in value:
                        _scalar(spec.kind, item, packed)
                    _key(spec.number, LENGTH, out)
                    put_varint(len(packed), out)
                    out += packed
            else:
                for item in value:
                    _encode_value(spec.number, spec.kind, item, out)
        elif spec.label == ONEOF or not _is_default(spec.kind, value):
            _encode_value(spec.number, spec.kind, value, out)


def _is_default(kind, value):
    if kind in SCHEMA:
        return False
    return value == _DEFAULTS.get(kind, 0)


def _encode_value(number, kind, value, out):
    if kind in SCHEMA:
        body = bytearray()
        _encode_message(SCHEMA[kind], value, body)
        _key(number, LENGTH, out)
        put_varint(len(body), out)
        out += body
        return
    wire_type = _WIRE_TYPE[kind]
    _key(number, wire_type, out)
    if wire_type == LENGTH:
        data = value.encode('utf-8') if isinstance(value, str) else bytes(value)
        put_varint(len(data), out)
        out += data
    else:
        _scalar(kind, value, out)


def _scalar(kind, value, out):
    if kind == 'float':
        out += struct.pack('<f', value)
    elif kind == 'double':
        out += struct.pack('<d', value)
    elif kind == 'fixed64':
        out += struct.pack('<Q', value)
    elif kind == 'fixed32':
        out += struct.pack('<I', value)
    elif kind == 'sint64':
        put_varint((value << 1) ^ (value >> 63), out)
    else:
        put_varint(int(value), out)


# ---- decoding ----------------------------------------------------------------------------------

def decode(type_name, data):
    """The message of type `type_name` in `data`; DecodeError when `data` is not one."""
    try:
        return _decode_message(SCHEMA[type_name], memoryview(data), 0, len(data))
    except (IndexError, struct.error, UnicodeDecodeError) as e:
        raise DecodeError(f'not a valid {type_name} message ({e})') from None


def read_varint(data, pos):
    """The varint at `data[pos]` and the position after it (IndexError past the end)."""
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise DecodeError('a varint runs past 10 bytes')


def _decode_message(fields, data, pos, end):
    by_number = _numbers(fields)
    message = {}
    while pos < end:
        key, pos = read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise DecodeError('field number 0')
        if wire_type == VARINT:
            raw, pos = read_varint(data, pos)
        elif wire_type == FIXED64:
            raw, pos = data[pos:pos + 8], pos + 8
        elif wire_type == FIXED32:
            raw, pos = data[pos:pos + 4], pos + 4
        elif wire_type == LENGTH:
            size, pos = read_varint(data, pos)
            raw, pos = (pos, pos + size), pos + size
        else:
            raise DecodeError(f'unsupported wire type {wire_type} for field {number}')
        if pos > end:
            raise DecodeError('the message is truncated')
        found = by_number.get(number)
        if found is None:
            continue  # an unknown field, skipped as protobuf does
        name, spec = found
        if spec.label == MAP:
            key_kind, value_kind = spec.kind
            entry = _decode_message(_entry_fields(spec.kind), data, raw[0], raw[1])
            message.setdefault(name, {})[entry.get('key', _default(key_kind))] = entry.get(
                'value', _default(value_kind))
        elif spec.label == REP:
            items = message.setdefault(name, [])
            if wire_type == LENGTH and _WIRE_TYPE.get(spec.kind, LENGTH) != LENGTH:
                items.extend(_unpack(spec.kind, data, *raw))
            else:
                items.append(_value(spec.kind, wire_type, raw, data))
        else:
            value = _value(spec.kind, wire_type, raw, data)
            if spec.kind in SCHEMA and name in message:  # repeated occurrences merge
                message[name].update(value)
            else:
                message[name] = value
    return message


_NUMBER_CACHE = {}
_ORDER_CACHE = {}


def _in_number_order(fields):
    found = _ORDER_CACHE.get(id(fields))
    if found is None:
        found = _ORDER_CACHE[id(fields)] = sorted(fields.items(), key=lambda f: f[1].number)
    return found


def _numbers(fields):
    found = _NUMBER_CACHE.get(id(fields))
    if found is None:
        found = _NUMBER_CACHE[id(fields)] = {spec.number: (name, spec)
                                              for name, spec in fields.items()}
    return found


_ENTRY_FIELDS = {}


def _entry_fields(kinds):
    """The fields of a map entry message: key = 1, value = 2."""
    found = _ENTRY_FIELDS.get(kinds)
    if found is None:
        found = _ENTRY_FIELDS[kinds] = {'key': Field(1, kinds[0]), 'value': Field(2, kinds[1])}
    return found


def _default(kind):
    if kind in SCHEMA:
        return {}
    return _DEFAULTS.get(kind, 0)


def _value(kind, wire_type, raw, data):
    if kind in SCHEMA:
        if wire_type != LENGTH:
            raise DecodeError(f'a {kind} message field has wire type {wire_type}')
        return _decode_message(SCHEMA[kind], data, raw[0], raw[1])
    expected = _WIRE_TYPE[kind]
    if expected != wire_type:
        raise DecodeError(f'a {kind} field has wire type {wire_type}, expected {expected}')
    if wire_type == LENGTH:
        chunk = bytes(data[raw[0]:raw[1]])
        return chunk.decode('utf-8') if kind == 'string' else chunk
    if wire_type == VARINT:
        return _from_varint(kind, raw)
    if kind == 'float':
        return struct.unpack('<f', raw)[0]
    if kind == 'double':
        return struct.unpack('<d', raw)[0]
    if kind == 'fixed32':
        return struct.unpack('<I', raw)[0]
    return struct.unpack('<Q', raw)[0]


def _from_varint(kind, raw):
    if kind == 'bool':
        return raw != 0
    if kind == 'sint64':
        return (raw >> 1) ^ -(raw & 1)
    if kind in ('int32', 'int64', 'enum'):
        raw &= (1 << 64) - 1
        if raw >= 1 << 63:
            raw -= 1 << 64
        return raw
    return raw


def _unpack(kind, data, start, end):
    wire_type = _WIRE_TYPE[kind]
    if wire_type == FIXED32 or wire_type == FIXED64:
        code = {'float': 'f', 'double': 'd', 'fixed64': 'Q', 'fixed32': 'I'}[kind]
        size = 4 if wire_type == FIXED32 else 8
        if (end - start) % size:
            raise DecodeError(f'a packed {kind} field is not a whole number of values')
        return list(struct.unpack(f'<{(end - start) // size}{code}', data[start:end]))
    out = []
    pos = start
    while pos < end:
        raw, pos = read_varint(data, pos)
        out.append(_from_varint(kind, raw))
    if pos != end:
        raise DecodeError('a packed field runs past its end')
    return out
