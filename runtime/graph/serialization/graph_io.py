"""THE GraphDef message model: protobuf messages as the dicts `wire` and `text_format` read and
write, `Message` for reading them by attribute, and the values in them (dtypes, shapes, tensors,
attrs) to and from their runtime form.

A message is a dict of field name -> value in the form of `schema.SCHEMA` (repeated fields are
lists, map fields dicts, enums ints, `bytes` fields bytes). Every producer builds that form, through
the builders here and in `runtime/graph/graph_def.py` (a graph's GraphDef), and every consumer
reads it: `wire.encode` (binary), `text_format.format` (text, what `print(graph_def)` shows),
`runtime/graph/importer.py` (back into a graph), and autograph's SavedModel writer and loaders.
`Message` is such a dict that also reads its fields as attributes (`graph_def.node[0].op`, an
unset field giving protobuf's default) and prints as text; `graph.as_graph_def()` returns one.
Nothing imports a graph here, so the serialization package sits below `runtime/graph/graph.py`.
"""
from dataclasses import dataclass

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.graph.serialization import text_format, wire
from runtime.graph.serialization.schema import MAP, REP, SCHEMA

_BY_ENUM = {d.enum: d for d in (dtypes.PUBLIC + (dtypes.resource, dtypes.variant))}
_VALUE_FIELDS = {
    'float32': 'float_val', 'float64': 'double_val', 'float16': 'half_val', 'int8': 'int_val',
    'int16': 'int_val', 'int32': 'int_val', 'uint8': 'int_val', 'int64': 'int64_val',
    'bool': 'bool_val', 'string': 'string_val',
    'complex64': 'scomplex_val', 'complex128': 'dcomplex_val',  # (real, imag) pairs
}
_SCALAR_DEFAULTS = {'string': '', 'bytes': b'', 'bool': False, 'float': 0.0, 'double': 0.0}

# The op types that call a library function named by their attr `f`; inlined on import.
CALL_OPS = frozenset({'PartitionedCall', 'StatefulPartitionedCall'})


class Message(dict):
    """A message of type `type_name` in the dict form, its fields also read as attributes: a
    nested message comes back as a `Message` (stored in place, so edits through it persist), an
    unset field as protobuf's default. Fields named like a dict method (`values`, `items`) are
    read by key. `str()` is the text format."""

    __slots__ = ('type_name',)

    def __init__(self, type_name, fields=()):
        super().__init__(fields)
        self.type_name = type_name

    def __getattr__(self, name):
        try:
            spec = SCHEMA[self.type_name][name]
        except KeyError:
            raise AttributeError(f'{self.type_name} has no field {name!r}') from None
        if name not in self:
            if spec.label == REP:
                return []
            if spec.label == MAP:
                return {}
            if spec.kind in SCHEMA:
                return message(spec.kind)
            return _SCALAR_DEFAULTS.get(spec.kind, 0)
        value = self[name]
        if spec.label == MAP:
            kind = spec.kind[1]
            if kind in SCHEMA:
                for key, item in value.items():
                    value[key] = message(kind, item)
        elif spec.kind in SCHEMA:
            if spec.label == REP:
                value[:] = [message(spec.kind, item) for item in value]
            else:
                value = self[name] = message(spec.kind, value)
        return value

    def __str__(self):
        return text_format.format(self.type_name, self)

    __repr__ = __str__


class AttrValue(Message):
    """An AttrValue message; `.value` is its runtime value (a DType, TensorShape, numpy array,
    FunctionRef, number, string or list of them)."""

    __slots__ = ()

    def __init__(self, fields=()):
        super().__init__('AttrValue', fields)

    @property
    def value(self):
        return attr_from_proto(self)


def message(type_name, fields=None):
    """`fields` (a dict) as a Message of `type_name`; a Message of that type stays itself."""
    if isinstance(fields, Message) and fields.type_name == type_name:
        return fields
    if type_name == 'AttrValue':
        return AttrValue(fields or ())
    return Message(type_name, fields or ())


@dataclass(frozen=True, slots=True)
class FunctionRef:
    """The value of a `func` attr: the name of a function in the library."""

    name: str


# ---- graphs as bytes and text ------------------------------------------------------------------

def graph_def_message(graph):
    """The GraphDef of `graph` (and its library): `graph.as_graph_def()`."""
    return graph.as_graph_def()


def serialize_graph(graph):
    """`graph` as GraphDef bytes in TensorFlow's binary format."""
    return wire.encode('GraphDef', graph.as_graph_def())


def parse_graph_def(data):
    """A GraphDef Message from binary bytes or protobuf text (str)."""
    if isinstance(data, str):
        return message('GraphDef', text_format.parse('GraphDef', data))
    return message('GraphDef', wire.decode('GraphDef', data))


# ---- values ------------------------------------------------------------------------------------

def as_dtype(enum):
    try:
        return _BY_ENUM[enum]
    except KeyError:
        raise ValueError(f'DataType enum {enum} has no runtime dtype.') from None


def shape_from_proto(message):
    if message.get('unknown_rank'):
        return TensorShape(None)
    return TensorShape([None if d.get('size', 0) < 0 else d.get('size', 0)
                        for d in message.get('dim', [])])


def shape_to_proto(shape):
    shape = TensorShape(shape)
    if shape.rank is None:
        return {'unknown_rank': True}
    return {'dim': [{'size': -1 if d is None else d} for d in shape]} if shape.rank else {}


