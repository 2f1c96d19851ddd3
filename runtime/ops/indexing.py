"""Indexing by coordinate tuples: gather_nd, scatter_nd, tensor_scatter_nd_update, and
boolean_mask (built from Reshape, Where and GatherV2, as TensorFlow builds it)."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.context import name_scope
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.compare import where
from runtime.ops.convert import convert_to_tensor, unify_operands
from runtime.ops.dispatch import apply
from runtime.ops.reduce import reduce_prod
from runtime.ops.registry import register
from runtime.ops.shaping import concat, reshape, shape, shape_from, shape_operand, squeeze
from runtime.ops.slicing import gather


def _check_indices(indices, bounds, op_name):
    """InvalidArgumentError naming the first index tuple outside `bounds`."""
    idx = np.asarray(indices).reshape(-1, len(bounds)) if len(bounds) else None
    if idx is None or idx.size == 0:
        return
    bad = (idx < 0) | (idx >= np.asarray(bounds))
    if bad.any():
        row = int(np.argwhere(bad.any(axis=1))[0, 0])
        raise errors.InvalidArgumentError(
            message=f'{op_name}: indices[{row}] = {idx[row].tolist()} does not index into '
                    f'param shape {list(bounds)}')


def _indices_operand(indices, op_name):
    t = convert_to_tensor(indices)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'{op_name} needs int32 or int64 indices, got {t.dtype.name}.')
    if t.shape.rank == 0:
        raise ValueError(f'{op_name}: indices must have rank at least 1, got a scalar.')
    return t


# ---- GatherNd ------------------------------------------------------------------------------

def _gather_nd_kernel(params, indices):
    idx = np.asarray(indices)
    k = idx.shape[-1]
    _check_indices(idx, np.shape(params)[:k], 'GatherNd')
    return np.asarray(params)[tuple(np.moveaxis(idx, -1, 0))] if k else \
        np.broadcast_to(params, idx.shape[:-1] + np.shape(params)).copy()


def _gather_nd_infer(inputs, attrs):
    params, indices = inputs
    if params.shape.rank is None or indices.shape.rank is None or indices.shape[-1] is None:
        return [(params.dtype, TensorShape(None))]
    k = indices.shape[-1]
    if k > params.shape.rank:
        raise ValueError(f'index innermost dimension length must be <= params rank; saw: {k} '
                         f'vs. {params.shape.rank}')
    return [(params.dtype, TensorShape(indices.shape.as_list()[:-1] +
                                       params.shape.as_list()[k:]))]


GATHER_ND = register('GatherNd', _gather_nd_kernel, _gather_nd_infer,
                     inputs=('params', 'indices'), outputs=('output',),
                     type_attrs=(('Tparams', 0), ('Tindices', 1)))


def check_policy(bad_indices_policy):
    """TensorFlow's `bad_indices_policy`: an index out of range is an error ('', 'DEFAULT' and
    'ERROR' on the CPU); 'IGNORE' (skip it) is not supported."""
    if bad_indices_policy not in ('', 'DEFAULT', 'ERROR'):
        raise NotImplementedError(f'bad_indices_policy={bad_indices_policy!r} is not supported: '
                                  f'an index out of range is an InvalidArgumentError.')


def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=''):
    """The slices of `params` at the index tuples in the last axis of `indices` (op
    `GatherNd`). An index out of range raises rt.errors.InvalidArgumentError when it runs."""
    check_policy(bad_indices_policy)
    if batch_dims:
        raise ValueError('rt.gather_nd supports batch_dims=0 only.')
    return apply(GATHER_ND, [convert_to_tensor(params), _indices_operand(indices, 'GatherNd')],
                 name=name)


# ---- ScatterNd and TensorScatterUpdate -----------------------------------------------------

def scatter_into(tensor, indices, updates, op_name, add, combine=None):
    """A copy of `tensor` with `updates` put (or added, or combined by the numpy ufunc
    `combine`: np.subtract, np.minimum, ...) at the index tuples `indices`."""
    out = np.array(tensor, copy=True)
    idx = np.asarray(indices)
    k = idx.shape[-1]
    _check_indices(idx, out.shape[:k], op_name)
    flat = idx.reshape(-1, k)
    values = np.asarray(updates).reshape((flat.shape[0],) + out.shape[k:])
    where_ = tuple(flat.T)
    if add or combine is not None:
        (combine or np.add).at(out, where_, values)
    else:
        out[where_] = values
    return out


def _scatter_nd_kernel(indices, updates, shape):
    return scatter_into(np.zeros(tuple(shape), np.asarray(updates).dtype), indices, updates,
                           'ScatterNd', add=True)


def _check_updates(indices, updates, out_shape, op_name):
    if indices.shape.rank is None or updates.shape.rank is None or out_shape.rank is None or \
            indices.shape[-1] is None:
        return
    k = indices.shape[-1]
    expected = TensorShape(indices.shape.as_list()[:-1] + out_shape.as_list()[k:])
    if not updates.shape.is_compatible_with(expected):
        raise ValueError(f'{op_name}: updates must have shape {expected} (indices.shape[:-1] + '
                         f'shape[indices.shape[-1]:]), got {updates.shape}.')


def _scatter_nd_infer(inputs, attrs):
    indices, updates, out = inputs
    out_shape = shape_from(out)
    _check_updates(indices, updates, out_shape, 'ScatterNd')
    return [(updates.dtype, out_shape)]


def _tensor_scatter_infer(inputs, attrs):
    tensor, indices, updates = inputs
    _check_updates(indices, updates, tensor.shape, 'TensorScatter')
    return [(tensor.dtype, tensor.shape)]


SCATTER_ND = register('ScatterNd', _scatter_nd_kernel, _scatter_nd_infer,
                      inputs=('indices', 'updates', 'shape'), outputs=('output',),
                      type_attrs=(('T', 1), ('Tindices', 0)))
TENSOR_SCATTER_UPDATE = register(
    'TensorScatterUpdate',
    lambda tensor, indices, updates: scatter_into(tensor, indices, updates,
                                                     'TensorScatterUpdate', add=False),
    _tensor_scatter_infer, inputs=('tensor', 'indices', 'updates'), outputs=('output',),
    type_attrs=(('T', 0), ('Tindices', 1)))


def _tensor_scatter_op(op_name, combine):
    return register(op_name, lambda tensor, indices, updates: scatter_into(
        tensor, indices, updates, op_name, add=False, combine=combine), _tensor_scatter_infer,
        inputs=('tensor', 'indices', 'updates'), outputs=('output',),
        type_attrs=(('T', 0), ('Tindices', 1)))


TENSOR_SCATTER_ADD = _tensor_scatter_op('TensorScatterAdd', np.add)
TENSOR_SCATTER_SUB = _tensor_scatter_op('TensorScatterSub', np.subtract)
TENSOR_SCATTER_MIN = _tensor_scatter_op('TensorScatterMin', np.minimum)
TENSOR_SCATTER_MAX = _tensor_scatter_op('TensorScatterMax', np.maximum)


def scatter_nd(indices, updates, shape, bad_indices_policy='', name=None):
    """A zero tensor of `shape` with `updates` added at the index tuples `indices` (op
    `ScatterNd`; repeated indices add up)."""
    check_policy(bad_indices_policy)
    indices = _indices_operand(indices, 'ScatterNd')
    updates = convert_to_tensor(updates)
    out = shape_operand(shape)
    if not isinstance(out, Tensor):
        out = out.astype(indices.dtype.np_dtype)
    elif out.dtype is not indices.dtype:
        out = cast(out, indices.dtype)
    return apply(SCATTER_ND, [indices, updates, out], name=name)


def _tensor_scatter(opdef, tensor, indices, updates, name, bad_indices_policy=''):
    check_policy(bad_indices_policy)
    tensor = convert_to_tensor(tensor)
    indices = _indices_operand(indices, opdef.name)
    if isinstance(updates, Tensor):
        if updates.dtype is not tensor.dtype:
            raise TypeError(f'{opdef.name}: updates have dtype {updates.dtype.name} but the '
                            f'tensor has dtype {tensor.dtype.name}; use rt.cast first.')
    else:
        (_, updates), _ = unify_operands(opdef.name, tensor, updates)
    return apply(opdef, [tensor, indices, updates], name=name)


def tensor_scatter_nd_update(tensor, indices, updates, name=None, *, bad_indices_policy=''):
    """`tensor` with the values at the index tuples `indices` replaced by `updates` (op
    `TensorScatterUpdate`)."""
    return _tensor_scatter(TENSOR_SCATTER_UPDATE, tensor, indices, updates, name,
                           bad_indices_policy)


def tensor_scatter_nd_add(tensor, indices, updates, bad_indices_policy='', name=None):
    """`tensor` with `updates` added at the index tuples `indices`; repeated indices add up
    (op `TensorScatterAdd`)."""
    return _tensor_scatter(TENSOR_SCATTER_ADD, tensor, indices, updates, name,
                           bad_indices_policy)


def tensor_scatter_nd_sub(tensor, indices, updates, bad_indices_policy='', name=None):
    """`tensor` with `updates` subtracted at the index tuples `indices` (op
    `TensorScatterSub`)."""
    return _tensor_scatter(TENSOR_SCATTER_SUB, tensor, indices, updates, name,
                           bad_indices_policy)


def tensor_scatter_nd_min(tensor, indices, updates, bad_indices_policy='', name=None):
    """`tensor` with each value at the index tuples `indices` the minimum of it and its
    updates (op `TensorScatterMin`)."""
    return _tensor_scatter(TENSOR_SCATTER_MIN, tensor, indices, updates, name,
                           bad_indices_policy)


def tensor_scatter_nd_max(tensor, indices, updates, bad_indices_policy='', name=None):
    """`tensor` with each value at the index tuples `indices` the maximum of it and its
    updates (op `TensorScatterMax`)."""
    return _tensor_scatter(TENSOR_SCATTER_MAX, tensor, indices, updates, name,
                           bad_indices_policy)


# ---- boolean_mask --------------------------------------------------------------------------

def boolean_mask(tensor, mask, axis=None, name='boolean_mask'):
    """The elements (or slices) of `tensor` where `mask` is True, flattened over the mask's
    dimensions: Reshape, Where, Squeeze and GatherV2, as TensorFlow builds it."""
    with name_scope(name):
        return _boolean_mask(convert_to_tensor(tensor), convert_to_tensor(mask), axis)


def _boolean_mask(x, mask, axis):
    if mask.dtype is not dtypes.bool:
        raise TypeError(f'rt.boolean_mask needs a bool mask, got {mask.dtype.name}.')
    k = mask.shape.rank
    if k is None:
        raise ValueError('Number of mask dimensions must be specified, even if some dimensions '
                         'are None.  E.g. shape=[None] is ok, but shape=None is not.')
    if k == 0:
        raise ValueError('mask cannot be scalar.')
    axis = 0 if axis is None else int(axis)
    if x.shape.rank is not None:
        axis %= x.shape.rank
        if not x.shape[axis:axis + k].is_compatible_with(mask.shape):
            raise ValueError(f'Shapes {x.shape[axis:axis + k]} and {mask.shape} are '
                             f'incompatible')
    if x.shape.rank is not None and None not in x.shape.as_list()[:axis] + \
            x.shape.as_list()[axis + k:]:
        dims = x.shape.as_list()
        flat = reshape(x, dims[:axis] + [-1] + dims[axis + k:])
    else:
        dims = shape(x)
        leading = reduce_prod(dims[axis:axis + k], axis=[0], keepdims=True)
        flat = reshape(x, concat([dims[:axis], leading, dims[axis + k:]], 0))
    positions = squeeze(where(reshape(mask, [-1])), axis=[1])
    return gather(flat, positions, axis=axis)
