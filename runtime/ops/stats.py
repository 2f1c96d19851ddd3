"""Reductions built on the basic ones, as TensorFlow builds them: `reduce_logsumexp`,
`reduce_variance`, `reduce_std`, `count_nonzero`, `l2_normalize`, `moments`; and the
`EuclideanNorm` op (`reduce_euclidean_norm`).
"""
import numpy as np

from runtime.core import dtypes
from runtime.ops.compare import not_equal, where
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.elementwise import is_finite, rsqrt, squared_difference
from runtime.ops.math import cast, exp, log, maximum, sqrt, square
from runtime.ops.reduce import axis_operand, reduce_infer, reduce_max, reduce_mean, reduce_sum
from runtime.ops.registry import register
from runtime.ops.shaping import squeeze


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """`log(reduce_sum(exp(x)))`, computed stably: the max is taken out first (and kept out
    where it is not finite), as TensorFlow does."""
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f'rt.math.reduce_logsumexp needs a floating-point tensor, got '
                        f'{x.dtype.name}.')
    top = reduce_max(x, axis, keepdims=True)
    top = where(is_finite(top), top, 0.0)
    total = reduce_sum(exp(x - top), axis, keepdims=keepdims)
    # `top` has size 1 along the reduced axes: summing them drops them without a Reshape.
    return log(total) + (top if keepdims else reduce_sum(top, axis))


def _squeezed_axes(x, axis):
    rank = x.shape.rank
    if axis is None:
        return list(range(rank))
    return sorted({int(a) % rank for a in np.ravel(axis)})


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The variance over `axis`: `reduce_mean(square(x - reduce_mean(x)))` (floats only)."""
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f'rt.math.reduce_variance needs a floating-point tensor, got '
                        f'{x.dtype.name}; use rt.cast first.')
    mean = reduce_mean(x, axis, keepdims=True)
    return reduce_mean(square(x - mean), axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation over `axis`: `sqrt(reduce_variance(x))`."""
    return sqrt(reduce_variance(input_tensor, axis, keepdims), name=name)


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):
    """How many entries are not zero (not False, not b'') over `axis`, as `dtype` (int64)."""
    x = convert_to_tensor(input)
    zero = b'' if x.dtype is dtypes.string else False if x.dtype.is_bool else 0
    counts = cast(not_equal(x, zero), dtypes.as_dtype(dtype))
    return reduce_sum(counts, axis, keepdims=bool(keepdims), name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """`x / sqrt(max(reduce_sum(x**2, axis), epsilon))` (TensorFlow's graph: Square, Sum,
    Maximum, Rsqrt, Mul). `dim` is TensorFlow's older name of `axis`."""
    if dim is not None:
        if axis is not None:
            raise ValueError('Cannot specify both \'axis\' and \'dim\'')
        axis = dim
    x = convert_to_tensor(x)
    square_sum = reduce_sum(square(x), axis, keepdims=True)
    return x * rsqrt(maximum(square_sum, epsilon))


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes` (`rt.nn.moments`; the graph TensorFlow builds: Mean,
    SquaredDifference, Mean)."""
    x = convert_to_tensor(x)
    mean = reduce_mean(x, axes, keepdims=True)
    variance = reduce_mean(squared_difference(x, mean), axes, keepdims=True)
    if not keepdims:
        axes = _squeezed_axes(x, axes)
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return mean, variance


# ---- EuclideanNorm -----------------------------------------------------------------------------

def _euclidean_norm_kernel(input, reduction_indices, keep_dims=False):
    axes = tuple(int(a) for a in np.ravel(reduction_indices))
    out = np.sqrt(np.sum(np.square(input), axis=axes, keepdims=keep_dims))
    return out.astype(input.dtype, copy=False)


EUCLIDEAN_NORM = register('EuclideanNorm', _euclidean_norm_kernel, reduce_infer,
                          inputs=('input', 'reduction_indices'), outputs=('output',),
                          type_attrs=(('T', 0), ('Tidx', 1)), defaults={'keep_dims': False})


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """`sqrt(reduce_sum(x ** 2, axis))` (op `EuclideanNorm`)."""
    x = convert_to_tensor(input_tensor)
    attrs = {'keep_dims': True} if keepdims else {}
    return apply(EUCLIDEAN_NORM, [x, axis_operand(x, axis)], attrs, name=name)
