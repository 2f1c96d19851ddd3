"""More of `tf.nn`'s ops: `max_pool_with_argmax` (MaxPoolWithArgmax, with
MaxPoolGradWithArgmax for its gradient, which has none in TensorFlow), `dilation2d` and
`erosion2d` (Dilation2D, with Dilation2DBackpropInput / Dilation2DBackpropFilter),
`isotonic_regression` (IsotonicRegression) and `compute_accidental_hits`
(ComputeAccidentalHits). Gradients are in runtime/gradients/rules/nn_more.py. Built from
other ops, as TensorFlow builds them: `depthwise_conv2d_backprop_input` / `_filter` and
`collapse_repeated`.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.array import cast
from runtime.ops.compare import logical_and, not_equal
from runtime.ops.conv import BACKPROP_FILTER, BACKPROP_INPUT, out_size, spatial_form
from runtime.ops.conv3d import geometry, windows_of
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import eye, ones_like
from runtime.ops.creation import range as range_
from runtime.ops.dispatch import apply
from runtime.ops.indexing import boolean_mask, scatter_nd
from runtime.ops.infer import constant_value
from runtime.ops.math import negative
from runtime.ops.reduce import reduce_max, reduce_sum
from runtime.ops.registry import NUMERIC, register
from runtime.ops.shaping import concat, expand_dims, reshape, shape, transpose
from runtime.structural import sequence_mask

REALS = frozenset(d for d in NUMERIC if not d.is_complex)


def _four(value, name):
    return spatial_form(value, name, 2)


def _check(padding, data_format):
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be "SAME" or "VALID", got {padding!r}.')
    if data_format != 'NHWC':
        raise ValueError("`data_format` values other than 'NHWC' are not supported.")


# ---- MaxPoolWithArgmax ------------------------------------------------------------------------

def _argmax_windows(input, ksize, strides, padding, include_batch_in_index):
    """The windows' maxima and the flat index (TensorFlow's `argmax`) of each."""
    n, h, w, c = input.shape
    _, pads = geometry(input.shape, ksize[1:3], strides, padding)
    lowest = -np.inf if input.dtype.kind == 'f' else np.iinfo(input.dtype).min
    values, _ = windows_of(input, ksize[1:3], strides, pads, fill=lowest)
    positions = np.arange(n * h * w * c, dtype=np.int64).reshape(input.shape)
    if not include_batch_in_index:
        positions = positions - (np.arange(n, dtype=np.int64) * (h * w * c))[:, None, None, None]
    index, _ = windows_of(positions, ksize[1:3], strides, pads, fill=-1)
    valid, _ = windows_of(np.ones(input.shape, bool), ksize[1:3], strides, pads, fill=False)
    flat = values.reshape(values.shape[:4] + (-1,))
    # the first largest real cell of each window (padding never wins)
    ranked = np.where(valid.reshape(flat.shape), flat, lowest)
    best = np.argmax(ranked, -1)[..., None]
    return (np.take_along_axis(flat, best, -1)[..., 0],
            np.take_along_axis(index.reshape(flat.shape), best, -1)[..., 0])


def _max_pool_argmax_kernel(input, ksize, strides, padding, Targmax=dtypes.int64,
                            include_batch_in_index=False):
    out, arg = _argmax_windows(input, ksize, strides, padding, include_batch_in_index)
    return out.astype(input.dtype), arg.astype(Targmax.np_dtype)


def _flat_offsets(shape, argmax, include_batch_in_index):
    if include_batch_in_index:
        return np.ravel(argmax)
    per_batch = int(np.prod(shape[1:]))
    return np.ravel(argmax + (np.arange(shape[0]) * per_batch).reshape(
        (-1,) + (1,) * (argmax.ndim - 1)))


def _max_pool_grad_argmax_kernel(input, grad, argmax, ksize, strides, padding,
                                 include_batch_in_index=False):
    out = np.zeros(input.size, grad.dtype)
    np.add.at(out, _flat_offsets(input.shape, argmax, include_batch_in_index), np.ravel(grad))
    return out.reshape(input.shape)


def _pool_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank not in (None, 4):
        raise ValueError(f'max_pool_with_argmax needs a rank-4 input (NHWC), got {x.shape}')
    dims = [None] * 4 if x.shape.rank is None else x.shape.as_list()
    ksize, strides, padding = attrs['ksize'], attrs['strides'], attrs['padding']
    out = [dims[0]] + [None if dims[k] is None else out_size(dims[k], ksize[k], strides[k],
                                                               padding)[0]
                       for k in (1, 2)] + [dims[3]]
    return [(x.dtype, TensorShape(out)),
            (attrs.get('Targmax', dtypes.int64), TensorShape(out))]


_ARGMAX_DEFAULTS = {'include_batch_in_index': False}
MAX_POOL_WITH_ARGMAX = register(
    'MaxPoolWithArgmax', _max_pool_argmax_kernel, _pool_infer, inputs=('input',),
    outputs=('output', 'argmax'), defaults={**_ARGMAX_DEFAULTS, 'Targmax': dtypes.int64},
    dtypes=REALS)
MAX_POOL_GRAD_WITH_ARGMAX = register(
    'MaxPoolGradWithArgmax', _max_pool_grad_argmax_kernel,
    lambda inputs, attrs: [(inputs[1].dtype, inputs[0].shape)],
    inputs=('input', 'grad', 'argmax'), outputs=('output',),
    type_attrs=(('T', 0),), defaults=_ARGMAX_DEFAULTS, dtypes=REALS)

def max_pool_with_argmax(input, ksize, strides, padding, data_format='NHWC',
                         output_dtype=dtypes.int64, include_batch_in_index=False, name=None):
    """(the maximum of each `ksize` window, the flat index of that maximum in `input`:
    ((b * height + y) * width + x) * channels + c, without the `b` term unless
    `include_batch_in_index`) (op `MaxPoolWithArgmax`)."""
    _check(padding, data_format)
    output_dtype = dtypes.as_dtype(output_dtype)
    if output_dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'output_dtype must be int32 or int64, got {output_dtype.name}.')
    attrs = {'ksize': _four(ksize, 'ksize'), 'strides': _four(strides, 'strides'),
             'padding': padding, 'Targmax': output_dtype}
    if include_batch_in_index:
        attrs['include_batch_in_index'] = True
    return tuple(apply(MAX_POOL_WITH_ARGMAX, [convert_to_tensor(input)], attrs, name=name))


# ---- Dilation2D --------------------------------------------------------------------------------

def _dilation_geometry(shape, filter_shape, strides, rates, padding):
    effective = [(filter_shape[k] - 1) * rates[k + 1] + 1 for k in (0, 1)]
    out, pads = [], [(0, 0)]
    for k in (0, 1):
        size, before, after = out_size(shape[k + 1], effective[k], strides[k + 1], padding)
        out.append(size)
        pads.append((before, after))
    return out, pads + [(0, 0)]


def _dilation_candidates(input, filter, strides, rates, padding):
    """(N, OH, OW, C, fh * fw) candidate values, (fh * fw) padded positions of each."""
    (oh, ow), pads = _dilation_geometry(input.shape, filter.shape, strides, rates, padding)
    lowest = -np.inf if input.dtype.kind == 'f' else np.iinfo(input.dtype).min
    padded = np.pad(input, pads, constant_values=lowest)
    fh, fw = filter.shape[:2]
    sh, sw, rh, rw = strides[1], strides[2], rates[1], rates[2]
    parts = []
    for i in range(fh):
        for j in range(fw):
            window = padded[:, i * rh:i * rh + sh * (oh - 1) + 1:sh,
                            j * rw:j * rw + sw * (ow - 1) + 1:sw]
            parts.append(window + filter[i, j])
    return np.stack(parts, -1), pads, (oh, ow)


def _dilation_kernel(input, filter, strides, rates, padding):
    values, _, _ = _dilation_candidates(input, filter, strides, rates, padding)
    return values.max(-1).astype(input.dtype)


def _dilation_best(input, filter, strides, rates, padding):
    values, pads, (oh, ow) = _dilation_candidates(input, filter, strides, rates, padding)
    return np.argmax(values, -1), pads, (oh, ow)  # the first maximum, as TensorFlow's loop


def _backprop_input_kernel(input, filter, out_backprop, strides, rates, padding):
    best, pads, (oh, ow) = _dilation_best(input, filter, strides, rates, padding)
    fw = filter.shape[1]
    n, _, _, c = input.shape
    b, y, x, ch = np.indices((n, oh, ow, c))
    rows = y * strides[1] + (best // fw) * rates[1] - pads[1][0]
    cols = x * strides[2] + (best % fw) * rates[2] - pads[2][0]
    out = np.zeros(input.shape, out_backprop.dtype)
    np.add.at(out, (b, rows, cols, ch), out_backprop)
    return out


def _backprop_filter_kernel(input, filter, out_backprop, strides, rates, padding):
    best, _, _ = _dilation_best(input, filter, strides, rates, padding)
    fw = filter.shape[1]
    ch = np.broadcast_to(np.arange(input.shape[3]), best.shape)
    out = np.zeros(filter.shape, out_backprop.dtype)
    np.add.at(out, (best // fw, best % fw, ch), out_backprop)
    return out


def _dilation_infer(inputs, attrs):
    x, f = inputs[0], inputs[1]
    if x.shape.rank not in (None, 4) or f.shape.rank not in (None, 3):
        raise ValueError(f'dilation2d needs a rank-4 input (NHWC) and a rank-3 filter, got '
                         f'{x.shape} and {f.shape}')
    if x.shape.rank is None or f.shape.rank is None or None in f.shape.as_list()[:2]:
        return [(x.dtype, TensorShape([None] * 4))]
    dims = x.shape.as_list()
    out = [dims[0]]
    for k in (1, 2):
        effective = (f.shape[k - 1] - 1) * attrs['rates'][k] + 1
        out.append(None if dims[k] is None else out_size(dims[k], effective, attrs['strides'][k],
                                                         attrs['padding'])[0])
    return [(x.dtype, TensorShape(out + [dims[3]]))]


DILATION2D = register('Dilation2D', _dilation_kernel, _dilation_infer,
                      inputs=('input', 'filter'), outputs=('output',), dtypes=REALS)
DILATION2D_BACKPROP_INPUT = register(
    'Dilation2DBackpropInput', _backprop_input_kernel,
    lambda inputs, attrs: [(inputs[0].dtype, inputs[0].shape)],
    inputs=('input', 'filter', 'out_backprop'), outputs=('in_backprop',), dtypes=REALS)
DILATION2D_BACKPROP_FILTER = register(
    'Dilation2DBackpropFilter', _backprop_filter_kernel,
    lambda inputs, attrs: [(inputs[1].dtype, inputs[1].shape)],
    inputs=('input', 'filter', 'out_backprop'), outputs=('filter_backprop',), dtypes=REALS)


def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale morphological dilation of NHWC `input` by the [h, w, C] structuring function
    `filters`: the maximum over each window (taps `dilations` apart) of input + filter (op
    `Dilation2D`)."""
    _check(padding, data_format)
    x = convert_to_tensor(input)
    return apply(DILATION2D, [x, convert_to_tensor(filters, x.dtype)],
                 {'strides': _four(strides, 'strides'), 'rates': _four(dilations, 'dilations'),
                  'padding': padding}, name=name)


