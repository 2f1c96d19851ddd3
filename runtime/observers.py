"""Watching every op as it runs: `rt.debugging.enable_check_numerics` (an op whose floating
output holds an infinity or a NaN raises `rt.errors.InvalidArgumentError` naming the op) and
`rt.debugging.set_log_device_placement` (each op says where it runs).

An observer is handed each op this thread runs or adds to a graph, through the one hook
`runtime.ops.dispatch.apply` has for gradient tapes (`context.state.tapes`): eagerly it sees the
op's values, and while a graph is built it adds to the graph (a `CheckNumerics` op after each
floating output, as TensorFlow's check-numerics callback adds `CheckNumericsV2`). As with
TensorFlow's op callbacks, an observer watches the thread that enabled it. While one is on,
`ag.function` calls run their converted code op by op (as under a gradient tape), so the ops
of a function are checked eagerly; a graph traced while it is on (`get_concrete_function`,
a dataset's functions) carries its CheckNumerics ops.
"""
import sys

import numpy as np

from runtime.core import context, errors
from runtime.core.tensor import EagerTensor

DEVICE = '/job:localhost/replica:0/task:0/device:CPU:0'
# ops that cannot make an infinity or a NaN of finite inputs, or only pass values on
_UNCHECKED = frozenset({
    'CheckNumerics', 'CheckNumericsV2', 'Const', 'Placeholder', 'ReadVariableOp', 'Identity',
    'IdentityN', 'Reshape', 'Pack', 'Unpack', 'ConcatV2', 'ExpandDims', 'Squeeze', 'Tile',
    'GatherV2', 'Slice', 'StridedSlice', 'Transpose', 'Fill', 'ZerosLike', 'OnesLike'})


class Observer:
    """Sees each op: `record(opdef, inputs, attrs, outputs)` (the gradient tapes' interface)."""

    def record(self, opdef, inputs, attrs, outputs):
        raise NotImplementedError

    def enable(self):
        if self not in context.state.tapes:
            context.state.tapes.append(self)
            context.adjust_tapes(1)

    def disable(self):
        if self in context.state.tapes:
            context.state.tapes.remove(self)
            context.adjust_tapes(-1)

    def enabled(self):
        return self in context.state.tapes


def _outputs(outputs):
    if outputs is None or hasattr(outputs, 'outputs'):  # no outputs: None, or the Operation
        return []
    return outputs if isinstance(outputs, list) else [outputs]


def _header(kind, op_type, index, count, tensor):
    shape = tuple(tensor.shape.as_list()) if tensor.shape.rank is not None else '<unknown>'
    return (f'\n\n!!! Detected Infinity or NaN in output {index} of {kind} op "{op_type}" '
            f'(# of outputs: {count}) !!!\n  dtype: {tensor.dtype!r}\n  shape: {shape}\n')


def _inputs_text(inputs):
    return ''.join(f'\n  Input tensor: {v!r}' if i == 0 else f'\n  Input tensor {i}: {v!r}'
                   for i, v in enumerate(inputs))


class NumericsChecker(Observer):
    """The check of `enable_check_numerics`."""

    def __init__(self):
        self.adding = False  # while it adds its own CheckNumerics ops to a graph

    def record(self, opdef, inputs, attrs, outputs):
        if self.adding or opdef.name in _UNCHECKED:
            return
        tensors = _outputs(outputs)
        for index, tensor in enumerate(tensors):
            if not getattr(tensor.dtype, 'is_floating', False):
                continue
            if type(tensor) is EagerTensor:
                self._check_value(opdef.name, index, len(tensors), tensor, inputs)
            else:
                self._add_check(opdef.name, index, len(tensors), tensor, inputs)

    def _check_value(self, op_type, index, count, tensor, inputs):
        value = np.asarray(tensor.value)
        if np.isfinite(value).all():
            return
        counts = [(f'# of {name} elements', int(n)) for name, n in (
            ('+NaN', np.isnan(value).sum()), ('-Inf', np.isneginf(value).sum()),
            ('+Inf', np.isposinf(value).sum())) if n]
        text = _header('eagerly-executing', op_type, index, count, tensor)
        text += ''.join(f'  {name}: {n}\n' for name, n in counts)
        text += _inputs_text(inputs)
        kinds = ' and '.join(k for k, bad in (('Inf', np.isinf(value).any()),
                                               ('NaN', np.isnan(value).any())) if bad)
        raise errors.InvalidArgumentError(message=f'{text}\n\n : Tensor had {kinds} values')

    def _add_check(self, op_type, index, count, tensor, inputs):
        from runtime.ops.checks import CHECK_NUMERICS  # deferred: start-up cost (ops load)
        from runtime.ops.dispatch import apply  # deferred: start-up cost (ops load)
        message = _header('graph', op_type, index, count, tensor) + _inputs_text(inputs) + \
            f'\n  Graph name: "{tensor.op.graph.name}"\n'
        self.adding = True
        try:
            apply(CHECK_NUMERICS, [tensor], {'message': message},
                  name=f'{tensor.op.name}/CheckNumerics')
        finally:
            self.adding = False


class PlacementLogger(Observer):
    """The log of `set_log_device_placement(True)`: one line per op on stderr."""

    def record(self, opdef, inputs, attrs, outputs):
        tensors = _outputs(outputs)
        if tensors and type(tensors[0]) is not EagerTensor:
            name = tensors[0].op.name
            sys.stderr.write(f'{name}: ({opdef.name}): {DEVICE}\n')
        elif hasattr(outputs, 'name') and hasattr(outputs, 'outputs'):
            sys.stderr.write(f'{outputs.name}: ({opdef.name}): {DEVICE}\n')
        else:
            sys.stderr.write(f'Executing op {opdef.name} in device {DEVICE}\n')


_checker = NumericsChecker()
_logger = PlacementLogger()


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """From now on (in this thread), an op whose floating output holds an infinity or a NaN
    raises InvalidArgumentError naming the op, its output, dtype and shape."""
    _checker.enable()


def disable_check_numerics():
    """Ends `enable_check_numerics` (graphs traced while it was on keep their checks)."""
    _checker.disable()


def set_log_device_placement(enabled):
    """Whether each op says on stderr which device it runs on (always the CPU here)."""
    if enabled:
        _logger.enable()
    else:
        _logger.disable()


def get_log_device_placement():
    return _logger.enabled()
