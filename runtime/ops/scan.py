"""Ops along an axis: cumulative sums and products, top-k, sorting, segment sums.

`rt.sort`/`rt.argsort` are built as TensorFlow builds them: `TopKV2` over the last axis with
`k` = its length (on the negated values for ascending order; a `Transpose` moves another axis
last), so the graph holds the same ops as TensorFlow's.
"""
from typing import NamedTuple

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import ones_like
from runtime.ops.dispatch import apply, refused_dtype
from runtime.ops.infer import constant_value, same_as_input
from runtime.ops.math import cast, maximum, minimum, negative
from runtime.ops.reduce import reduce_max
from runtime.ops.registry import register
from runtime.ops.shaping import reshape, transpose
from runtime.ops.shaping import shape as shape_
from runtime.ops.slicing import unsorted_segment_sum

# ---- Cumsum / Cumprod --------------------------------------------------------------------------

def _cumulative_kernel(accumulate, identity):
    def kernel(x, axis, exclusive=False, reverse=False):
        a = int(axis)
        if not -x.ndim <= a < x.ndim:  # a scalar has no axis to scan (numpy would make it 1-D)
            raise errors.InvalidArgumentError(
                message=f'ScanOp: Expected scan axis in the range [{-x.ndim}, {x.ndim}), but '
                        f'got {a}')
        if reverse:
            x = np.flip(x, a)
        out = accumulate(x, axis=a, dtype=x.dtype)
        if exclusive and out.shape[a]:
            first = np.full_like(np.take(out, [0], axis=a), identity)
            out = np.concatenate([first, np.take(out, np.arange(out.shape[a] - 1), axis=a)], a)
        return np.flip(out, a) if reverse else out
    return kernel


_CUMULATIVE_ATTRS = {'exclusive': False, 'reverse': False}
CUMSUM = register('Cumsum', _cumulative_kernel(np.cumsum, 0), same_as_input,
                  inputs=('x', 'axis'), outputs=('out',), type_attrs=(('T', 0), ('Tidx', 1)),
                  defaults=_CUMULATIVE_ATTRS)
CUMPROD = register('Cumprod', _cumulative_kernel(np.cumprod, 1), same_as_input,
                   inputs=('x', 'axis'), outputs=('out',), type_attrs=(('T', 0), ('Tidx', 1)),
                   defaults=_CUMULATIVE_ATTRS)


def _cumulative(opdef, x, axis, exclusive, reverse, name):
    x = convert_to_tensor(x)
    if x.dtype.is_bool or x.dtype is dtypes.string:
        raise refused_dtype(f'{opdef.name} needs a numeric tensor, got {x.dtype.name}.', x)
    attrs = {'exclusive': bool(exclusive), 'reverse': bool(reverse)}
    axis = np.int32(axis) if isinstance(axis, (int, np.integer)) else axis
    return apply(opdef, [x, axis], attrs, name=name)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along `axis` (op `Cumsum`); `exclusive` leaves each element out of its
    own sum, `reverse` sums from the end."""
    return _cumulative(CUMSUM, x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along `axis` (op `Cumprod`), with `exclusive` and `reverse` as
    `cumsum`."""
    return _cumulative(CUMPROD, x, axis, exclusive, reverse, name)


# ---- TopKV2, sort, argsort ---------------------------------------------------------------------

def _top_k_kernel(input, k, sorted=True, index_type=dtypes.int32):
    k = int(k)
    n = input.shape[-1]
    if k < 0 or k > n:
        raise errors.InvalidArgumentError(message=f'input must have at least k={k} columns, '
                                                  f'got {n}')
    # Descending, ties broken by the lower index (TensorFlow's order): a stable ascending sort
    # of the reversed row, read backwards.
    order = n - 1 - np.flip(np.argsort(np.flip(input, -1), axis=-1, kind='stable'), -1)
    indices = order[..., :k]
    return np.take_along_axis(input, indices, -1), indices.astype(index_type.np_dtype)


def _top_k_infer(inputs, attrs):
    x, k = inputs
    k = constant_value(k)
    index_type = attrs.get('index_type', dtypes.int32)
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None)), (index_type, TensorShape(None))]
    if x.shape.rank == 0:
        raise ValueError('top_k needs an input of rank 1 or more, got a scalar')
    last = x.shape.as_list()[-1]
    if k is not None and last is not None and int(k) > last:
        raise ValueError(f'input must have last dimension >= k = {int(k)} but is {last}')
    dims = x.shape.as_list()[:-1] + [None if k is None else int(k)]
    return [(x.dtype, TensorShape(dims)), (index_type, TensorShape(dims))]