def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale morphological erosion: the minimum over each window of value - filter,
    TensorFlow's dual of dilation2d (-dilation2d(-value, the filters reversed))."""
    _check(padding, data_format)
    x = convert_to_tensor(value)
    f = convert_to_tensor(filters, x.dtype)
    reversed_filters = f[::-1, ::-1]
    return negative(dilation2d(negative(x), reversed_filters, strides, padding, data_format,
                               dilations), name=name)


# ---- IsotonicRegression ------------------------------------------------------------------------

def _pava(row):
    """The non-increasing least-squares fit of `row` and each element's segment id."""
    sums, counts = [], []
    for v in row:
        sums.append(float(v))
        counts.append(1)
        while len(sums) > 1 and sums[-2] / counts[-2] < sums[-1] / counts[-1]:
            total, count = sums.pop(), counts.pop()
            sums[-1] += total
            counts[-1] += count
    means = np.repeat(np.array(sums) / np.array(counts), counts)
    return means, np.repeat(np.arange(len(counts), dtype=np.int32), counts)


def _isotonic_kernel(input, output_dtype=dtypes.float32):
    out = np.empty(input.shape, output_dtype.np_dtype)
    segments = np.empty(input.shape, np.int32)
    for k, row in enumerate(input.astype(np.float64)):
        out[k], segments[k] = _pava(row)
    return out, segments


