"""Variable ops: a handle to a variable's storage, and reads and writes through it (whole,
scattered by index tuples, or into a slice)."""
from dataclasses import dataclass
from typing import Any

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.indexing import scatter_into
from runtime.ops.infer import no_outputs
from runtime.ops.registry import ANY_VALUE, register
from runtime.ops.slicing import index_tuple


@dataclass(slots=True, eq=False, weakref_slot=True)
class VariableStorage:
    """The mutable cell behind an `rt.Variable`: its current numpy value."""

    value: Any
    dtype: dtypes.DType
    shape: TensorShape
    name: str
    owner: Any = None  # a weak reference to the rt.Variable it stores (None: no Variable)

    def __reduce__(self):
        # a copy travels without its owner: the weak reference cannot be pickled, and the
        # Variable stays in the process that made it
        return VariableStorage, (self.value, self.dtype, self.shape, self.name)


def _handle_kernel(attrs, storage):
    return lambda: storage


def _read(resource, dtype=None):
    return resource.value


def _assign(resource, value, validate_shape=False):
    if validate_shape and resource.value is not None and \
            np.shape(resource.value) != np.shape(value):
        raise errors.InvalidArgumentError(
            message=f'Trying to assign to variable with tensor with wrong shape. Expected '
                    f'{list(np.shape(resource.value))} got {list(np.shape(value))}')
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
                      foldable=False,
                      foreign_attrs={'debug_name': ANY_VALUE, 'allowed_devices': ANY_VALUE})
READ = register('ReadVariableOp', _read, _read_infer, inputs=('resource',), outputs=('value',),
                type_attrs=(), stateful=True)
ASSIGN = register('AssignVariableOp', _assign, no_outputs, inputs=('resource', 'value'),
                  outputs=(), type_attrs=(('dtype', 1),), stateful=True,
                  defaults={'validate_shape': False})
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


def _scatter_nd_add(resource, indices, updates, use_locking=True):
    resource.value = scatter_into(resource.value, indices, updates, 'ResourceScatterNdAdd',
                                  add=True)


def _scatter_nd_sub(resource, indices, updates, use_locking=True):
    resource.value = scatter_into(resource.value, indices, updates, 'ResourceScatterNdSub',
                                  add=False, combine=np.subtract)


def _gather(resource, indices, batch_dims=0, validate_indices=True, dtype=None):
    value = np.asarray(resource.value)
    idx = np.asarray(indices)
    if idx.size and (idx.min() < 0 or idx.max() >= value.shape[0]):
        bad = idx[(idx < 0) | (idx >= value.shape[0])].flat[0]
        raise errors.InvalidArgumentError(
            message=f'indices = {bad} is not in [0, {value.shape[0]})')
    return np.take(value, idx, axis=0)


def _gather_infer(inputs, attrs):
    storage = inputs[0].op.payload
    indices = inputs[1].shape
    if storage is None or indices.rank is None:
        return [(attrs['dtype'], TensorShape(None))]
    return [(attrs['dtype'], TensorShape(indices.as_list() + list(storage.shape)[1:]))]


def _row_scatter(op_name, combine):
    """The kernel of ResourceScatter<op_name>: `combine` (None: replace) the rows `indices` of
    the variable with `updates` (broadcast to indices.shape + the rows' shape)."""
    def kernel(resource, indices, updates):
        value = np.asarray(resource.value)
        idx = np.asarray(indices)
        rows = np.broadcast_to(updates, idx.shape + value.shape[1:])
        resource.value = scatter_into(value, idx[..., None], rows, op_name, add=False,
                                      combine=combine)
    return kernel


SCATTER_ND_ADD = register('ResourceScatterNdAdd', _scatter_nd_add, no_outputs,
                          inputs=('ref', 'indices', 'updates'), outputs=(),
                          type_attrs=(('T', 2), ('Tindices', 1)),
                          defaults={'use_locking': True}, stateful=True)
SCATTER_ND_SUB = register('ResourceScatterNdSub', _scatter_nd_sub, no_outputs,
                          inputs=('ref', 'indices', 'updates'), outputs=(),
                          type_attrs=(('T', 2), ('Tindices', 1)),
                          defaults={'use_locking': True}, stateful=True)
GATHER = register('ResourceGather', _gather, _gather_infer, inputs=('resource', 'indices'),
                  outputs=('output',), type_attrs=(('Tindices', 1),),
                  defaults={'batch_dims': 0, 'validate_indices': True}, stateful=True)
ROW_SCATTERS = {name: register(f'ResourceScatter{name}', _row_scatter(
    f'ResourceScatter{name}', combine), no_outputs, inputs=('resource', 'indices', 'updates'),
    outputs=(), type_attrs=(('dtype', 2), ('Tindices', 1)), stateful=True)
    for name, combine in [('Update', None), ('Add', np.add), ('Sub', np.subtract),
                          ('Mul', np.multiply), ('Div', np.divide), ('Min', np.minimum),
                          ('Max', np.maximum)]}
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
