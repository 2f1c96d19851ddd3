"""`tf.train.Example` and its parts as protocol-buffer messages: `Example`, `SequenceExample`,
`Features`, `Feature`, `FeatureLists`, `FeatureList`, `BytesList`, `FloatList`, `Int64List`.

Each class behaves as the class protobuf generates from TensorFlow's
tensorflow/core/example/{example,feature}.proto: keyword fields in the constructor
(`Feature(int64_list=Int64List(value=[1, 2]))`), attribute access (an unset sub-message reads as
an empty one, and writing into it sets it), repeated fields as lists (`append`, `extend`,
`add()`), map fields as dicts whose missing entries are made on access
(`features.feature['x'].float_list.value.append(1.0)`), the `kind` oneof of `Feature`
(`WhichOneof('kind')`), `SerializeToString()` (the bytes protobuf writes: the wire encoder of
runtime/graph/serialization/wire.py over the same schema), `FromString`, `ParseFromString`,
`CopyFrom`, `MergeFrom`, `HasField`, `ClearField`, `Clear` and `ByteSize`. `str(message)` is the
text format.
"""
import numpy as np

from runtime.graph.serialization import text_format, wire
from runtime.graph.serialization.schema import MAP, ONEOF, REP, SCHEMA

_SCALAR_DEFAULTS = {'bytes': b'', 'float': 0.0, 'int64': 0, 'string': ''}


def _checked(kind, value):
    """`value` as a field of scalar `kind` holds it, or TypeError as protobuf's."""
    if kind == 'bytes':
        if isinstance(value, (bytes, np.bytes_)):
            return bytes(value)
        raise TypeError(f'{value!r} has type {type(value).__name__}, but expected one of: '
                        f'bytes')
    if kind == 'int64':
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError(f'{value!r} has type {type(value).__name__}, but expected one of: '
                            f'int')
        if not -2 ** 63 <= int(value) < 2 ** 63:
            raise ValueError(f'Value out of range: {value}')
        return int(value)
    if kind == 'float':
        if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, np.number)):
            raise TypeError(f'{value!r} has type {type(value).__name__}, but expected one of: '
                            f'int, float')
        return float(np.float32(value))
    if kind == 'string':
        if isinstance(value, bytes):
            return value.decode('utf-8')
        if not isinstance(value, str):
            raise TypeError(f'{value!r} has type {type(value).__name__}, but expected one of: '
                            f'bytes, str')
        return value
    return value