ISOTONIC_REGRESSION = register(
    'IsotonicRegression', _isotonic_kernel,
    lambda inputs, attrs: [(attrs.get('output_dtype', dtypes.float32), inputs[0].shape),
                           (dtypes.int32, inputs[0].shape)],
    inputs=('input',), outputs=('output', 'segments'),
    defaults={'output_dtype': dtypes.float32}, dtypes=REALS)
# TensorFlow's output dtype for each input dtype (any other: float64)
_PROMOTED = {dtypes.float32: dtypes.float32, dtypes.float16: dtypes.float16,
             dtypes.int8: dtypes.float32, dtypes.int16: dtypes.float32}


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """(the least-squares non-increasing (or, with `decreasing=False`, non-decreasing) fit of
    each 1-D slice of `inputs` along `axis`, the int32 id of each element's block of equal
    values) (op `IsotonicRegression`)."""
    x = convert_to_tensor(inputs)
    rank = x.shape.rank
    if rank is None:
        raise ValueError('isotonic_regression needs inputs of a known rank.')
    axis = axis + rank if axis < 0 else axis
    perm = [d for d in range(rank) if d != axis] + [axis]
    inverse = list(np.argsort(perm))
    moved = transpose(x, perm) if perm != list(range(rank)) else x
    dims = moved.shape.as_list()
    matrix = reshape(moved, [-1, dims[-1] if dims[-1] is not None else shape(moved)[-1]])
    attrs = {'output_dtype': _PROMOTED.get(x.dtype, dtypes.float64)}
    if decreasing:
        output, segments = apply(ISOTONIC_REGRESSION, [matrix], attrs)
    else:
        output, segments = apply(ISOTONIC_REGRESSION, [negative(matrix)], attrs)
        output = negative(output)
    moved_shape = dims if None not in dims else shape(moved)
    output, segments = reshape(output, moved_shape), reshape(segments, moved_shape)
    if perm != list(range(rank)):
        output, segments = transpose(output, inverse), transpose(segments, inverse)
    return output, segments


