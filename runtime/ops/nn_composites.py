"""`tf.nn` names TensorFlow builds from other ops: `batch_normalization`, the weighted and
Poisson losses, `crelu`, the moment helpers (`sufficient_statistics`, `normalize_moments`,
`weighted_moments`), local response normalization, and the 1-D and rank-generic forms of
convolution and pooling (reshaped onto the 2-D ops, as TensorFlow does), transposed,
depthwise and separable convolutions, `depth_to_space` / `space_to_depth`.
"""
import math as pymath

from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.compare import greater, where
from runtime.ops.conv import BACKPROP_INPUT, avg_pool2d, conv2d, max_pool2d
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import ones_like
from runtime.ops.dispatch import apply
from runtime.ops.elementwise import log1p, reciprocal, rsqrt, squared_difference
from runtime.ops.manipulation import pad
from runtime.ops.math import abs as abs_
from runtime.ops.math import exp, log, negative, pow, relu, square
from runtime.ops.reduce import reduce_prod, reduce_sum
from runtime.ops.shaping import (
    broadcast_to,
    concat,
    expand_dims,
    reshape,
    shape,
    squeeze,
    transpose,
)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """`(x - mean) * scale / sqrt(variance + variance_epsilon) + offset`, computed as
    TensorFlow does (`offset` and `scale` may be None)."""
    x = convert_to_tensor(x)
    inv = rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv = inv * scale
    shift = offset - mean * inv if offset is not None else negative(mean) * inv
    return x * cast(inv, x.dtype) + cast(shift, x.dtype)


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma, variance_epsilon,
                                         scale_after_normalization, name=None):
    """`batch_normalization` with `gamma` applied when `scale_after_normalization`."""
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon,
                               name=name)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross entropy whose positive term is weighted by `pos_weight`."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, logits.dtype) if not isinstance(labels, Tensor) else labels
    log_weight = 1 + (pos_weight - 1) * labels
    return (1 - labels) * logits + log_weight * (log1p(exp(negative(abs_(logits)))) +
                                                 relu(negative(logits)))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """`exp(log_input) - log_input * targets`, plus Stirling's approximation of
    `log(targets!)` (for targets > 1) when `compute_full_loss`."""
    log_input = convert_to_tensor(log_input)
    targets = convert_to_tensor(targets, log_input.dtype) if not isinstance(targets, Tensor) \
        else targets
    result = exp(log_input) - log_input * targets
    if compute_full_loss:
        safe = where(greater(targets, 1), targets, ones_like(targets))
        stirling = safe * log(safe) - safe + 0.5 * log(2 * pymath.pi * safe)
        result = result + where(greater(targets, 1), stirling, targets * 0)
    return result


def crelu(features, axis=-1, name=None):
    """`concat([relu(x), relu(-x)], axis)`."""
    features = convert_to_tensor(features)
    return concat([relu(features), relu(negative(features))], axis, name=name)


def _count(x, axes):
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and all(dims[a] is not None for a in axes):
        return convert_to_tensor(float(pymath.prod(dims[a] for a in axes)), x.dtype)
    return cast(reduce_prod([shape(x)[a] for a in axes]), x.dtype)


def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum of `x - shift`, sum of its squares, shift) over `axes`."""
    x = convert_to_tensor(x)
    axes = [int(a) % x.shape.rank for a in axes]
    counts = _count(x, axes)
    shifted = x - shift if shift is not None else x
    m_ss = reduce_sum(shifted, axes, keepdims=keepdims)
    v_ss = reduce_sum(square(shifted), axes, keepdims=keepdims)
    return counts, m_ss, v_ss, shift


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from `sufficient_statistics`."""
    divisor = reciprocal(counts)
    shifted_mean = mean_ss * divisor
    mean = shifted_mean + shift if shift is not None else shifted_mean
    variance = variance_ss * divisor - square(shifted_mean)
    return mean, variance


