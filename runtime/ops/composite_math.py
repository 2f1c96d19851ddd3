"""`tf.math` names TensorFlow builds from other ops: the segment reductions beyond sums,
`reciprocal_no_nan`, `polyval`, `zero_fraction`, `is_non_decreasing`,
`is_strictly_increasing`, `xlog1py`, `lbeta`, `accumulate_n`.

They are compositions of ops with gradients (the max/min segments scatter with
TensorScatterMax/Min, the means divide UnsortedSegmentSums), so they differentiate and run
under every executor as their parts do.
"""
from runtime.core import dtypes
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.compare import equal, greater, greater_equal, where
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import fill, ones_like, zeros_like
from runtime.ops.elementwise import add_n, div_no_nan, log1p
from runtime.ops.indexing import tensor_scatter_nd_max, tensor_scatter_nd_min
from runtime.ops.math import maximum, multiply, sqrt
from runtime.ops.reduce import reduce_all, reduce_max, reduce_mean, reduce_sum
from runtime.ops.shaping import concat, expand_dims, reshape, shape
from runtime.ops.slicing import unsorted_segment_sum
from runtime.ops.special import lgamma


def _segment_args(data, segment_ids):
    data = convert_to_tensor(data)
    ids = convert_to_tensor(segment_ids)
    if not ids.dtype.is_integer:
        raise TypeError(f'segment_ids must be int32 or int64, got {ids.dtype.name}.')
    return data, ids


def _num_segments(num_segments, ids):
    if isinstance(num_segments, Tensor):
        return cast(num_segments, ids.dtype)
    return convert_to_tensor(int(num_segments), ids.dtype)


def _segment_shape(data, ids, n):
    """The output shape: `n` rows of the trailing dims of `data` past the ids' dims."""
    rank = ids.shape.rank
    if rank is None:
        raise ValueError('segment_ids must have a known rank.')
    return concat([reshape(cast(n, dtypes.int32), [1]), shape(data)[rank:]], 0)


def _scatter_extreme(scatter, initial, data, ids, n):
    base = fill(_segment_shape(data, ids, n), convert_to_tensor(initial, data.dtype))
    return scatter(base, expand_dims(ids, -1), data)


def _counts(data, ids, n):
    return unsorted_segment_sum(ones_like(data), ids, n)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """The maximum of the rows of `data` in each segment; the lowest value of the dtype for a
    segment with none."""
    data, ids = _segment_args(data, segment_ids)
    n = _num_segments(num_segments, ids)
    return _scatter_extreme(tensor_scatter_nd_max, data.dtype.min, data, ids, n)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """The minimum of the rows of `data` in each segment; the highest value of the dtype for a
    segment with none."""
    data, ids = _segment_args(data, segment_ids)
    n = _num_segments(num_segments, ids)
    return _scatter_extreme(tensor_scatter_nd_min, data.dtype.max, data, ids, n)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """The mean of the rows of `data` in each segment (0 for a segment with none)."""
    data, ids = _segment_args(data, segment_ids)
    n = _num_segments(num_segments, ids)
    total = unsorted_segment_sum(data, ids, n)
    return total / maximum(_counts(data, ids, n), ones_like(total))


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """The sum of the rows of `data` in each segment divided by the square root of their
    number (0 for a segment with none)."""
    data, ids = _segment_args(data, segment_ids)
    if not data.dtype.is_floating:
        raise TypeError(f'unsorted_segment_sqrt_n needs floating-point data, got '
                        f'{data.dtype.name}.')
    n = _num_segments(num_segments, ids)
    total = unsorted_segment_sum(data, ids, n)
    return total / sqrt(maximum(_counts(data, ids, n), ones_like(total)))


def _sorted_segments(data, segment_ids):
    data, ids = _segment_args(data, segment_ids)
    n = reduce_max(ids) + 1 if ids.shape.num_elements() != 0 else convert_to_tensor(0, ids.dtype)
    return data, ids, n


def _empty_to_zero(result, data, ids, n):
    seen = greater(_counts(data, ids, n), zeros_like(result))
    return where(seen, result, zeros_like(result))


