"""Devices: `rt.device(name)` scopes and the device names TensorFlow prints.

Everything runs on the CPU. A device scope names the device ops ask for, as TensorFlow's
`tf.device`: in a graph every op created inside records it (`op.device`, the NodeDef's
`device` field, in TensorFlow's canonical form `/device:GPU:1`); any device name places on the
CPU when it runs, as TensorFlow's soft placement does with a device it does not have. Eager
tensors are on `/job:localhost/replica:0/task:0/device:CPU:0`.
"""
import dataclasses
import re
from dataclasses import dataclass

from runtime.core import context

_FIELDS = ('job', 'replica', 'task')
_DEVICE = re.compile(r'(?:device:)?([A-Za-z_]+)(?::(\d+|\*))?$')


@dataclass(frozen=True, slots=True)
class DeviceSpec:
    """The parts of a device name; None where the name leaves a part open (`tf.DeviceSpec`)."""
    job: str | None = None
    replica: int | None = None
    task: int | None = None
    device_type: str | None = None
    device_index: int | None = None

    @classmethod
    def from_string(cls, spec):
        """TensorFlow's parse of `/job:w/replica:0/task:1/device:GPU:0`, `/GPU:0`, `cpu:0`,
        `CPU`; a part it does not know is a ValueError naming it."""
        if not isinstance(spec, str):
            raise TypeError(f'A device name is a str such as "/CPU:0", got '
                            f'{type(spec).__name__}.')
        parts = {}
        for piece in [p for p in spec.split('/') if p]:
            key, _, rest = piece.partition(':')
            if key.lower() in _FIELDS and rest:
                parts[key.lower()] = rest if key.lower() == 'job' else int(rest)
                continue
            match = _DEVICE.match(piece)
            if match is None or piece.lower().startswith(_FIELDS):
                raise ValueError(f"Unknown attribute '{piece}' is encountered while parsing "
                                 f"the device spec: '{spec}'.")
            if 'device_type' in parts:
                raise ValueError(f'Multiple device types are not allowed while parsing the '
                                 f'device spec: {spec}.')
            kind = match.group(1).upper()
            if kind not in ('CPU', 'GPU', 'TPU') and not piece.startswith('device:'):
                raise ValueError(f"Unknown attribute '{piece}' is encountered while parsing "
                                 f"the device spec: '{spec}'.")
            index = match.group(2)
            parts['device_type'] = kind
            parts['device_index'] = int(index) if index and index.isdigit() else None
        return cls(**parts)

    def parse_from_string(self, spec):
        """The spec `spec` names (TensorFlow 2's form of `from_string`)."""
        return DeviceSpec.from_string(spec)

    def make_merged_spec(self, dev):
        """This spec with the parts `dev` sets replaced by `dev`'s."""
        return dev.merged_into(self)

    def replace(self, **kwargs):
        """This spec with the parts named in `kwargs` replaced."""
        return dataclasses.replace(self, **kwargs)

    def merged_into(self, outer):
        """This spec with the parts it leaves open taken from `outer` (nested scopes)."""
        return DeviceSpec(*(mine if mine is not None else theirs for mine, theirs in
                            zip(self._values(), outer._values())))

    def _values(self):
        return (self.job, self.replica, self.task, self.device_type, self.device_index)

    def to_string(self):
        """TensorFlow's canonical form: `/job:w/replica:0/task:1/device:GPU:0`, parts left
        open omitted."""
        out = ''.join(f'/{name}:{value}' for name, value in zip(_FIELDS, self._values())
                      if value is not None)
        if self.device_type is not None:
            index = '*' if self.device_index is None else self.device_index
            out += f'/device:{self.device_type}:{index}'
        return out


class device:  # noqa: N801 - TensorFlow's name
    """`with rt.device('/GPU:0'):` ops built inside a graph record that device; everything
    runs on the CPU (a GPU or TPU name places there, as TensorFlow's soft placement does).
    `None` clears the scope. Eagerly the scope is accepted and changes nothing."""

    def __init__(self, device_name):
        self._spec = None if device_name is None else DeviceSpec.from_string(device_name)
        self._exits = []

    def __enter__(self):
        graph = context.current_graph()
        holder = graph if graph is not None else context.state
        saved = getattr(holder, 'device_spec', None)
        spec = None if self._spec is None else \
            self._spec.merged_into(saved) if saved is not None else self._spec
        holder.device_spec = spec
        self._exits.append(lambda: setattr(holder, 'device_spec', saved))
        return self

    def __exit__(self, *exc):
        self._exits.pop()()
        return False


def current_device(graph):
    """The canonical device name ops created now in `graph` record ('' outside scopes)."""
    spec = getattr(graph, 'device_spec', None)
    return '' if spec is None else spec.to_string()