TOP_K = register('TopKV2', _top_k_kernel, _top_k_infer, inputs=('input', 'k'),
                 outputs=('values', 'indices'), type_attrs=(('T', 0), ('Tk', 1)),
                 defaults={'sorted': True, 'index_type': dtypes.int32})


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):
    """The `k` largest entries of the last axis and their indices (int32 unless `index_type`;
    op `TopKV2`); equal values keep their order. Returns (values, indices)."""
    x = convert_to_tensor(input)
    k = np.int32(k) if isinstance(k, (int, np.integer)) else k
    attrs = {'sorted': bool(sorted)}
    index_type = dtypes.as_dtype(index_type)
    if index_type is not dtypes.int32:
        attrs['index_type'] = index_type
    values, indices = apply(TOP_K, [x, k], attrs, name=name)
    return TopKResult(values, indices)


class TopKResult(NamedTuple):
    """`top_k`'s result, as in TensorFlow."""
    values: Tensor
    indices: Tensor


def _sort_along(x, axis, direction, pick):
    x = convert_to_tensor(x)
    if direction not in ('ASCENDING', 'DESCENDING'):
        raise ValueError(f'direction must be "ASCENDING" or "DESCENDING", got {direction!r}')
    rank = x.shape.rank
    if rank is None:
        raise ValueError('sort needs a tensor of known rank')
    if rank == 0:
        raise ValueError('sort needs a tensor of rank 1 or more, got a scalar')
    axis = int(axis)
    if not -rank <= axis < rank:
        raise ValueError(f'axis {axis} is out of range for a tensor of rank {rank}')
    axis %= rank
    perm = None
    if axis != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    ascending = direction == 'ASCENDING'
    keys = negative(x) if ascending else x
    n = x.shape[-1]
    values, indices = top_k(keys, shape_(x)[-1] if n is None else n)
    out = pick(values, indices, ascending)
    return transpose(out, perm) if perm else out


def sort(values, axis=-1, direction='ASCENDING', name=None):
    """`values` sorted along `axis` (TensorFlow's graph: `TopKV2`, with `Neg` for ascending)."""
    return _sort_along(values, axis, direction,
                       lambda v, i, ascending: negative(v) if ascending else v)


def argsort(values, axis=-1, direction='ASCENDING', stable=False, name=None):
    """The int32 indices that sort `values` along `axis` (op `TopKV2`); equal values keep
    their order, so the sort is always stable."""
    return _sort_along(values, axis, direction, lambda v, i, ascending: i)


# ---- InTopKV2 ------------------------------------------------------------------------------------

def _in_top_k_kernel(predictions, targets, k):
    rows = np.arange(predictions.shape[0])
    if np.any((targets < 0) | (targets >= predictions.shape[1])):
        raise errors.InvalidArgumentError(message=f'targets out of range [0, '
                                                  f'{predictions.shape[1]}): {targets}')
    target = predictions[rows, targets]
    above = (predictions > target[:, None]).sum(axis=1)
    return (above < int(k)) & np.isfinite(target)


IN_TOP_K = register('InTopKV2', _in_top_k_kernel,
                    lambda inputs, attrs: [(dtypes.bool, TensorShape([inputs[0].shape[0]]
                                            if inputs[0].shape.rank else None))],
                    inputs=('predictions', 'targets', 'k'), outputs=('precision',),
                    type_attrs=(('T', 1),))


def in_top_k(targets, predictions, k, name=None):
    """Whether each row's `targets` entry is among the `k` largest `predictions` (ties count;
    op `InTopKV2`)."""
    predictions = convert_to_tensor(predictions)
    targets = convert_to_tensor(targets)
    k = np.asarray(k, targets.dtype.np_dtype) if isinstance(k, (int, np.integer)) else k
    return apply(IN_TOP_K, [predictions, targets, k], name=name)


# ---- SegmentSum (UnsortedSegmentSum is in runtime.ops.array) ---------------------------------

def _segment_sum_kernel(data, segment_ids):
    ids = np.asarray(segment_ids)
    if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
        raise errors.InvalidArgumentError(message=f'segment ids must be sorted and '
                                                  f'non-negative, got {ids}')
    out = np.zeros((int(ids[-1]) + 1 if ids.size else 0,) + data.shape[ids.ndim:], data.dtype)
    np.add.at(out, ids, data)
    return out


def _segment_infer(inputs, attrs):
    data, ids = inputs
    if data.shape.rank is None or ids.shape.rank is None:
        return [(data.dtype, TensorShape(None))]
    dims = [None] + data.shape.as_list()[ids.shape.rank:]
    return [(data.dtype, TensorShape(dims))]


SEGMENT_SUM = register('SegmentSum', _segment_sum_kernel, _segment_infer,
                       inputs=('data', 'segment_ids'), outputs=('output',),
                       type_attrs=(('T', 0), ('Tindices', 1)))


def segment_ids_tensor(segment_ids):
    """`segment_ids` as a tensor, refused unless of an integer dtype."""
    ids = convert_to_tensor(segment_ids)
    if not ids.dtype.is_integer:
        raise TypeError(f'segment_ids must be int32 or int64, got {ids.dtype.name}.')
    return ids


