"""Variable ops: a handle to a variable's storage, and reads and writes through it (whole,
scattered by index tuples, or into a slice)."""
from dataclasses import dataclass
from typing import Any

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.ops.indexing import scatter_into
from runtime.ops.infer import no_outputs
from runtime.ops.registry import register
from runtime.ops.slicing import index_tuple


@dataclass(slots=True, eq=False, weakref_slot=True)
class VariableStorage:
    """The mutable cell behind an `rt.Variable`: its current numpy value."""

    value: Any
    dtype: dtypes.DType
    shape: TensorShape
    name: str
    owner: Any = None  # a weak reference to the rt.Variable it stores (None: no Variable)


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



def _scatter_nd_update(resource, indices, updates, use_locking=True):
    resource.value = scatter_into(resource.value, indices, updates, 'ResourceScatterNdUpdate',
                                  add=False)


def _strided_slice_assign(resource, begin, end, strides, value, **masks):
    index = index_tuple(begin, end, strides, **masks)
    out = np.array(resource.value, copy=True)
    target = out[index]
    if np.shape(value) != np.shape(target):
        raise ValueError(f'sliced l-value shape {list(np.shape(target))} does not match r-value '
                         f'shape {list(np.shape(value))}')
    out[index] = value
    resource.value = out


SCATTER_ND_UPDATE = register('ResourceScatterNdUpdate', _scatter_nd_update, no_outputs,
                             inputs=('ref', 'indices', 'updates'), outputs=(),
                             type_attrs=(('T', 2), ('Tindices', 1)),
                             defaults={'use_locking': True}, stateful=True)
STRIDED_SLICE_ASSIGN = register(
    'ResourceStridedSliceAssign', _strided_slice_assign, no_outputs,
    inputs=('ref', 'begin', 'end', 'strides', 'value'), outputs=(),
    type_attrs=(('T', 4), ('Index', 1)),
    defaults={'begin_mask': 0, 'end_mask': 0, 'ellipsis_mask': 0, 'new_axis_mask': 0,
              'shrink_axis_mask': 0}, stateful=True)
