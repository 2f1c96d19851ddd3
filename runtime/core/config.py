"""Global switches and the devices there are: `rt.config.run_functions_eagerly`,
`list_physical_devices`, `list_logical_devices`, `get_visible_devices`, the CPU's split into
logical devices (`set_logical_device_configuration`) and `rt.config.experimental`'s older names
of them."""
import types
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


@dataclass(frozen=True)
class LogicalDeviceConfiguration:
    """One logical device a physical device is split into (TensorFlow's fields; on the CPU
    they change nothing but the devices listed)."""
    memory_limit: int | None = None
    experimental_priority: int | None = None
    experimental_device_ordinal: int | None = None


_logical_configurations = {}  # physical device name -> [LogicalDeviceConfiguration]


def set_logical_device_configuration(device, logical_devices):
    """Splits the CPU into `len(logical_devices)` logical CPUs `/device:CPU:0`, `:1`, ...
    (None: back to one), as TensorFlow does. Every one computes on the same CPU."""
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError(f'Unrecognized device: {device!r}; pass one of '
                         f'rt.config.list_physical_devices().')
    if logical_devices is None:
        _logical_configurations.pop(device.name, None)
        return
    logical_devices = list(logical_devices)
    for config in logical_devices:
        if not isinstance(config, LogicalDeviceConfiguration):
            raise ValueError(f'Each logical device is a rt.config.LogicalDeviceConfiguration, '
                             f'got {config!r}.')
    if not logical_devices:
        raise ValueError('logical_devices lists at least one rt.config.'
                         'LogicalDeviceConfiguration.')
    _logical_configurations[device.name] = logical_devices


def get_logical_device_configuration(device):
    """The configurations `set_logical_device_configuration` gave `device`, or None."""
    configs = _logical_configurations.get(getattr(device, 'name', None))
    return None if configs is None else list(configs)


def list_logical_devices(device_type=None):
    """The devices ops can be placed on: `/device:CPU:0` (and `:1`, ... once the CPU is split),
    none of another type."""
    kind = _check_kind(device_type)
    if kind not in (None, 'CPU'):
        return []
    count = len(_logical_configurations.get('/physical_device:CPU:0', [None]))
    return [LogicalDevice(f'/device:CPU:{i}', 'CPU') for i in range(count)]


def get_visible_devices(device_type=None):
    """The physical devices the runtime uses: the CPU."""
    return list_physical_devices(device_type)


experimental = types.ModuleType('runtime.config.experimental', 'TensorFlow 2.0\'s names of the '
                                'device listing and configuration (`tf.config.experimental`).')
experimental.__dict__.update(
    list_physical_devices=list_physical_devices, list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration)
