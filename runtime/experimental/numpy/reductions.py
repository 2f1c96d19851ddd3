"""The reductions and scans of `rt.experimental.numpy`: numpy's signatures and result dtypes
(an integer or bool sum is int64, a mean float64) over the runtime's ops (`Sum`, `Mean`, `Max`,
`Cumsum`, ...)."""
import numpy as np

from runtime import math as rtm
from runtime.core import dtypes
from runtime.experimental.numpy.core import asarray, inexact_operand, rt_dtype
from runtime.ops.array import cast
from runtime.ops.compare import where
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.shaping import reshape


def accumulating(a, dtype):
    """`a` in the dtype a sum or product of it has: `dtype`, or int64 for small integers and
    bools (numpy's rule)."""
    a = asarray(a)
    if dtype is not None:
        return cast(a, rt_dtype(dtype)) if rt_dtype(dtype) != a.dtype else a
    if a.dtype.is_bool or a.dtype.is_integer and a.dtype != dtypes.int64:
        return cast(a, dtypes.int64)
    return a


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _keep(keepdims):
    return bool(keepdims)


def sum(a, axis=None, dtype=None, keepdims=None):  # noqa: A001 - numpy's name
    """numpy.sum (op `Sum`)."""
    return rtm.reduce_sum(accumulating(a, dtype), _axis(axis), _keep(keepdims))


def prod(a, axis=None, dtype=None, keepdims=None):
    """numpy.prod (op `Prod`)."""
    return rtm.reduce_prod(accumulating(a, dtype), _axis(axis), _keep(keepdims))


def _inexact_or(a, dtype):
    return asarray(a, dtype) if dtype is not None else inexact_operand(a)


def mean(a, axis=None, dtype=None, out=None, keepdims=None):
    """numpy.mean (op `Mean`; float64 for integers)."""
    return rtm.reduce_mean(_inexact_or(a, dtype), _axis(axis), _keep(keepdims))


def amax(a, axis=None, out=None, keepdims=None):
    """numpy.amax (op `Max`)."""
    return rtm.reduce_max(_bool_as_int(asarray(a)), _axis(axis), _keep(keepdims))


def amin(a, axis=None, out=None, keepdims=None):
    """numpy.amin (op `Min`)."""
    return rtm.reduce_min(_bool_as_int(asarray(a)), _axis(axis), _keep(keepdims))


def _bool_as_int(a):
    return cast(a, dtypes.int64) if a.dtype.is_bool else a


def max(a, axis=None, keepdims=None):  # noqa: A001 - numpy's name
    """numpy.max (op `Max`)."""
    return amax(a, axis, keepdims=keepdims)


def min(a, axis=None, keepdims=None):  # noqa: A001 - numpy's name
    """numpy.min (op `Min`)."""
    return amin(a, axis, keepdims=keepdims)


def ptp(a, axis=None, keepdims=None):
    """numpy.ptp: max - min."""
    return amax(a, axis, keepdims=keepdims) - amin(a, axis, keepdims=keepdims)


def _as_bool(a):
    a = asarray(a)
    return a if a.dtype.is_bool else rtm.not_equal(a, zeros_like(a))


def all(a, axis=None, keepdims=None):  # noqa: A001 - numpy's name
    """numpy.all (op `All`)."""
    return rtm.reduce_all(_as_bool(a), _axis(axis), _keep(keepdims))


def any(a, axis=None, keepdims=None):  # noqa: A001 - numpy's name
    """numpy.any (op `Any`)."""
    return rtm.reduce_any(_as_bool(a), _axis(axis), _keep(keepdims))


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=None):
    """numpy.var, with `ddof` degrees of freedom taken off the count."""
    a = _inexact_or(a, dtype)
    centered = rtm.square(a - rtm.reduce_mean(a, _axis(axis), True))
    total = rtm.reduce_sum(centered, _axis(axis), _keep(keepdims))
    count = rtm.reduce_sum(ones_like(a), _axis(axis), _keep(keepdims))
    return total / (count - np.asarray(ddof, a.dtype.as_numpy_dtype))


def std(a, axis=None, keepdims=None):
    """numpy.std."""
    return rtm.sqrt(var(a, axis, keepdims=keepdims))


def average(a, axis=None, weights=None, returned=False):
    """numpy.average: the (weighted) mean; with `returned`, also the sum of the weights."""
    a = inexact_operand(a)
    if weights is None:
        result = rtm.reduce_mean(a, _axis(axis))
        weight_sum = rtm.reduce_sum(ones_like(a), _axis(axis))
    else:
        weights = asarray(weights, a.dtype)
        if axis is not None and weights.shape.rank == 1 and a.shape.rank != 1:
            shape = [1] * a.shape.rank
            shape[axis] = -1
            weights = reshape(weights, shape)
        weight_sum = rtm.reduce_sum(weights + zeros_like(a), _axis(axis))
        result = rtm.reduce_sum(a * weights, _axis(axis)) / weight_sum
    return (result, weight_sum) if returned else result


def _nan_replaced(a, value, dtype):
    a = accumulating(a, dtype)
    if not a.dtype.is_floating:
        return a
    return where(rtm.is_nan(a), zeros_like(a) + np.asarray(value, a.dtype.as_numpy_dtype), a)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """numpy.nansum: the sum with NaNs as zeros."""
    return rtm.reduce_sum(_nan_replaced(a, 0, dtype), _axis(axis), _keep(keepdims))


def nanprod(a, axis=None, dtype=None, keepdims=False):
    """numpy.nanprod: the product with NaNs as ones."""
    return rtm.reduce_prod(_nan_replaced(a, 1, dtype), _axis(axis), _keep(keepdims))


def nanmean(a, axis=None, dtype=None, keepdims=None):
    """numpy.nanmean: the mean of the values that are not NaN."""
    a = _inexact_or(a, dtype)
    present = cast(rtm.logical_not(rtm.is_nan(a)), a.dtype)
    total = rtm.reduce_sum(where(rtm.is_nan(a), zeros_like(a), a), _axis(axis), _keep(keepdims))
    return total / rtm.reduce_sum(present, _axis(axis), _keep(keepdims))


def count_nonzero(a, axis=None):
    """numpy.count_nonzero (int64)."""
    return rtm.count_nonzero(asarray(a), _axis(axis), dtype=dtypes.int64)


def _flat_or(a, axis):
    return (reshape(a, [-1]), 0) if axis is None else (a, axis)


def cumsum(a, axis=None, dtype=None):
    """numpy.cumsum (op `Cumsum`; flattened when `axis` is None)."""
    a, axis = _flat_or(accumulating(a, dtype), axis)
    return rtm.cumsum(a, axis)


def cumprod(a, axis=None, dtype=None):
    """numpy.cumprod (op `Cumprod`; flattened when `axis` is None)."""
    a, axis = _flat_or(accumulating(a, dtype), axis)
    return rtm.cumprod(a, axis)


def argmax(a, axis=None):
    """numpy.argmax (op `ArgMax`; over the flattened array when `axis` is None)."""
    a, axis = _flat_or(asarray(a), axis)
    return rtm.argmax(_bool_as_int(a), axis)


def argmin(a, axis=None):
    """numpy.argmin (op `ArgMin`; over the flattened array when `axis` is None)."""
    a, axis = _flat_or(asarray(a), axis)
    return rtm.argmin(_bool_as_int(a), axis)