def tensor_from_proto(message):
    """The numpy value of a TensorProto (a numpy scalar for shape ())."""
    dtype = as_dtype(message.get('dtype', 0))
    shape = shape_from_proto(message.get('tensor_shape', {}))
    if shape.rank is None or None in shape.as_list():
        raise ValueError('A TensorProto must have a fully defined shape.')
    dims = shape.as_list()
    size = int(np.prod(dims, dtype=np.int64))
    content = message.get('tensor_content')
    if content and dtype is not dtypes.string:
        arr = np.frombuffer(content, dtype=dtype.np_dtype.newbyteorder('<')).astype(
            dtype.np_dtype)
        if arr.size != size:
            raise ValueError(f'A TensorProto of shape {dims} holds {arr.size} values.')
    else:
        values = message.get(_VALUE_FIELDS[dtype.name], [])
        if dtype is dtypes.float16:
            values = np.array(values, dtype=np.uint16).view(np.float16)
        elif dtype.is_complex:
            values = np.array(values, dtype=dtype.real_dtype.np_dtype).view(dtype.np_dtype)
        if dtype is dtypes.string:
            arr = np.empty(len(values), dtype=object)
            arr[:] = list(values)
        else:
            arr = np.array(values, dtype=dtype.np_dtype)
        if arr.size < size:  # protobuf repeats the last value to fill the shape
            fill = arr[-1] if arr.size else (b'' if dtype is dtypes.string else 0)
            arr = np.concatenate([arr, np.full(size - arr.size, fill, dtype=arr.dtype)])
        elif arr.size > size:
            raise ValueError(f'A TensorProto of shape {dims} holds {arr.size} values.')
    arr = arr.reshape(dims)
    return arr[()] if arr.ndim == 0 else arr


def tensor_to_proto(value, dtype):
    """A TensorProto message; numbers go in `tensor_content` as TensorFlow writes them."""
    arr = np.asarray(value, dtype=object if dtype is dtypes.string else dtype.np_dtype)
    message = {'dtype': dtype.enum, 'tensor_shape': shape_to_proto(arr.shape)}
    if dtype is dtypes.string:
        message['string_val'] = [v if isinstance(v, bytes) else str(v).encode('utf-8')
                                 for v in arr.ravel()]
    elif arr.size:
        message['tensor_content'] = arr.astype(arr.dtype.newbyteorder('<')).tobytes()
    return message


def tensor_values_proto(value, dtype):
    """A TensorProto with the values listed (`float_val`, ...; one value when all are equal), the
    form graphs print their constants in."""
    arr = np.asarray(value, dtype=object if dtype is dtypes.string else dtype.np_dtype)
    message = {'dtype': dtype.enum, 'tensor_shape': shape_to_proto(arr.shape)}
    flat = arr.ravel()
    if flat.size:
        if all(x == flat[0] for x in flat[1:]) if dtype is dtypes.string else \
                bool(np.all(flat == flat[0])):
            flat = flat[:1]
        if dtype.is_complex:  # each value as its real and imaginary parts
            flat = flat.view(dtype.real_dtype.np_dtype)
        message[_VALUE_FIELDS[dtype.name]] = [_python_scalar(x, dtype) for x in flat]
    return message


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


def attr_value(value, dtype_hint=None):
    """The AttrValue of a runtime attr value (`dtype_hint`: the dtype of a tensor attr, e.g. a
    Const's `value`); an AttrValue given stays itself."""
    if isinstance(value, AttrValue):
        return value
    kind, field = _attr_field(value, dtype_hint)
    return AttrValue({kind: field})


def _attr_field(value, dtype_hint=None):
    if isinstance(value, dtypes.DType):
        return 'type', value.enum
    if isinstance(value, TensorShape):
        return 'shape', shape_to_proto(value)
    if isinstance(value, FunctionRef):
        return 'func', {'name': value.name}
    if isinstance(value, (np.ndarray, np.generic)) or dtype_hint is not None:
        dtype = dtype_hint or dtypes.from_numpy(np.asarray(value).dtype)
        return 'tensor', tensor_values_proto(value, dtype)
    if isinstance(value, bool):
        return 'b', value
    if isinstance(value, int):
        return 'i', value
    if isinstance(value, float):
        return 'f', value
    if isinstance(value, (str, bytes)):
        return 's', value.encode('utf-8') if isinstance(value, str) else value
    if isinstance(value, (list, tuple)):
        items = {}
        for item in value:
            kind, field = ('s', b'{}') if item is None else _attr_field(item)  # an empty slot
            items.setdefault(kind, []).append(field)
        return 'list', items
    return 's', repr(value).encode('utf-8')  # a Python object only the kernel uses (a stream)


def attr_from_proto(message):
    """The runtime value of an AttrValue."""
    if not message:
        return None
    (kind, value), = message.items()
    if kind == 'list':
        for field in ('s', 'i', 'f', 'b', 'type', 'shape', 'tensor', 'func'):
            if field in value:
                items = [_attr_scalar(field, v) for v in value[field]]
                if field == 's':  # graph_def writes a None item (an empty slot) as "{}"
                    items = [None if v == '{}' else v for v in items]
                return items
        return []
    return _attr_scalar(kind, value)


def _attr_scalar(kind, value):
    if kind == 'type':
        return as_dtype(value)
    if kind == 'shape':
        return shape_from_proto(value)
    if kind == 'tensor':
        return tensor_from_proto(value)
    if kind == 'func':
        return FunctionRef(value.get('name', ''))
    if kind == 's':
        try:
            return value.decode('utf-8')
        except UnicodeDecodeError:
            return value
    if kind == 'placeholder':
        raise ValueError(f'Attr placeholder {value!r} is only valid inside a function template.')
    return value