def segment_sum(data, segment_ids, name=None):
    """Sums of the rows of `data` that share a (sorted) segment id (op `SegmentSum`)."""
    return apply(SEGMENT_SUM, [convert_to_tensor(data), segment_ids_tensor(segment_ids)], name=name)


# ---- CumulativeLogsumexp -----------------------------------------------------------------------

def _cumulative_logsumexp_kernel(x, axis, exclusive=False, reverse=False):
    a = int(axis)
    if reverse:
        x = np.flip(x, a)
    out = np.logaddexp.accumulate(x, axis=a).astype(x.dtype)
    if exclusive:
        first = np.full_like(np.take(out, [0], axis=a), -np.inf)
        out = np.concatenate([first, np.take(out, np.arange(out.shape[a] - 1), axis=a)], a)
    return np.flip(out, a) if reverse else out


CUMULATIVE_LOGSUMEXP = register('CumulativeLogsumexp', _cumulative_logsumexp_kernel,
                                same_as_input, inputs=('x', 'axis'), outputs=('out',),
                                type_attrs=(('T', 0), ('Tidx', 1)), defaults=_CUMULATIVE_ATTRS)


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """`log(cumsum(exp(x)))` along `axis`, computed stably (op `CumulativeLogsumexp`; floats)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise refused_dtype(f'rt.math.cumulative_logsumexp needs a floating-point tensor, '
                            f'got {x.dtype.name}.', x)
    return _cumulative(CUMULATIVE_LOGSUMEXP, x, axis, exclusive, reverse, name)


# ---- bincount, confusion_matrix ----------------------------------------------------------------

def _bincount_kernel(input, size, weights, binary_output=False):
    values = np.ravel(input)
    if values.size and values.min() < 0:
        raise errors.InvalidArgumentError(message=f'Input arr must be non-negative, got '
                                                  f'{values.min()}')
    n = int(size)
    keep = values < n
    w = np.ravel(weights)[keep] if np.size(weights) else None
    counts = np.bincount(values[keep], weights=w, minlength=n)[:n]
    if binary_output:
        counts = counts > 0
    return counts.astype(np.asarray(weights).dtype)


DENSE_BINCOUNT = register('DenseBincount', _bincount_kernel,
                          lambda inputs, attrs: [(inputs[2].dtype, TensorShape(
                              [None if constant_value(inputs[1]) is None
                               else int(constant_value(inputs[1]))]))],
                          inputs=('input', 'size', 'weights'), outputs=('output',),
                          type_attrs=(('Tidx', 0), ('T', 2)), defaults={'binary_output': False})


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """How often each value 0, 1, ... occurs in `arr` (weighted by `weights`), as a 1-D tensor
    of length `max(arr) + 1` bounded by `minlength`/`maxlength` (op `DenseBincount`)."""
    if axis not in (None, 0, -1):
        raise ValueError('rt.math.bincount supports axis=None only (counts over all values).')
    arr = convert_to_tensor(arr)
    if not arr.dtype.is_integer:
        raise TypeError(f'bincount needs integer values, got {arr.dtype.name}.')
    size = maximum(reduce_max(arr) + 1, 0) if arr.shape.num_elements() != 0 else \
        np.asarray(0, arr.dtype.np_dtype)
    if minlength is not None:
        size = maximum(size, minlength)
    if maxlength is not None:
        size = minimum(size, maxlength)
    if weights is None:
        weights = np.zeros([0], dtypes.as_dtype(dtype).np_dtype)
    else:
        weights = convert_to_tensor(weights)
    attrs = {'binary_output': True} if binary_output else None
    return apply(DENSE_BINCOUNT, [arr, size, weights], attrs, name=name)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """The `num_classes` x `num_classes` matrix counting (label, prediction) pairs, rows
    labels (weighted by `weights`). Built from `UnsortedSegmentSum` over `label * n +
    prediction` (TensorFlow builds a `ScatterNd`; the result is the same)."""
    labels = cast(convert_to_tensor(labels), dtypes.int64)
    predictions = cast(convert_to_tensor(predictions), dtypes.int64)
    if num_classes is None:
        num_classes = maximum(reduce_max(labels), reduce_max(predictions)) + 1
    elif not isinstance(num_classes, Tensor):
        num_classes = np.int64(num_classes)
    else:
        num_classes = cast(num_classes, dtypes.int64)
    dtype = dtypes.as_dtype(dtype)
    counts = ones_like(labels, dtype=dtype) if weights is None else \
        cast(convert_to_tensor(weights), dtype)
    flat = unsorted_segment_sum(counts, labels * num_classes + predictions,
                                num_classes * num_classes)
    return reshape(flat, stack([num_classes, num_classes]))
