"""The protobuf text format (what `print(graph.as_graph_def())` shows), written and read.

`format(type_name, message)` writes a message of the dict form of `wire`: fields in field-number
order (as protobuf prints them), map fields as `{ key: ... value ... }` entries sorted by key,
enums by name, strings with C escapes (octal for bytes outside printable ASCII), floats in their
shortest positional form. `parse(type_name, text)` reads `field: value` and `field { ... }` (or
`field < ... >`) into the same dict form: map fields from their entries, enums by name, strings
with C escapes. Errors are `ValueError`s naming the line.
"""
import re

import numpy as np

from runtime.graph.serialization.schema import DATA_TYPE_NAMES, DATA_TYPES, MAP, REP, SCHEMA

_TOKEN = re.compile(r'''
    (?P<space>[ \t\r\n,;]+|\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<number>[-+]?(?:inf(?:inity)?|nan|(?:0[xX][0-9a-fA-F]+)
                 |(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fF]?)(?![\w]))
  | (?P<word>[A-Za-z_][\w.]*)
  | (?P<punct>[:{}<>\[\]-])
''', re.VERBOSE)

_ESCAPES = {'n': 10, 'r': 13, 't': 9, '"': 34, "'": 39, '\\': 92, 'a': 7, 'b': 8, 'f': 12,
            'v': 11, '?': 63}


class _Tokens:
    def __init__(self, text):
        self.items = []
        pos, line = 0, 1
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise ValueError(f'line {line}: unexpected character {text[pos]!r} in protobuf '
                                 f'text')
            if m.lastgroup != 'space':
                self.items.append((m.lastgroup, m.group(), line))
            line += m.group().count('\n')
            pos = m.end()
        self.pos = 0

    def peek(self):
        return self.items[self.pos] if self.pos < len(self.items) else (None, None, self.line)

    @property
    def line(self):
        return self.items[-1][2] if self.items else 1

    def next(self):
        token = self.peek()
        if token[0] is None:
            raise ValueError(f'line {token[2]}: the protobuf text ends too early')
        self.pos += 1
        return token

    def accept(self, text):
        if self.peek()[1] == text:
            self.pos += 1
            return True
        return False


def parse(type_name, text):
    tokens = _Tokens(text)
    message = _message(tokens, type_name, None)
    kind, value, line = tokens.peek()
    if kind is not None:
        raise ValueError(f'line {line}: unexpected {value!r}')
    return message


def _message(tokens, type_name, closing):
    fields = SCHEMA[type_name]
    message = {}
    while True:
        kind, word, line = tokens.peek()
        if kind is None and closing is None:
            return message
        if word == closing:
            tokens.next()
            return message
        kind, word, line = tokens.next()
        if kind != 'word':
            raise ValueError(f'line {line}: expected a field name, got {word!r}')
        spec = fields.get(word)
        if spec is None:
            raise ValueError(f'line {line}: {type_name} has no field {word!r}')
        is_message = spec.label == MAP or spec.kind in SCHEMA
        colon = tokens.accept(':')
        if tokens.accept('['):
            values = []
            while not tokens.accept(']'):
                values.append(_value(tokens, spec, is_message, line))
        else:
            if not colon and not is_message:
                raise ValueError(f'line {line}: expected ":" after {word!r}')
            values = [_value(tokens, spec, is_message, line)]
        for value in values:
            if spec.label == MAP:
                key_kind, value_kind = spec.kind
                message.setdefault(word, {})[value.get('key', '' if key_kind == 'string'
                                                       else 0)] = value.get(
                    'value', {} if value_kind in SCHEMA else '')
            elif spec.label == REP:
                message.setdefault(word, []).append(value)
            else:
                message[word] = value


def _value(tokens, spec, is_message, line):
    if is_message:
        opening = tokens.next()[1]
        if opening not in ('{', '<'):
            raise ValueError(f'line {line}: expected "{{" to open a message, got {opening!r}')
        closing = '}' if opening == '{' else '>'
        if spec.label == MAP:
            key_kind, value_kind = spec.kind
            return _entry(tokens, key_kind, value_kind, closing)
        return _message(tokens, spec.kind, closing)
    return _scalar(tokens, spec.kind)


def _entry(tokens, key_kind, value_kind, closing):
    entry = {}
    while not tokens.accept(closing):
        kind, word, line = tokens.next()
        if word not in ('key', 'value'):
            raise ValueError(f'line {line}: a map entry has only key and value, got {word!r}')
        field_kind = key_kind if word == 'key' else value_kind
        tokens.accept(':')
        if field_kind in SCHEMA:
            opening = tokens.next()[1]
            entry[word] = _message(tokens, field_kind, '}' if opening == '{' else '>')
        else:
            entry[word] = _scalar(tokens, field_kind)
    return entry


