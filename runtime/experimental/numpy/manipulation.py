"""Shapes, joins, splits, reorderings and selections of `rt.experimental.numpy`, with numpy's
signatures, over the runtime's ops (`Reshape`, `Transpose`, `ConcatV2`, `SplitV`, `ReverseV2`,
`Roll`, `GatherV2`, `SelectV2`, ...)."""
import numpy as np

from runtime import math as rtm
from runtime.core import dtypes
from runtime.experimental.numpy.core import (
    asarray,
    canonical_axis,
    promote,
    static_rank,
)
from runtime.ops import array_more
from runtime.ops.array import cast
from runtime.ops.compare import where as rt_where
from runtime.ops.convert import stack as rt_stack
from runtime.ops.creation import range as rt_range
from runtime.ops.creation import zeros_like
from runtime.ops.indexing import boolean_mask, gather_nd
from runtime.ops.manipulation import pad as rt_pad
from runtime.ops.manipulation import repeat as rt_repeat
from runtime.ops.manipulation import reverse
from runtime.ops.manipulation import split as rt_split
from runtime.ops.manipulation import tile as rt_tile
from runtime.ops.scan import argsort as rt_argsort
from runtime.ops.scan import sort as rt_sort
from runtime.ops.shaping import broadcast_to as rt_broadcast_to
from runtime.ops.shaping import concat
from runtime.ops.shaping import expand_dims as rt_expand_dims
from runtime.ops.shaping import reshape as rt_reshape
from runtime.ops.shaping import shape as shape_of
from runtime.ops.shaping import squeeze as rt_squeeze
from runtime.ops.shaping import transpose as rt_transpose
from runtime.ops.slicing import gather


def reshape(a, newshape, order='C'):
    """numpy.reshape (C order only, as TensorFlow's)."""
    if order != 'C':
        raise ValueError(f'Unsupported order argument {order}')
    newshape = [newshape] if isinstance(newshape, int) else newshape
    return rt_reshape(asarray(a), newshape)


def ravel(a):
    """numpy.ravel: the flattened array."""
    return rt_reshape(asarray(a), [-1])


def flatten(a, order='C'):
    """ndarray.flatten."""
    return reshape(a, [-1], order)


def transpose(a, axes=None):
    """numpy.transpose (op `Transpose`)."""
    return rt_transpose(asarray(a), None if axes is None else list(axes))


def swapaxes(a, axis1, axis2):
    """numpy.swapaxes."""
    a = asarray(a)
    rank = static_rank(a)
    perm = list(range(rank))
    i, j = canonical_axis(axis1, rank), canonical_axis(axis2, rank)
    perm[i], perm[j] = perm[j], perm[i]
    return rt_transpose(a, perm)