# ---- ComputeAccidentalHits ---------------------------------------------------------------------

def _accidental_hits_kernel(true_classes, sampled_candidates, num_true, seed=0, seed2=0):
    if true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(
            message=f'true_classes must have num_true columns, expected: '
                    f'{true_classes.shape[1]} was: {num_true}')
    position = {int(v): k for k, v in enumerate(sampled_candidates)}  # the last one counts
    rows, ids = [], []
    for i, row in enumerate(true_classes):
        for value in row:
            k = position.get(int(value))
            if k is not None:
                rows.append(i)
                ids.append(k)
    return (np.array(rows, np.int32), np.array(ids, np.int64),
            np.full(len(rows), np.finfo(np.float32).min, np.float32))


def _accidental_hits_infer(inputs, attrs):
    return [(dtypes.int32, TensorShape([None])), (dtypes.int64, TensorShape([None])),
            (dtypes.float32, TensorShape([None]))]


COMPUTE_ACCIDENTAL_HITS = register(
    'ComputeAccidentalHits', _accidental_hits_kernel, _accidental_hits_infer,
    inputs=('true_classes', 'sampled_candidates'), outputs=('indices', 'ids', 'weights'),
    type_attrs=(), defaults={'seed': 0, 'seed2': 0})


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(row indices, positions in `sampled_candidates`, weights of -FLT_MAX): one hit for each
    true class of each row of `true_classes` ([batch, num_true] int64) that is among the
    `sampled_candidates` (its last position there) (op `ComputeAccidentalHits`); `seed` is
    recorded on the op and changes nothing (nothing is random)."""
    attrs = {'num_true': int(num_true)}
    if seed is not None:
        attrs['seed'] = int(seed)
    return tuple(apply(COMPUTE_ACCIDENTAL_HITS,
                       [convert_to_tensor(true_classes, dtypes.int64),
                        convert_to_tensor(sampled_candidates, dtypes.int64)], attrs, name=name))


# ---- depthwise convolution's backprops, collapse_repeated (built from other ops) --------------

def _depthwise_as_full(filter):
    """The Conv2D filter [h, w, C, C * M] equal to the depthwise filter [h, w, C, M]: channel c
    feeds only outputs c * M .. c * M + M - 1."""
    dims = [filter.shape[k] if filter.shape[k] is not None else shape(filter)[k]
            for k in range(3)]
    diagonal = reshape(eye(dims[2], dtype=filter.dtype), [1, 1, dims[2], dims[2], 1])
    return reshape(expand_dims(filter, 3) * diagonal, dims + [-1])


def _depthwise_check(padding, data_format, dilations):
    _check(padding, data_format)
    if dilations is not None and _four(dilations, 'dilations') != (1, 1, 1, 1):
        raise ValueError('dilated depthwise convolutions are not supported.')


def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,
                                   data_format='NHWC', dilations=(1, 1, 1, 1), name=None):
    """The gradient of `depthwise_conv2d` with respect to its input, of shape `input_sizes`:
    Conv2DBackpropInput with the depthwise filter as a full one."""
    _depthwise_check(padding, data_format, dilations)
    dy = convert_to_tensor(out_backprop)
    f = convert_to_tensor(filter, dy.dtype)
    if f.shape.rank not in (None, 4):
        raise ValueError(f'filter must be [h, w, in_channels, multiplier], got shape {f.shape}')
    sizes = cast(convert_to_tensor(input_sizes), dtypes.int32)
    return apply(BACKPROP_INPUT, [sizes, _depthwise_as_full(f), dy],
                 {'strides': tuple(_four(strides, 'strides')), 'padding': padding}, name=name)


def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                                    data_format='NHWC', dilations=(1, 1, 1, 1), name=None):
    """The gradient of `depthwise_conv2d` with respect to its filter, of shape `filter_sizes`
    ([h, w, C, M], known): the diagonal blocks of Conv2DBackpropFilter's full gradient."""
    _depthwise_check(padding, data_format, dilations)
    x = convert_to_tensor(input)
    sizes = constant_value(convert_to_tensor(filter_sizes))
    if sizes is None:
        raise ValueError('depthwise_conv2d_backprop_filter needs filter_sizes known while the '
                         'graph is built.')
    h, w, channels, multiplier = (int(d) for d in sizes)
    full = apply(BACKPROP_FILTER, [x, np.array([h, w, channels, channels * multiplier],
                                               np.int32), convert_to_tensor(out_backprop)],
                 {'strides': tuple(_four(strides, 'strides')), 'padding': padding})
    blocks = reshape(full, [h, w, channels, channels, multiplier])
    eye = np.eye(channels, dtype=x.dtype.np_dtype)[None, None, :, :, None]
    return reduce_sum(blocks * eye, 3, name=name)


