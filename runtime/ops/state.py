"""Variable ops: a handle to a variable's storage, and reads and writes through it."""
from dataclasses import dataclass
from typing import Any

from runtime import dtypes
from runtime.ops.infer import no_outputs
from runtime.ops.registry import register
from runtime.shapes import TensorShape


@dataclass(slots=True, eq=False, weakref_slot=True)
class VariableStorage:
    """The mutable cell behind an `rt.Variable`: its current numpy value."""

    value: Any
    dtype: dtypes.DType
    shape: TensorShape
    name: str


def _handle_kernel(attrs, storage):
    return lambda: storage


def _read(resource, dtype=None):
    return resource.value


def _assign(resource, value):
    resource.value = value


def _assign_add(resource, value):
    resource.value = resource.value + value


def _assign_sub(resource, value):
    resource.value = resource.value - value


def _read_infer(inputs, attrs):
    storage = inputs[0].op.payload
    return [(attrs['dtype'], storage.shape if storage is not None else TensorShape(None))]


VAR_HANDLE = register('VarHandleOp', None,
                      lambda inputs, attrs: [(dtypes.resource, TensorShape([]))], inputs=(),
                      outputs=('resource',), type_attrs=(), bind_kernel=_handle_kernel,
                      foldable=False)
READ = register('ReadVariableOp', _read, _read_infer, inputs=('resource',), outputs=('value',),
                type_attrs=(), stateful=True)
ASSIGN = register('AssignVariableOp', _assign, no_outputs, inputs=('resource', 'value'),
                  outputs=(), type_attrs=(('dtype', 1),), stateful=True)
ASSIGN_ADD = register('AssignAddVariableOp', _assign_add, no_outputs,
                      inputs=('resource', 'value'), outputs=(), type_attrs=(('dtype', 1),),
                      stateful=True)
ASSIGN_SUB = register('AssignSubVariableOp', _assign_sub, no_outputs,
                      inputs=('resource', 'value'), outputs=(), type_attrs=(('dtype', 1),),
                      stateful=True)