class Message:
    """A message of the schema type `TYPE`; see the module docstring."""

    TYPE = ''
    __slots__ = ('values', 'owner', 'present')

    def __init__(self, *args, **fields):
        if args:
            raise TypeError('No positional arguments allowed')
        self.values = {}  # field name -> scalar, Message, RepeatedField or MessageMap
        self.owner = None  # (parent message, field name) while unset in the parent
        self.present = False
        for name, value in fields.items():
            if value is None:
                continue
            spec = self.field_spec(name)
            if spec.label in (REP, MAP):
                container = getattr(self, name)
                if spec.label == MAP:
                    for key, item in dict(value).items():
                        container.assign(key, item)
                else:
                    container.extend(value)
            elif spec.kind in SCHEMA:
                getattr(self, name).CopyFrom(_as_message(spec.kind, value, name))
            else:
                setattr(self, name, value)

    # ---- fields ---------------------------------------------------------------------------

    @classmethod
    def field_spec(cls, name):
        spec = SCHEMA[cls.TYPE].get(name)
        if spec is None:
            raise ValueError(f'Protocol message {cls.__name__} has no "{name}" field.')
        return spec

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        try:
            spec = SCHEMA[type(self).TYPE][name]
        except KeyError:
            raise AttributeError(f'{type(self).__name__!r} object has no attribute '
                                 f'{name!r}') from None
        found = self.values.get(name)
        if found is not None:
            return found
        if spec.label == REP:
            made = RepeatedField(self, name, spec.kind)
        elif spec.label == MAP:
            made = MessageMap(self, name, spec.kind[1])
        elif spec.kind in SCHEMA:
            made = MESSAGES[spec.kind]()
            made.owner = (self, name)
        else:
            return _SCALAR_DEFAULTS.get(spec.kind, 0)
        if spec.label in (REP, MAP):
            self.values[name] = made
        return made

    def __setattr__(self, name, value):
        if name in Message.__slots__:
            object.__setattr__(self, name, value)
            return
        spec = self.field_spec(name)
        if spec.label in (REP, MAP) or spec.kind in SCHEMA:
            raise AttributeError(f'Assignment not allowed to field "{name}" in protocol '
                                 f'message object.')
        self.values[name] = _checked(spec.kind, value)
        self.mark_set()

    def mark_set(self):
        """This message now holds something: set it in the message it was read from."""
        if self.owner is not None:
            parent, name = self.owner
            self.owner = None
            parent.set_child(name, self)
        self.present = True

    def set_child(self, name, child):
        """Set the sub-message field `name` to `child` (and clear the rest of its oneof)."""
        if SCHEMA[type(self).TYPE][name].label == ONEOF:
            for other, spec in SCHEMA[type(self).TYPE].items():
                if spec.label == ONEOF and other != name:
                    self.values.pop(other, None)
        self.values[name] = child
        self.mark_set()

    def HasField(self, field_name):  # noqa: N802 - protobuf's method names
        spec = self.field_spec(field_name)
        if spec.label in (REP, MAP):
            raise ValueError(f'Protocol message has no singular "{field_name}" field.')
        return field_name in self.values

    def WhichOneof(self, oneof_group):  # noqa: N802
        if oneof_group != 'kind' or type(self).TYPE != 'Feature':
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return next((name for name in ('bytes_list', 'float_list', 'int64_list')
                     if name in self.values), None)

    def ClearField(self, field_name):  # noqa: N802
        self.field_spec(field_name)
        self.values.pop(field_name, None)

    def Clear(self):  # noqa: N802
        self.values.clear()

    def ListFields(self):  # noqa: N802
        fields = SCHEMA[type(self).TYPE]
        out = []
        for name in sorted(self.values, key=lambda n: fields[n].number):
            value = self.values[name]
            if fields[name].label in (REP, MAP) and not len(value):
                continue
            out.append((name, value))
        return out

    # ---- the wire format ------------------------------------------------------------------

    def to_wire(self):
        """The message as the dict the wire encoder takes."""
        out = {}
        for name, value in self.values.items():
            spec = SCHEMA[type(self).TYPE][name]
            if spec.label == MAP:
                if len(value):
                    out[name] = {k: v.to_wire() for k, v in value.items()}
            elif spec.label == REP:
                if len(value):
                    out[name] = [v.to_wire() if isinstance(v, Message) else v for v in value]
            elif isinstance(value, Message):
                out[name] = value.to_wire()
            else:
                out[name] = value
        return out

    @classmethod
    def from_wire(cls, fields):
        message = cls()
        message.merge_wire(fields)
        return message

    def merge_wire(self, fields):
        for name, value in fields.items():
            spec = SCHEMA[type(self).TYPE][name]
            if spec.label == MAP:
                container = getattr(self, name)
                for key, item in value.items():
                    container[key].merge_wire(item)
            elif spec.label == REP:
                container = getattr(self, name)
                if spec.kind in SCHEMA:
                    for item in value:
                        container.add().merge_wire(item)
                else:
                    container.extend(value)
            elif spec.kind in SCHEMA:
                child = getattr(self, name)
                child.merge_wire(value)
                child.mark_set()
            else:
                setattr(self, name, value)
        self.mark_set()

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return wire.encode(type(self).TYPE, self.to_wire())

    SerializePartialToString = SerializeToString

    def ByteSize(self):  # noqa: N802
        return len(self.SerializeToString())

    @classmethod
    def FromString(cls, s):  # noqa: N802
        message = cls()
        message.ParseFromString(s)
        return message

    def ParseFromString(self, serialized):  # noqa: N802
        self.Clear()
        return self.MergeFromString(serialized)

    def MergeFromString(self, serialized):  # noqa: N802
        data = bytes(serialized)
        try:
            fields = wire.decode(type(self).TYPE, data)
        except wire.DecodeError as e:
            raise DecodeError(f'Error parsing message with type '
                              f"'tensorflow.{type(self).__name__}': {e}") from None
        self.merge_wire(fields)
        return len(data)

    def CopyFrom(self, other_msg):  # noqa: N802
        if type(other_msg) is not type(self):
            raise TypeError(f'Parameter to CopyFrom() must be instance of same class: '
                            f'expected {type(self).__name__} got {type(other_msg).__name__}.')
        if other_msg is self:
            return
        self.Clear()
        self.merge_wire(other_msg.to_wire())

    def MergeFrom(self, other_msg):  # noqa: N802
        if type(other_msg) is not type(self):
            raise TypeError(f'Parameter to MergeFrom() must be instance of same class: '
                            f'expected {type(self).__name__} got {type(other_msg).__name__}.')
        self.merge_wire(other_msg.to_wire())

    def IsInitialized(self):  # noqa: N802
        return True  # proto3: no required fields

    def __eq__(self, other):
        return type(other) is type(self) and self.to_wire() == other.to_wire()

    def __hash__(self):
        raise TypeError('unhashable object')

    def __str__(self):
        return text_format.format(type(self).TYPE, self.to_wire())

    def __repr__(self):
        return str(self)

    def __reduce__(self):
        return type(self).FromString, (self.SerializeToString(),)


class DecodeError(Exception):
    """Bytes that are not a message of the expected type (protobuf's `DecodeError`)."""


def _as_message(kind, value, name):
    cls = MESSAGES[kind]
    if isinstance(value, cls):
        return value
    if isinstance(value, dict):
        return cls(**value)
    raise TypeError(f'Message field {name!r} must be a {cls.__name__} (or a dict of its '
                    f'fields), got {type(value).__name__}.')