def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes` with each entry counted `frequency_weights` times."""
    x = convert_to_tensor(x)
    weights = cast(frequency_weights, x.dtype)
    weighted_sum = reduce_sum(weights * x, axes, keepdims=True)
    total_weight = reduce_sum(broadcast_to(weights, shape(x)) if weights.shape != x.shape
                              else weights, axes, keepdims=True)
    divisor = reciprocal(total_weight)
    mean = weighted_sum * divisor
    variance = reduce_sum(weights * squared_difference(x, mean), axes, keepdims=True) * divisor
    if not keepdims:
        squeezed = sorted({int(a) % x.shape.rank for a in (
            axes if isinstance(axes, (list, tuple)) else [axes])})
        mean, variance = squeeze(mean, squeezed), squeeze(variance, squeezed)
    return mean, variance


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
    """`input / (bias + alpha * sqr_sum) ** beta`, where `sqr_sum` sums the squares of the
    channels within `depth_radius` of each channel (NHWC)."""
    x = convert_to_tensor(input)
    squares = pad(square(x), [[0, 0]] * 3 + [[depth_radius, depth_radius]])
    depth = x.shape[-1]
    if depth is None:
        raise ValueError('local_response_normalization needs a known channel dimension.')
    window = [squares[..., k:k + depth] for k in range(2 * depth_radius + 1)]
    total = window[0]
    for part in window[1:]:
        total = total + part
    return x / pow(bias + alpha * total, beta)


lrn = local_response_normalization


# ---- convolution and pooling of other ranks -------------------------------------------------

def _nwc_to_nhwc(x):
    return expand_dims(convert_to_tensor(x), 1)


def conv1d(input, filters, stride, padding, data_format='NWC', dilations=None, name=None):
    """1-D convolution of NWC `input` with WIO `filters`: a Conv2D over a height of 1."""
    if data_format not in (None, 'NWC'):
        raise ValueError(f'data_format {data_format!r} is not supported; use NWC.')
    out = conv2d(_nwc_to_nhwc(input), expand_dims(filters, 0), [1] + _ints(stride, 1),
                 padding, dilations=None if dilations in (None, 1) else [1] + _ints(dilations, 1))
    return squeeze(out, [1], name=name)


def _ints(value, count):
    values = [int(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
    return values if len(values) == count else values[1:-1] if len(values) == count + 2 \
        else values * count


def _pool1d(pool2d, input, ksize, strides, padding, data_format, name):
    if data_format not in (None, 'NWC'):
        raise ValueError(f'data_format {data_format!r} is not supported; use NWC.')
    out = pool2d(_nwc_to_nhwc(input), [1] + _ints(ksize, 1), [1] + _ints(strides, 1), padding)
    return squeeze(out, [1], name=name)


def max_pool1d(input, ksize, strides, padding, data_format='NWC', name=None):
    """The maximum of each window of an NWC sequence: MaxPool over a height of 1."""
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format='NWC', name=None):
    """The mean of each window of an NWC sequence: AvgPool over a height of 1."""
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format, name)


def _by_rank(input, one, two, what):
    rank = convert_to_tensor(input).shape.rank
    if rank == 3:
        return one
    if rank == 4:
        return two
    raise NotImplementedError(f'{what} of rank-{rank} inputs is not supported (1-D and 2-D '
                              f'only: rank 3 NWC or rank 4 NHWC).')


def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """Max pooling of an NWC or NHWC input (by its rank)."""
    pool = _by_rank(input, max_pool1d, max_pool2d, 'max_pool')
    return pool(input, ksize, strides, padding, name=name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """Average pooling of an NWC or NHWC input (by its rank)."""
    pool = _by_rank(input, avg_pool1d, avg_pool2d, 'avg_pool')
    return pool(input, ksize, strides, padding, name=name)


def pool(input, window_shape, pooling_type, strides=None, padding='VALID', data_format=None,
         dilations=None, name=None):
    """'MAX' or 'AVG' pooling of an NWC or NHWC input with `window_shape` windows."""
    if dilations not in (None, 1) and any(int(d) != 1 for d in _ints(dilations, 1)):
        raise NotImplementedError('pool with dilations is not supported.')
    chosen = {'MAX': max_pool, 'AVG': avg_pool}.get(pooling_type)
    if chosen is None:
        raise ValueError(f"pooling_type must be 'MAX' or 'AVG', got {pooling_type!r}")
    window = list(window_shape)
    return chosen(input, window, strides if strides is not None else [1] * len(window),
                  padding, name=name)


def convolution(input, filters, strides=None, padding='VALID', data_format=None, dilations=None,
                name=None):
    """Convolution of an NWC or NHWC input (by its rank): conv1d or conv2d."""
    rank = convert_to_tensor(input).shape.rank
    strides = 1 if strides is None else strides
    if rank == 3:
        return conv1d(input, filters, strides, padding, dilations=dilations, name=name)
    if rank == 4:
        return conv2d(input, filters, strides, padding, dilations=dilations, name=name)
    raise NotImplementedError(f'convolution of rank-{rank} inputs is not supported (rank 3 or '
                              f'4).')


def conv2d_transpose(input, filters, output_shape, strides, padding='SAME', data_format='NHWC',
                     dilations=None, name=None):
    """The transpose (gradient) of conv2d: op `Conv2DBackpropInput` producing `output_shape`
    from `input` with HWOI `filters`."""
    _check_2d(padding, data_format, dilations)
    x = convert_to_tensor(input)
    sizes = cast(convert_to_tensor(output_shape), 'int32')
    return apply(BACKPROP_INPUT, [sizes, convert_to_tensor(filters, x.dtype), x],
                 {'strides': tuple([1] + _ints(strides, 2) + [1]), 'padding': padding},
                 name=name)


def _check_2d(padding, data_format, dilations):
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID", got {padding!r}.')
    if data_format not in (None, 'NHWC'):
        raise ValueError(f'data_format {data_format!r} is not supported; use NHWC.')
    if dilations not in (None, 1) and any(int(d) != 1 for d in _ints(dilations, 2)):
        raise NotImplementedError('dilated convolutions are not supported.')


def conv1d_transpose(input, filters, output_shape, strides, padding='SAME', data_format='NWC',
                     dilations=None, name=None):
    """The transpose of conv1d: conv2d_transpose over a height of 1."""
    if data_format not in (None, 'NWC'):
        raise ValueError(f'data_format {data_format!r} is not supported; use NWC.')
    sizes = convert_to_tensor(output_shape)
    sizes = concat([sizes[:1], [1], sizes[1:]], 0) if sizes.shape.rank == 1 else sizes
    out = conv2d_transpose(_nwc_to_nhwc(input), expand_dims(filters, 0), sizes,
                           [1] + _ints(strides, 1), padding, dilations=dilations)
    return squeeze(out, [1], name=name)


def conv_transpose(input, filters, output_shape, strides, padding='SAME', data_format=None,
                   dilations=None, name=None):
    """conv1d_transpose or conv2d_transpose by the input's rank."""
    chosen = _by_rank(input, conv1d_transpose, conv2d_transpose, 'conv_transpose')
    return chosen(input, filters, output_shape, strides, padding, dilations=dilations, name=name)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """Each input channel convolved with its own `filter[:, :, c, :]` (channel multiplier m:
    output channel c * m + k): one Conv2D per channel, concatenated."""
    _check_2d(padding, data_format, dilations)
    x = convert_to_tensor(input)
    f = convert_to_tensor(filter, x.dtype)
    channels = f.shape[2]
    if channels is None:
        raise ValueError('depthwise_conv2d needs a filter with a known channel dimension.')
    outs = [conv2d(x[..., c:c + 1], f[:, :, c:c + 1, :], strides, padding)
            for c in range(channels)]
    return concat(outs, 3, name=name)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None):
    """depthwise_conv2d followed by a 1x1 conv2d with `pointwise_filter`."""
    depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                 dilations)
    return conv2d(depthwise, pointwise_filter, 1, 'VALID', name=name)


def depth_to_space(input, block_size, data_format='NHWC', name=None):
    """Moves blocks of channels into `block_size` x `block_size` spatial blocks (NHWC)."""
    if data_format != 'NHWC':
        raise ValueError(f'data_format {data_format!r} is not supported; use NHWC.')
    x = convert_to_tensor(input)
    b = int(block_size)
    n, h, w, c = (shape(x)[i] for i in range(4))
    blocks = reshape(x, [n, h, w, b, b, c // (b * b)])
    moved = transpose(blocks, [0, 1, 3, 2, 4, 5])
    return reshape(moved, [n, h * b, w * b, c // (b * b)], name=name)


def space_to_depth(input, block_size, data_format='NHWC', name=None):
    """Moves `block_size` x `block_size` spatial blocks into channels (NHWC)."""
    if data_format != 'NHWC':
        raise ValueError(f'data_format {data_format!r} is not supported; use NHWC.')
    x = convert_to_tensor(input)
    b = int(block_size)
    n, h, w, c = (shape(x)[i] for i in range(4))
    blocks = reshape(x, [n, h // b, b, w // b, b, c])
    moved = transpose(blocks, [0, 1, 3, 2, 4, 5])
    return reshape(moved, [n, h // b, w // b, b * b * c], name=name)

