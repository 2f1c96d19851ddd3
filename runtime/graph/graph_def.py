"""GraphDef, NodeDef, AttrValue and FunctionDef, printed in TensorFlow's protobuf text format.

The classes hold the fields under their protobuf names (`node`, `input`, `attr`, `library`,
`signature`, `node_def`, `ret` ...); `str()` of any of them is the text format that
`google.protobuf.text_format` parses into the matching TensorFlow message. Map fields print
sorted by key, as protobuf does.
"""
from dataclasses import dataclass

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.ops.registry import CONST


class _Message:
    """A protobuf message: `_fields()` yields (name, value) in field order."""

    def _fields(self):
        raise NotImplementedError

    def __str__(self):
        lines = []
        _write_fields(self, lines, 0)
        return '\n'.join(lines) + ('\n' if lines else '')

    def __repr__(self):
        return str(self)


class _Enum(str):
    """An enum value, printed bare (`DT_FLOAT`)."""


def _write_fields(message, lines, depth):
    pad = '  ' * depth
    for name, value in message._fields():
        if isinstance(value, _Message):
            lines.append(f'{pad}{name} {{')
            _write_fields(value, lines, depth + 1)
            lines.append(f'{pad}}}')
        else:
            lines.append(f'{pad}{name}: {_scalar(value)}')


def _scalar(value):
    if isinstance(value, _Enum):
        return str(value)
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        value = value.encode('utf-8')
    return '"' + ''.join(_escape(b) for b in value) + '"'


def _float(value):
    if np.isnan(value):
        return 'nan'
    if np.isinf(value):
        return 'inf' if value > 0 else '-inf'
    return np.format_float_positional(value, trim='-')


def _escape(byte):
    special = {0x0A: r'\n', 0x0D: r'\r', 0x09: r'\t', 0x22: r'\"', 0x27: r"\'", 0x5C: r'\\'}
    if byte in special:
        return special[byte]
    if 0x20 <= byte < 0x7F:
        return chr(byte)
    return f'\\{byte:03o}'


class _Fields(_Message):
    """A message given as an explicit list of (name, value) pairs."""

    def __init__(self, fields):
        self._list = fields

    def _fields(self):
        return self._list


def _map_entries(field, mapping):
    """A protobuf map field: one `field { key: ... value ... }` entry per key, sorted."""
    return [(field, _Fields([('key', k), ('value', v)])) for k, v in sorted(mapping.items())]


# ---- values ---------------------------------------------------------------------------------

def shape_proto(shape):
    shape = TensorShape(shape)
    if shape.rank is None:
        return _Fields([('unknown_rank', True)])
    return _Fields([('dim', _Fields([('size', -1 if d is None else d)])) for d in shape])


_VALUE_FIELD = {
    'float32': 'float_val', 'float64': 'double_val', 'float16': 'half_val', 'int8': 'int_val',
    'int16': 'int_val', 'int32': 'int_val', 'uint8': 'int_val', 'int64': 'int64_val',
    'bool': 'bool_val', 'string': 'string_val',
}


def tensor_proto(value, dtype):
    """A TensorProto: dtype, shape, and the values (one value when all are equal)."""
    arr = np.asarray(value, dtype=object if dtype is dtypes.string else dtype.np_dtype)
    fields = [('dtype', _Enum(dtype.proto_name)), ('tensor_shape', shape_proto(arr.shape))]
    flat = arr.ravel()
    if flat.size:
        if all(x == flat[0] for x in flat[1:]) if dtype is dtypes.string else \
                bool(np.all(flat == flat[0])):
            flat = flat[:1]
        field = _VALUE_FIELD[dtype.name]
        for x in flat:
            fields.append((field, _python_scalar(x, dtype)))
    return _Fields(fields)


def _python_scalar(x, dtype):
    if dtype is dtypes.string:
        return x if isinstance(x, bytes) else str(x).encode('utf-8')
    if dtype is dtypes.float16:
        return int(np.float16(x).view(np.uint16))
    if dtype.is_bool:
        return bool(x)
    if dtype.is_integer:
        return int(x)
    return float(x)


@dataclass(frozen=True, slots=True)
class FunctionRef:
    """The value of a `func` attr: the name of a function in the library."""

    name: str


class AttrValue(_Message):
    """One attr value; `.value` is the Python value it was made from."""

    def __init__(self, value, dtype_hint=None):
        self.value = value
        self._dtype_hint = dtype_hint

    def _fields(self):
        return [_attr_field(self.value, self._dtype_hint)]