def segment_max(data, segment_ids, name=None):
    """The maximum of the rows of `data` in each segment of the sorted `segment_ids` (0 for a
    segment with none)."""
    data, ids, n = _sorted_segments(data, segment_ids)
    result = _scatter_extreme(tensor_scatter_nd_max, data.dtype.min, data, ids, n)
    return _empty_to_zero(result, data, ids, n)


def segment_min(data, segment_ids, name=None):
    """The minimum of the rows of `data` in each segment of the sorted `segment_ids` (0 for a
    segment with none)."""
    data, ids, n = _sorted_segments(data, segment_ids)
    result = _scatter_extreme(tensor_scatter_nd_min, data.dtype.max, data, ids, n)
    return _empty_to_zero(result, data, ids, n)


def segment_mean(data, segment_ids, name=None):
    """The mean of the rows of `data` in each segment of the sorted `segment_ids`."""
    data, ids, n = _sorted_segments(data, segment_ids)
    total = unsorted_segment_sum(data, ids, n)
    return total / maximum(_counts(data, ids, n), ones_like(total))


def reciprocal_no_nan(x, name=None):
    """`1 / x`, and 0 where `x` is 0."""
    x = convert_to_tensor(x)
    return div_no_nan(ones_like(x), x, name=name)


def polyval(coeffs, x, name=None):
    """The polynomial `coeffs[0] * x**(n-1) + ... + coeffs[n-1]` at `x`, by Horner's rule
    (an empty `coeffs` gives zeros)."""
    x = convert_to_tensor(x)
    coeffs = list(coeffs)
    if not coeffs:
        return zeros_like(x, name=name)
    result = convert_to_tensor(coeffs[0], x.dtype) if not isinstance(coeffs[0], Tensor) \
        else coeffs[0]
    for c in coeffs[1:]:
        result = c + result * x
    return result


def zero_fraction(value, name=None):
    """The fraction of the entries of `value` that are zero (a float32 scalar)."""
    value = convert_to_tensor(value)
    return reduce_mean(cast(equal(value, zeros_like(value)), dtypes.float32), name=name)


def _increasing(x, strictly, name):
    x = reshape(convert_to_tensor(x), [-1])
    compare = greater if strictly else greater_equal
    return reduce_all(compare(x[1:], x[:-1]), name=name)


def is_non_decreasing(x, name=None):
    """Whether each entry of `x` (flattened) is >= the one before (True for fewer than 2)."""
    return _increasing(x, False, name)


def is_strictly_increasing(x, name=None):
    """Whether each entry of `x` (flattened) is > the one before (True for fewer than 2)."""
    return _increasing(x, True, name)


def xlog1py(x, y, name=None):
    """`x * log1p(y)`, and 0 where `x` is 0 (floating dtypes)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, x.dtype) if not isinstance(y, Tensor) else y
    if not x.dtype.is_floating:
        raise TypeError(f'xlog1py needs floating-point operands, got {x.dtype.name}.')
    safe = where(equal(x, zeros_like(x)), zeros_like(y), y)
    return where(equal(x, zeros_like(x)), zeros_like(x), multiply(x, log1p(safe)), name=name)


def lbeta(x, name=None):
    """`log(|Beta(x)|)` over the last axis: `sum(lgamma(x)) - lgamma(sum(x))`."""
    x = convert_to_tensor(x)
    return reduce_sum(lgamma(x), -1) - lgamma(reduce_sum(x, -1))


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The elementwise sum of `inputs` (TensorFlow's deprecated name of `add_n`); `shape` and
    `tensor_dtype`, when given, are checked."""
    inputs = [convert_to_tensor(t) for t in inputs]
    for t in inputs:
        if tensor_dtype is not None and t.dtype is not dtypes.as_dtype(tensor_dtype):
            raise TypeError(f'accumulate_n: an input has dtype {t.dtype.name}, expected '
                            f'{dtypes.as_dtype(tensor_dtype).name}.')
        if shape is not None and not t.shape.is_compatible_with(shape):
            raise ValueError(f'accumulate_n: an input has shape {t.shape}, expected {shape}.')
    return add_n(inputs, name=name)