def _scalar(tokens, kind):
    token_kind, text, line = tokens.next()
    if kind in ('string', 'bytes'):
        if token_kind != 'string':
            raise ValueError(f'line {line}: expected a quoted string, got {text!r}')
        data = _unescape(text[1:-1], line)
        while tokens.peek()[0] == 'string':  # adjacent strings concatenate
            data += _unescape(tokens.next()[1][1:-1], line)
        return data.decode('utf-8') if kind == 'string' else data
    if kind == 'bool':
        if text in ('true', 't', '1', 'True'):
            return True
        if text in ('false', 'f', '0', 'False'):
            return False
        raise ValueError(f'line {line}: expected true or false, got {text!r}')
    if kind == 'enum':
        if token_kind == 'word':
            if text not in DATA_TYPES:
                raise ValueError(f'line {line}: unknown enum value {text!r}')
            return DATA_TYPES[text]
        return int(text)
    if token_kind == 'punct' and text == '-':
        token_kind, text, line = tokens.next()
        text = '-' + text
    if token_kind != 'number' and text.lower().lstrip('-+') not in ('inf', 'infinity', 'nan'):
        raise ValueError(f'line {line}: expected a number, got {text!r}')
    if kind in ('float', 'double'):
        return float(text.rstrip('fF') if not text.lower().endswith('inf') else text)
    return int(text, 0)


def _unescape(body, line):
    out = bytearray()
    data = body.encode('utf-8')
    i = 0
    while i < len(data):
        c = data[i]
        if c != 0x5C:
            out.append(c)
            i += 1
            continue
        i += 1
        e = chr(data[i])
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
            i += 1
        elif e in '01234567':
            j = i
            while j < len(data) and j < i + 3 and chr(data[j]) in '01234567':
                j += 1
            out.append(int(data[i:j], 8) & 0xFF)
            i = j
        elif e in 'xX':
            j = i + 1
            while j < len(data) and j < i + 3 and chr(data[j]) in '0123456789abcdefABCDEF':
                j += 1
            out.append(int(data[i + 1:j], 16))
            i = j
        else:
            raise ValueError(f'line {line}: unknown escape \\{e} in a string')
    return bytes(out)


# ---- writing -----------------------------------------------------------------------------------

def format(type_name, message):
    """`message` in the text format: one `field: value` or `field {` line per value."""
    lines = []
    _format_fields(type_name, message, lines, '')
    return '\n'.join(lines) + ('\n' if lines else '')


def _format_fields(type_name, message, lines, pad):
    fields = SCHEMA[type_name]
    for name in sorted(message, key=lambda name: fields[name].number):
        spec, value = fields[name], message[name]
        if spec.label == MAP:
            key_kind, value_kind = spec.kind
            for key in sorted(value):
                lines.append(f'{pad}{name} {{')
                lines.append(f'{pad}  key: {_format_scalar(key_kind, key)}')
                _format_value('value', value_kind, value[key], lines, pad + '  ')
                lines.append(f'{pad}}}')
        else:
            for item in value if spec.label == REP else (value,):
                _format_value(name, spec.kind, item, lines, pad)


def _format_value(name, kind, value, lines, pad):
    if kind in SCHEMA:
        lines.append(f'{pad}{name} {{')
        _format_fields(kind, value, lines, pad + '  ')
        lines.append(f'{pad}}}')
    else:
        lines.append(f'{pad}{name}: {_format_scalar(kind, value)}')


def _format_scalar(kind, value):
    if kind in ('string', 'bytes'):
        data = value.encode('utf-8') if isinstance(value, str) else value
        return '"' + ''.join(_escape(b) for b in data) + '"'
    if kind == 'bool':
        return 'true' if value else 'false'
    if kind == 'enum':
        return DATA_TYPE_NAMES.get(value, str(value))
    if kind in ('float', 'double'):
        if np.isnan(value):
            return 'nan'
        if np.isinf(value):
            return 'inf' if value > 0 else '-inf'
        return np.format_float_positional(value, trim='-')
    return str(int(value))


def _escape(byte):
    special = {0x0A: r'\n', 0x0D: r'\r', 0x09: r'\t', 0x22: r'\"', 0x27: r"\'", 0x5C: r'\\'}
    if byte in special:
        return special[byte]
    if 0x20 <= byte < 0x7F:
        return chr(byte)
    return f'\\{byte:03o}'
