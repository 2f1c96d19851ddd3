"""Global switches and the devices there are: `rt.config.run_functions_eagerly`,
`list_physical_devices`, `list_logical_devices`, `get_visible_devices`."""
from dataclasses import dataclass

_run_functions_eagerly = False


def run_functions_eagerly(run_eagerly):
    """When True, every `ag.function` call runs its Python function directly (no graph)."""
    global _run_functions_eagerly
    _run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    return _run_functions_eagerly


@dataclass(frozen=True)
class PhysicalDevice:
    """A device of the machine, as TensorFlow lists it."""
    name: str
    device_type: str


@dataclass(frozen=True)
class LogicalDevice:
    """A device ops can be placed on, as TensorFlow lists it."""
    name: str
    device_type: str


_KINDS = ('CPU', 'GPU', 'TPU')


def _check_kind(device_type):
    if device_type is None:
        return None
    if not isinstance(device_type, str):
        raise TypeError(f'device_type is a str such as "CPU" or "GPU", got '
                        f'{type(device_type).__name__}.')
    return device_type.upper()


def list_physical_devices(device_type=None):
    """The machine's devices of `device_type` ('CPU', 'GPU', ...; None: all): the one CPU
    (the runtime computes on it only, so a 'GPU' list is empty, as on a machine without one)."""
    kind = _check_kind(device_type)
    return [PhysicalDevice('/physical_device:CPU:0', 'CPU')] if kind in (None, 'CPU') else []


def list_logical_devices(device_type=None):
    """The devices ops can be placed on: `/device:CPU:0` (None or 'CPU'), none of another
    type."""
    kind = _check_kind(device_type)
    return [LogicalDevice('/device:CPU:0', 'CPU')] if kind in (None, 'CPU') else []


def get_visible_devices(device_type=None):
    """The physical devices the runtime uses: the CPU."""
    return list_physical_devices(device_type)