def collapse_repeated(labels, seq_length, name=None):
    """(labels with each run of a repeated label merged into one, left-aligned and padded with
    zeros to the longest new length; the new lengths), for [batch, max_len] `labels` whose row
    i has `seq_length[i]` labels (TensorFlow's composite, as it builds it)."""
    labels = convert_to_tensor(labels)
    seq_length = convert_to_tensor(seq_length)
    label_mask = concat([ones_like(labels[:, :1], dtypes.bool),
                         not_equal(labels[:, 1:], labels[:, :-1])], 1)
    maxlen = labels.shape[1] if labels.shape[1] is not None else shape(labels)[1]
    label_mask = logical_and(label_mask, sequence_mask(seq_length, maxlen=maxlen))
    new_seq_len = reduce_sum(cast(label_mask, dtypes.int32), 1)
    new_maxlen = reduce_max(new_seq_len)
    idx_mask = sequence_mask(new_seq_len, maxlen=new_maxlen)
    flat_labels = reshape(labels, [-1])
    flat_label_mask = reshape(label_mask, [-1])
    flat_idx_mask = reshape(idx_mask, [-1])
    idx = range_(shape(flat_idx_mask)[0])
    flat = scatter_nd(expand_dims(boolean_mask(idx, flat_idx_mask), 1),
                      boolean_mask(flat_labels, flat_label_mask), shape(flat_idx_mask))
    batch = labels.shape[0] if labels.shape[0] is not None else shape(labels)[0]
    return reshape(flat, [batch, new_maxlen], name=name), cast(new_seq_len, seq_length.dtype)
