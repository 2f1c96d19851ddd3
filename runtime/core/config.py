"""Global switches and the devices there are: `rt.config.run_functions_eagerly`,
`list_physical_devices`, `list_logical_devices`, `get_visible_devices`, the CPU's split into
logical devices (`set_logical_device_configuration`) and `rt.config.experimental`'s older names
of them."""
import types
from dataclasses import dataclass

from runtime.core import context

# Whether `ag.function` calls run their Python functions (a cell: a Function's call reads it
# without a function call).
running_eagerly = [False]


def run_functions_eagerly(run_eagerly):
    """When True, every `ag.function` call runs its Python function directly (no graph)."""
    context.switch(running_eagerly, bool(run_eagerly))


def functions_run_eagerly():
    return running_eagerly[0]


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


# ---- settings TensorFlow programs set and read back ---------------------------------------------
# The runtime computes on one CPU, in program order, deterministically, with its own graph
# rewrites (not Grappler's): these settings are kept as given and read back as TensorFlow reads
# them, and are checked as TensorFlow checks them.
experimental_run_functions_eagerly = run_functions_eagerly  # TensorFlow's older names
experimental_functions_run_eagerly = functions_run_eagerly
_settings = {'soft_device_placement': True, 'device_policy': 'silent',
             'synchronous_execution': True, 'op_determinism': False, 'jit': '',
             'inter_op_threads': 0, 'intra_op_threads': 0, 'optimizer': {}}
_visible = {'CPU': None}  # None: every physical device of that type
GRAPPLER_OPTIONS = frozenset({
    'layout_optimizer', 'constant_folding', 'shape_optimization', 'remapping',
    'arithmetic_optimization', 'dependency_optimization', 'loop_optimization',
    'function_optimization', 'debug_stripper', 'disable_model_pruning',
    'scoped_allocator_optimization', 'pin_to_host_optimization', 'implementation_selector',
    'auto_mixed_precision', 'disable_meta_optimizer', 'min_graph_nodes',
    'auto_parallel', 'common_subgraph_elimination', 'memory_optimization'})


def get_soft_device_placement():
    """Whether an op asked for a device that does not exist runs on one that does (True)."""
    return _settings['soft_device_placement']


def set_soft_device_placement(enabled):
    _settings['soft_device_placement'] = bool(enabled)


def set_visible_devices(devices, device_type=None):
    """Which physical devices of `device_type` the runtime uses: the CPU must stay visible."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    known = list_physical_devices(device_type)
    for device in devices:
        if device not in known:
            raise ValueError(f'Unrecognized device: {device!r}')
    kind = _check_kind(device_type)
    if kind in (None, 'CPU') and not any(d.device_type == 'CPU' for d in devices):
        raise ValueError('Cannot hide the CPU: the runtime computes on it.')


def get_device_details(device):
    """What is known of a physical device ({} for the CPU, as TensorFlow gives)."""
    if not isinstance(device, PhysicalDevice):
        raise ValueError(f'device must be a rt.config.PhysicalDevice, got {device!r}')
    return {}


def _gpu_only(device, what):
    if not isinstance(device, PhysicalDevice) or device.device_type != 'GPU':
        raise ValueError(f'Cannot {what} on non-GPU devices')


def get_memory_growth(device):
    _gpu_only(device, 'get memory growth')


def set_memory_growth(device, enable):
    _gpu_only(device, 'set memory growth')


def get_device_policy():
    """How an op's inputs on another device are copied ('silent', TensorFlow's default)."""
    return _settings['device_policy']


def set_device_policy(device_policy):
    if device_policy not in (None, 'warn', 'explicit', 'silent', 'silent_for_int32'):
        raise ValueError(f'Not a valid device policy: {device_policy!r}')
    _settings['device_policy'] = device_policy or 'silent'


def get_synchronous_execution():
    """Whether eager ops finish before returning (always, here)."""
    return _settings['synchronous_execution']


def set_synchronous_execution(enable):
    _settings['synchronous_execution'] = bool(enable)


def enable_op_determinism():
    """Make ops deterministic: they are already (seeded random ops, ordered reductions)."""
    _settings['op_determinism'] = True


def get_experimental_options():
    """The graph optimizer options set with `set_experimental_options`."""
    return dict(_settings['optimizer'])


def set_experimental_options(options):
    unknown = set(options) - GRAPPLER_OPTIONS
    if unknown:
        raise ValueError(f'Unknown graph optimizer options: {sorted(unknown)}')
    _settings['optimizer'].update(options)


def get_jit():
    """The automatic JIT setting ('' off, 'autoclustering' on); functions compile with
    `ag.function(jit_compile=True)`."""
    return _settings['jit']


def set_jit(enabled):
    if enabled not in (True, False, 'autoclustering', ''):
        raise ValueError(f"set_jit takes True, False or 'autoclustering', got {enabled!r}")
    _settings['jit'] = 'autoclustering' if enabled else ''


def _thread_count(num_threads):
    if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 0:
        raise ValueError(f'num_threads is an int >= 0 (0: the system picks), got {num_threads!r}')
    return num_threads


def get_inter_op_parallelism_threads():
    return _settings['inter_op_threads']


def set_inter_op_parallelism_threads(num_threads):
    _settings['inter_op_threads'] = _thread_count(num_threads)


def get_intra_op_parallelism_threads():
    return _settings['intra_op_threads']


def set_intra_op_parallelism_threads(num_threads):
    _settings['intra_op_threads'] = _thread_count(num_threads)


experimental.__dict__.update(
    set_visible_devices=set_visible_devices, get_device_details=get_device_details,
    get_memory_growth=get_memory_growth, set_memory_growth=set_memory_growth,
    get_device_policy=get_device_policy, set_device_policy=set_device_policy,
    get_synchronous_execution=get_synchronous_execution,
    set_synchronous_execution=set_synchronous_execution,
    enable_op_determinism=enable_op_determinism)
optimizer = types.ModuleType('runtime.config.optimizer', 'The graph optimizer settings '
                             '(`tf.config.optimizer`).')
optimizer.__dict__.update(get_experimental_options=get_experimental_options,
                          set_experimental_options=set_experimental_options,
                          get_jit=get_jit, set_jit=set_jit)
threading = types.ModuleType('runtime.config.threading', 'The thread pool sizes '
                             '(`tf.config.threading`).')
threading.__dict__.update(
    get_inter_op_parallelism_threads=get_inter_op_parallelism_threads,
    set_inter_op_parallelism_threads=set_inter_op_parallelism_threads,
    get_intra_op_parallelism_threads=get_intra_op_parallelism_threads,
    set_intra_op_parallelism_threads=set_intra_op_parallelism_threads)