def _attr_field(value, dtype_hint=None):
    if isinstance(value, dtypes.DType):
        return 'type', _Enum(value.proto_name)
    if isinstance(value, TensorShape):
        return 'shape', shape_proto(value)
    if isinstance(value, FunctionRef):
        return 'func', _Fields([('name', value.name)])
    if isinstance(value, (np.ndarray, np.generic)) or dtype_hint is not None:
        dtype = dtype_hint or dtypes.from_numpy(np.asarray(value).dtype)
        return 'tensor', tensor_proto(value, dtype)
    if isinstance(value, bool):
        return 'b', value
    if isinstance(value, int):
        return 'i', value
    if isinstance(value, float):
        return 'f', value
    if isinstance(value, (str, bytes)):
        return 's', value
    if isinstance(value, (list, tuple)):
        return 'list', _Fields([_list_item(v) for v in value])
    return 's', repr(value)  # a Python object only the kernel uses (an output stream)


def _list_item(value):
    if value is None:
        return 's', '{}'  # a placeholder slot of a print template
    return _attr_field(value)


class NodeDef(_Message):
    def __init__(self, name, op, input, attr, device=''):
        self.name = name
        self.op = op
        self.input = input
        self.attr = attr
        self.device = device

    def _fields(self):
        return ([('name', self.name), ('op', self.op)] + [('input', i) for i in self.input] +
                ([('device', self.device)] if self.device else []) +
                _map_entries('attr', self.attr))


class OpDefProto(_Message):
    """A function's signature: name, input_arg and output_arg (name and type)."""

    def __init__(self, name, input_arg, output_arg, is_stateful):
        self.name = name
        self.input_arg = input_arg
        self.output_arg = output_arg
        self.is_stateful = is_stateful

    def _fields(self):
        fields = [('name', self.name)]
        fields += [('input_arg', _Fields([('name', n), ('type', _Enum(t.proto_name))]))
                   for n, t in self.input_arg]
        fields += [('output_arg', _Fields([('name', n), ('type', _Enum(t.proto_name))]))
                   for n, t in self.output_arg]
        if self.is_stateful:
            fields.append(('is_stateful', True))
        return fields


class FunctionDef(_Message):
    def __init__(self, signature, node_def, ret, arg_attr):
        self.signature = signature
        self.node_def = node_def
        self.ret = ret
        self.arg_attr = arg_attr

    def _fields(self):
        return ([('signature', self.signature)] + [('node_def', n) for n in self.node_def] +
                _map_entries('ret', self.ret) +
                [('arg_attr', _Fields([('key', k), ('value', _Fields(_map_entries('attr', v)))]))
                 for k, v in sorted(self.arg_attr.items())])


class FunctionDefLibrary(_Message):
    def __init__(self, function):
        self.function = function

    def _fields(self):
        return [('function', f) for f in self.function]


class GraphDef(_Message):
    def __init__(self, node, library):
        self.node = node
        self.library = library

    def _fields(self):
        fields = [('node', n) for n in self.node]
        if self.library.function:
            fields.append(('library', self.library))
        fields.append(('versions', _Fields([('producer', 1)])))
        return fields


# ---- from graphs ---------------------------------------------------------------------------------

def _attrs(op):
    hint = op.attrs['dtype'] if op.opdef is CONST else None
    return {k: AttrValue(v, hint if k == 'value' else None)
            for k, v in op.attrs.items() if v is not None}


def node_def(op, tensor_ref=None):
    ref = tensor_ref or _graph_ref
    inputs = [ref(t) for t in op.inputs] + [f'^{c.name}' for c in op.control_inputs]
    return NodeDef(op.name, op.type, inputs, _attrs(op), op.device)


def _graph_ref(t):
    return t.op.name if t.value_index == 0 else f'{t.op.name}:{t.value_index}'


def graph_def(graph):
    """The GraphDef of `graph` and every function in its library."""
    nodes = [node_def(op) for op in graph.operations]
    functions = [function_def(fg) for _, fg in sorted(graph.library.items())]
    return GraphDef(nodes, FunctionDefLibrary(functions))


def function_def(fg):
    """A FunctionDef: inputs are args, inner inputs are `node:out_arg:index`."""
    arg_of = {id(t): t.op.name for t in fg.inputs}

    def ref(t):
        arg = arg_of.get(id(t))
        if arg is not None:
            return arg
        return f'{t.op.name}:{t.op.opdef.output_arg(t.value_index)}'

    nodes = [node_def(op, ref) for op in fg.operations if id(op.outputs[0] if op.outputs else op)
             not in arg_of]
    out_names = []
    used = set()
    for t in fg.outputs:
        base = t.op.name.replace('/', '_').lower()
        name, n = base, 1
        while name in used:
            name, n = f'{base}_{n}', n + 1
        used.add(name)
        out_names.append(name)
    signature = OpDefProto(fg.name, [(arg_of[id(t)], t.dtype) for t in fg.inputs],
                           list(zip(out_names, [t.dtype for t in fg.outputs])), fg.is_stateful())
    ret = {name: ref(t) for name, t in zip(out_names, fg.outputs)}
    arg_attr = {i: {'_output_shapes': AttrValue([t.shape])} for i, t in enumerate(fg.inputs)}
    return FunctionDef(signature, nodes, ret, arg_attr)