def moveaxis(a, source, destination):
    """numpy.moveaxis."""
    a = asarray(a)
    rank = static_rank(a)
    source = [canonical_axis(s, rank) for s in np.atleast_1d(source)]
    destination = [canonical_axis(d, rank) for d in np.atleast_1d(destination)]
    perm = [i for i in range(rank) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return rt_transpose(a, perm)


def expand_dims(a, axis):
    """numpy.expand_dims (op `ExpandDims`)."""
    return rt_expand_dims(asarray(a), axis)


def squeeze(a, axis=None):
    """numpy.squeeze (op `Squeeze`)."""
    return rt_squeeze(asarray(a), axis)


def _at_least(rank, arys, place):
    results = []
    for a in arys:
        a = asarray(a)
        while static_rank(a) < rank:
            a = rt_expand_dims(a, place(static_rank(a)))
        results.append(a)
    return results[0] if len(results) == 1 else results


def atleast_1d(*arys):
    """numpy.atleast_1d."""
    return _at_least(1, arys, lambda r: 0)


def atleast_2d(*arys):
    """numpy.atleast_2d."""
    return _at_least(2, arys, lambda r: 0)


def atleast_3d(*arys):
    """numpy.atleast_3d: (n,) becomes (1, n, 1), (m, n) (m, n, 1)."""
    results = []
    for a in arys:
        a = asarray(a)
        rank = static_rank(a)
        if rank == 0:
            a = rt_reshape(a, [1, 1, 1])
        elif rank == 1:
            a = rt_expand_dims(rt_expand_dims(a, 0), -1)
        elif rank == 2:
            a = rt_expand_dims(a, -1)
        results.append(a)
    return results[0] if len(results) == 1 else results


def broadcast_to(array, shape):
    """numpy.broadcast_to (op `BroadcastTo`)."""
    return rt_broadcast_to(asarray(array), [shape] if isinstance(shape, int) else shape)


def broadcast_arrays(*args, **kwargs):
    """numpy.broadcast_arrays: the operands broadcast to their common shape."""
    if kwargs.get('subok'):
        raise ValueError('subok=True is not supported.')
    tensors = [asarray(a) for a in args]
    total = tensors[0]
    for t in tensors[1:]:
        total = zeros_like(cast(total, dtypes.int32)) + zeros_like(cast(t, dtypes.int32))
    target = shape_of(zeros_like(cast(total, dtypes.int32)))
    return [rt_broadcast_to(t, target) for t in tensors]


def concatenate(arys, axis=0):
    """numpy.concatenate (op `ConcatV2`; the operands meet at their result type)."""
    if axis is None:
        return concat([ravel(a) for a in promote(*arys)], 0)
    return concat(promote(*arys), axis)


def stack(arrays, axis=0):
    """numpy.stack (op `Pack`)."""
    return rt_stack(promote(*arrays), axis)


def hstack(tup):
    """numpy.hstack: along the first axis for 1-D operands, the second otherwise."""
    arrays = atleast_1d(*tup)
    arrays = arrays if isinstance(arrays, list) else [arrays]
    return concatenate(arrays, 0 if static_rank(arrays[0]) == 1 else 1)


def vstack(tup):
    """numpy.vstack."""
    arrays = atleast_2d(*tup)
    return concatenate(arrays if isinstance(arrays, list) else [arrays], 0)


def dstack(tup):
    """numpy.dstack."""
    arrays = atleast_3d(*tup)
    return concatenate(arrays if isinstance(arrays, list) else [arrays], 2)


def split(ary, indices_or_sections, axis=0):
    """numpy.split: equal sections, or pieces cut at the given indices."""
    ary = asarray(ary)
    if isinstance(indices_or_sections, int):
        return rt_split(ary, indices_or_sections, axis)
    size = ary.shape[axis]
    if size is None:
        raise ValueError('split at indices needs the size of the axis known.')
    cuts = [0] + [min(int(i), size) for i in indices_or_sections] + [size]
    return rt_split(ary, [max(b - a, 0) for a, b in zip(cuts, cuts[1:])], axis)


def hsplit(ary, indices_or_sections):
    """numpy.hsplit."""
    ary = asarray(ary)
    return split(ary, indices_or_sections, 0 if static_rank(ary) == 1 else 1)


def vsplit(ary, indices_or_sections):
    """numpy.vsplit."""
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """numpy.dsplit."""
    return split(ary, indices_or_sections, 2)


def append(arr, values, axis=None):
    """numpy.append: the operands joined (flattened when `axis` is None)."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def tile(a, reps):
    """numpy.tile (op `Tile`)."""
    a = asarray(a)
    reps = [int(r) for r in np.atleast_1d(reps)]
    rank = static_rank(a)
    if len(reps) > rank:
        a = rt_reshape(a, [1] * (len(reps) - rank) + list(a.shape))
    reps = [1] * (static_rank(a) - len(reps)) + reps
    return rt_tile(a, reps)


def repeat(a, repeats, axis=None):
    """numpy.repeat (flattened when `axis` is None)."""
    return rt_repeat(asarray(a), repeats, axis)


def pad(array, pad_width, mode, **kwargs):
    """numpy.pad, modes 'constant' (`constant_values`), 'reflect' and 'symmetric'."""
    array = asarray(array)
    widths = np.broadcast_to(np.asarray(pad_width, np.int64), (static_rank(array), 2))
    mode = mode.upper()
    if mode not in ('CONSTANT', 'REFLECT', 'SYMMETRIC'):
        raise ValueError(f'Unsupported padding mode: {mode.lower()}')
    values = kwargs.get('constant_values', 0)
    return rt_pad(array, widths.astype(np.int32), mode, values)


def flip(m, axis=None):
    """numpy.flip (op `ReverseV2`); all axes when `axis` is None."""
    m = asarray(m)
    axes = list(range(static_rank(m))) if axis is None else list(np.atleast_1d(axis))
    return reverse(m, [int(a) for a in axes])


def fliplr(m):
    """numpy.fliplr."""
    return flip(m, 1)


def flipud(m):
    """numpy.flipud."""
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)):
    """numpy.rot90: `k` quarter turns in the plane of `axes`."""
    m = asarray(m)
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(m, list(axes))
    if k == 1:
        return swapaxes(flip(m, axes[1]), axes[0], axes[1])
    return flip(swapaxes(m, axes[0], axes[1]), axes[1])


def roll(a, shift, axis=None):
    """numpy.roll (op `Roll`; over the flattened array when `axis` is None)."""
    a = asarray(a)
    if axis is None:
        return rt_reshape(array_more.roll(ravel(a), shift, 0), shape_of(a))
    return array_more.roll(a, shift, axis)


def _sort_kind(kind, order):
    if kind not in ('quicksort', 'stable'):
        raise ValueError("Only 'quicksort' and 'stable' arguments are supported.")
    if order is not None:
        raise ValueError("'order' argument to sort is not supported.")


def sort(a, axis=-1, kind='quicksort', order=None):
    """numpy.sort (flattened when `axis` is None)."""
    _sort_kind(kind, order)
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return rt_sort(a, axis)


def argsort(a, axis=-1, kind='quicksort', order=None):
    """numpy.argsort (int64; flattened when `axis` is None)."""
    _sort_kind(kind, order)
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return cast(rt_argsort(a, axis, stable=True), dtypes.int64)


def where(condition, x=None, y=None):
    """numpy.where: `x` where `condition` else `y`; with only `condition`, `nonzero`."""
    condition = asarray(condition)
    if not condition.dtype.is_bool:
        condition = rtm.not_equal(condition, zeros_like(condition))
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError('Both x and y must be ndarrays, or both must be None.')
    x, y = promote(x, y)
    return rt_where(condition, x, y)


def nonzero(a):
    """numpy.nonzero: one int64 index tensor per dimension (op `Where`)."""
    a = asarray(a)
    mask = a if a.dtype.is_bool else rtm.not_equal(a, zeros_like(a))
    coordinates = rt_where(mask)
    return tuple(coordinates[:, i] for i in range(static_rank(a)))


def select(condlist, choicelist, default=0):
    """numpy.select: the first choice whose condition holds, else `default`."""
    result = asarray(default)
    for condition, choice in reversed(list(zip(condlist, choicelist))):
        result = where(condition, choice, result)
    return result


def compress(condition, a, axis=None):
    """numpy.compress: the slices of `a` where `condition` holds."""
    condition = cast(asarray(condition), dtypes.bool)
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    size = condition.shape[0]
    axis_size = a.shape[axis]
    if size is not None and axis_size is not None and size < axis_size:
        condition = concat([condition, np.zeros(axis_size - size, bool)], 0)
    return boolean_mask(a, condition, axis=canonical_axis(axis, static_rank(a)))


def take(a, indices, axis=None, out=None, mode='clip'):
    """numpy.take (op `GatherV2`); `mode` 'clip' (the default here, as TensorFlow's), 'wrap'
    or 'raise'."""
    if out is not None:
        raise ValueError('out argument is not supported in take.')
    if mode not in ('raise', 'clip', 'wrap'):
        raise ValueError(f"Invalid mode '{mode}' for take")
    a = asarray(a)
    indices = asarray(indices)
    if not indices.dtype.is_integer:
        raise TypeError('take needs integer indices.')
    if axis is None:
        a, axis = ravel(a), 0
    size = a.shape[axis]
    if mode == 'clip':
        indices = rtm.minimum(rtm.maximum(indices, 0), indices * 0 + (size - 1))
    elif mode == 'wrap':
        indices = rtm.mod(indices, indices * 0 + size)
    return gather(a, indices, axis=axis)


def take_along_axis(arr, indices, axis):
    """numpy.take_along_axis."""
    arr, indices = asarray(arr), cast(asarray(indices), dtypes.int64)
    if axis is None:
        return gather(ravel(arr), ravel(indices), axis=0)
    rank = static_rank(arr)
    axis = canonical_axis(axis, rank)
    target = shape_of(indices, out_type=dtypes.int64)
    grids = []
    for i in range(rank):
        if i == axis:
            grids.append(indices)
            continue
        shape = [1] * rank
        shape[i] = -1
        size = shape_of(arr, out_type=dtypes.int64)[i]
        grids.append(rt_broadcast_to(rt_reshape(rt_range(size), shape), target))
    return gather_nd(arr, rt_stack(grids, -1))
