"""The array constructors of `rt.experimental.numpy`: numpy's signatures, float64 by default,
over the runtime's ops (`Fill`, `Range`, `LinSpace`, `MatrixBandPart`, ...)."""
import numpy as np

from runtime import math as rtm
from runtime.core import dtypes
from runtime.experimental.numpy.core import asarray, is_tensor_like, result_type, rt_dtype
from runtime.experimental.numpy.manipulation import moveaxis
from runtime.ops.array import cast, identity
from runtime.ops.compare import where
from runtime.ops.creation import fill
from runtime.ops.creation import range as rt_range
from runtime.ops.linalg import band_part
from runtime.ops.manipulation import meshgrid as rt_meshgrid
from runtime.ops.shaping import broadcast_to, expand_dims, reshape
from runtime.ops.shaping import shape as shape_of


def _shape(shape):
    if is_tensor_like(shape):
        return shape
    return [int(shape)] if np.ndim(shape) == 0 else [int(d) for d in shape]


def full(shape, fill_value, dtype=None):
    """numpy.full (op `Fill`, or a broadcast of an array `fill_value`)."""
    value = asarray(fill_value, dtype)
    if value.shape.rank == 0:
        return fill(_shape(shape), value)
    return broadcast_to(value, _shape(shape))


def zeros(shape, dtype=float):
    """numpy.zeros (float64 by default)."""
    return full(shape, 0, dtype)


def ones(shape, dtype=float):
    """numpy.ones (float64 by default)."""
    return full(shape, 1, dtype)


def empty(shape, dtype=float):
    """numpy.empty: zeros (a tensor has no uninitialized memory)."""
    return zeros(shape, dtype)


def _like(a, fill_value, dtype):
    a = asarray(a)
    return full(shape_of(a), fill_value, a.dtype if dtype is None else dtype)


def zeros_like(a, dtype=None):
    """numpy.zeros_like."""
    return _like(a, 0, dtype)


def ones_like(a, dtype=None):
    """numpy.ones_like."""
    return _like(a, 1, dtype)


def empty_like(a, dtype=None):
    """numpy.empty_like: zeros."""
    return _like(a, 0, dtype)


def full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None):
    """numpy.full_like (`order` and `subok` are accepted and ignored, as in TensorFlow)."""
    a = asarray(a)
    dtype = a.dtype if dtype is None else dtype
    return full(shape_of(a) if shape is None else shape, fill_value, dtype)


def eye(N, M=None, k=0, dtype=float):
    """numpy.eye: ones on diagonal `k`."""
    M = N if M is None else M
    return asarray(np.eye(N, M, k), dtype)


def identity_matrix(n, dtype=float):
    """numpy.identity: the n-by-n identity."""
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    """numpy.tri: ones at and below diagonal `k`."""
    M = N if M is None else M
    return asarray(np.tri(N, M, k), float if dtype is None else dtype)


def _band(m, k, lower):
    m = asarray(m)
    if m.shape.rank is not None and m.shape.rank < 2:
        raise ValueError('Argument to tril/triu should have rank >= 2.')
    rows, cols = m.shape[-2], m.shape[-1]
    if rows is None or cols is None:
        raise ValueError('tril/triu need the last two dimensions known.')
    mask = np.tri(rows, cols, k, dtype=bool)
    if not lower:
        mask = ~np.tri(rows, cols, k - 1, dtype=bool)
    if lower and k >= 0 and k < cols or not lower and k <= 0 and -k < rows:
        return band_part(m, -1 if lower else -k, k if lower else -1)
    return where(mask, m, rtm.multiply(m, 0) if not m.dtype.is_bool else
                 rtm.logical_and(m, False))


def tril(m, k=0):
    """numpy.tril: zeros above diagonal `k` (op `MatrixBandPart`)."""
    return _band(m, k, lower=True)


def triu(m, k=0):
    """numpy.triu: zeros below diagonal `k` (op `MatrixBandPart`)."""
    return _band(m, k, lower=False)


def arange(start, stop=None, step=1, dtype=None):
    """numpy.arange (op `Range`); int64 for Python ints, float64 for floats."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = result_type(start, stop, step)
    dtype = rt_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        return cast(rt_range(start, stop, step, dtype=dtypes.float64), dtype)
    return rt_range(cast(asarray(start), dtype), cast(asarray(stop), dtype),
                    cast(asarray(step), dtype), dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    """numpy.linspace: `num` evenly spaced values (`retstep` also gives the step)."""
    start, stop = asarray(start, float), asarray(stop, float)
    if num < 0:
        raise ValueError(f'Number of samples {num} must be non-negative.')
    divisor = num - 1 if endpoint else num
    step = (stop - start) / np.float64(max(divisor, 1))
    steps = expand_dims(asarray(np.arange(num), float), -1) if start.shape.rank else \
        asarray(np.arange(num), float)
    values = start + steps * step
    if endpoint and num > 1:  # the last value is `stop` exactly, as numpy's
        last = num - 1
        index = reshape(asarray(np.arange(num) == last), [-1] + [1] * (values.shape.rank - 1))
        values = where(index, stop + values * 0, values)
    if axis != 0 and values.shape.rank:
        values = moveaxis(values, 0, axis)
    result = cast(values, rt_dtype(dtype)) if rt_dtype(dtype) != values.dtype else values
    return (result, step) if retstep else result


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """numpy.logspace: `base` to the powers `linspace(start, stop)`."""
    powers = linspace(start, stop, num, endpoint, axis=axis)
    result = rtm.pow(asarray(base, float), powers)
    return result if dtype is None else cast(result, rt_dtype(dtype))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """numpy.geomspace: a geometric progression from `start` to `stop`."""
    start, stop = asarray(start, float), asarray(stop, float)
    powers = linspace(rtm.log(start) / np.log(10.0), rtm.log(stop) / np.log(10.0), num,
                      endpoint, axis=axis)
    result = rtm.pow(asarray(10.0, float), powers)
    return result if dtype is None else cast(result, rt_dtype(dtype))


def array(val, dtype=None, copy=True, ndmin=0):
    """numpy.array: `val` as a tensor, with at least `ndmin` dimensions."""
    result = asarray(val, dtype)
    if copy and is_tensor_like(val):
        result = identity(result)
    rank = result.shape.rank
    if rank is not None and rank < ndmin:
        result = reshape(result, [1] * (ndmin - rank) + list(result.shape))
    return result


def asanyarray(a, dtype=None):
    """numpy.asanyarray: `asarray`."""
    return asarray(a, dtype)


def ascontiguousarray(a, dtype=None):
    """numpy.ascontiguousarray: `array` with at least one dimension."""
    return array(a, dtype, ndmin=1)


def copy(a):
    """numpy.copy (op `Identity`)."""
    return array(a, copy=True)


def meshgrid(*xi, **kwargs):
    """numpy.meshgrid (`indexing` 'xy' or 'ij')."""
    indexing = kwargs.get('indexing', 'xy')
    return rt_meshgrid(*[asarray(x) for x in xi], indexing=indexing)


def vander(x, N=None, increasing=False):
    """numpy.vander: the powers of `x` as columns."""
    x = asarray(x)
    n = x.shape[0] if N is None else N
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return rtm.pow(expand_dims(x, -1), asarray(powers, x.dtype))