class RepeatedField:
    """A repeated field: a list of scalars of `kind` or of messages of type `kind`."""

    __slots__ = ('owner', 'name', 'kind', 'items')

    def __init__(self, owner, name, kind):
        self.owner, self.name, self.kind, self.items = owner, name, kind, []

    def _changed(self):
        self.owner.mark_set()

    def _item(self, value):
        if self.kind in SCHEMA:
            message = MESSAGES[self.kind]()
            message.CopyFrom(_as_message(self.kind, value, self.name))
            return message
        return _checked(self.kind, value)

    def append(self, value):
        self.items.append(self._item(value))
        self._changed()

    def extend(self, values):
        if isinstance(values, np.ndarray):
            values = values.tolist() if self.kind != 'bytes' else list(values)
        self.items.extend(self._item(v) for v in values)
        self._changed()

    def add(self, **fields):
        if self.kind not in SCHEMA:
            raise AttributeError(f"'RepeatedScalarContainer' object has no attribute 'add' "
                                 f'(field {self.name!r})')
        message = MESSAGES[self.kind](**fields)
        self.items.append(message)
        self._changed()
        return message

    def insert(self, index, value):
        self.items.insert(index, self._item(value))
        self._changed()

    def remove(self, value):
        self.items.remove(value)

    def pop(self, index=-1):
        return self.items.pop(index)

    def __getitem__(self, index):
        return self.items[index]

    def __setitem__(self, index, value):
        if self.kind in SCHEMA:
            raise TypeError('does not support assignment')
        if isinstance(index, slice):
            self.items[index] = [_checked(self.kind, v) for v in value]
            self._changed()
        else:
            self.items[index] = _checked(self.kind, value)

    def __delitem__(self, index):
        del self.items[index]

    def __len__(self):
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __eq__(self, other):
        return list(self) == list(other) if isinstance(other, (RepeatedField, list)) else \
            NotImplemented

    def __repr__(self):
        return repr(self.items)


class MessageMap:
    """A map field from string keys to messages of type `kind`: a missing key read makes an
    empty entry (protobuf's `MessageMap`)."""

    __slots__ = ('owner', 'name', 'kind', 'entries')

    def __init__(self, owner, name, kind):
        self.owner, self.name, self.kind, self.entries = owner, name, kind, {}

    def _key(self, key):
        return _checked('string', key)

    def __getitem__(self, key):
        key = self._key(key)
        found = self.entries.get(key)
        if found is None:
            found = self.entries[key] = MESSAGES[self.kind]()
            self.owner.mark_set()
        return found

    get_or_create = __getitem__

    def assign(self, key, value):
        """The entry `key` set to a copy of `value` (a message or a dict of its fields)."""
        self[key].CopyFrom(_as_message(self.kind, value, self.name))

    def __setitem__(self, key, value):
        raise ValueError('May not set values directly, call my_map[key].foo = 5')

    def __delitem__(self, key):
        del self.entries[self._key(key)]

    def __contains__(self, key):
        return self._key(key) in self.entries

    def get(self, key, default=None):
        return self.entries.get(self._key(key), default)

    def keys(self):
        return self.entries.keys()

    def values(self):
        return self.entries.values()

    def items(self):
        return self.entries.items()

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def __eq__(self, other):
        return dict(self.items()) == dict(other.items()) if hasattr(other, 'items') else \
            NotImplemented

    def __repr__(self):
        return repr(self.entries)


class BytesList(Message):
    """`value`: a list of bytes."""
    TYPE = 'BytesList'
    __slots__ = ()


class FloatList(Message):
    """`value`: a list of float32 numbers."""
    TYPE = 'FloatList'
    __slots__ = ()


class Int64List(Message):
    """`value`: a list of int64 numbers."""
    TYPE = 'Int64List'
    __slots__ = ()


class Feature(Message):
    """One of `bytes_list`, `float_list`, `int64_list` (the oneof `kind`)."""
    TYPE = 'Feature'
    __slots__ = ()


class Features(Message):
    """`feature`: a map from names to Feature."""
    TYPE = 'Features'
    __slots__ = ()


class FeatureList(Message):
    """`feature`: a list of Feature."""
    TYPE = 'FeatureList'
    __slots__ = ()


class FeatureLists(Message):
    """`feature_list`: a map from names to FeatureList."""
    TYPE = 'FeatureLists'
    __slots__ = ()


class Example(Message):
    """`features`: the Features of one example."""
    TYPE = 'Example'
    __slots__ = ()


class SequenceExample(Message):
    """`context` (Features) and `feature_lists` (FeatureLists) of one sequence example."""
    TYPE = 'SequenceExample'
    __slots__ = ()


MESSAGES = {cls.TYPE: cls for cls in (BytesList, FloatList, Int64List, Feature, Features,
                                      FeatureList, FeatureLists, Example, SequenceExample)}
