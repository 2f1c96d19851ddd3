"""Dilated (atrous) operations as TensorFlow builds them from space-to-batch: the input's
blocks of `rate` are moved into the batch, the undilated op runs there with VALID padding, and
the result's blocks are moved back (`nn.with_space_to_batch`, `nn.atrous_conv2d`,
`nn.atrous_conv2d_transpose`). Their gradients are those of the ops they are made of.
"""
import numpy as np

from runtime.core import dtypes
from runtime.ops.conv import BACKPROP_INPUT, conv2d
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.nn_composites import conv2d_transpose
from runtime.ops.shaping import shape
from runtime.ops.space_batch import (
    batch_to_space,
    required_space_to_batch_paddings,
    space_to_batch_nd,
)


def _check_padding(padding):
    if padding not in ('SAME', 'VALID'):
        raise ValueError(f'padding must be either "VALID" or "SAME", got {padding!r}.')


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,
                        data_format=None):
    """`op(converted_input, num_spatial_dims, padding)` computed at `dilation_rate` over the
    `spatial_dims` of `input` (1..N for channels-last `data_format`, 2..N+1 for channels-first):
    with every rate 1, `op(input, N, padding)`; else `op` runs with "VALID" on the input's
    space-to-batch form (padded as "SAME" needs when `padding` is "SAME", which needs
    `filter_shape`), and its result goes back with batch_to_space."""
    x = convert_to_tensor(input)
    rate = np.asarray(dilation_rate, np.int32).reshape(-1)
    n = rate.size
    if (rate < 1).any():
        raise ValueError(f'dilation_rate must be positive, got {dilation_rate!r}.')
    _check_padding(padding)
    first = 2 if data_format is not None and data_format.startswith('NC') else 1
    dims = list(range(first, first + n)) if spatial_dims is None else sorted(
        int(d) for d in spatial_dims)
    if len(dims) != n or len(set(dims)) != n or dims[0] < 1:
        raise ValueError(f'spatial_dims must be {n} distinct dimensions >= 1, got '
                         f'{spatial_dims!r}.')
    if (rate == 1).all():
        return op(x, n, padding)
    if padding == 'SAME':
        if filter_shape is None:
            raise ValueError('filter_shape must be specified for SAME padding')
        if any(d is None for d in np.ravel(np.asarray(filter_shape, object))):
            raise ValueError(f'filter_shape must be fully known for SAME padding, got '
                             f'{filter_shape!r}.')
        filt = np.asarray(filter_shape, np.int32).reshape(-1)
        effective = (filt - 1) * rate + 1
        start = (effective - 1) // 2
        base = np.stack([start, effective - 1 - start], 1)
    else:
        base = np.zeros((n, 2), np.int32)
    # the ops act on dims 1..last spatial dim: a block of 1 (no padding) on the others
    last = dims[-1]
    block = np.ones(last, np.int32)
    full_base = np.zeros((last, 2), np.int32)
    for k, d in enumerate(dims):
        block[d - 1] = rate[k]
        full_base[d - 1] = base[k]
    static = x.shape.as_list()[1:last + 1] if x.shape.rank is not None else None
    spatial = np.asarray(static, np.int32) if static is not None and None not in static \
        else shape(x)[1:last + 1]
    paddings, crops = required_space_to_batch_paddings(spatial, block, full_base)
    converted = space_to_batch_nd(x, block, paddings)
    result = op(converted, n, 'VALID')
    return batch_to_space(result, block, crops)


def _dim(x, k):
    """Dimension `k` of `x`: an int when known, else a scalar tensor."""
    known = x.shape[k] if x.shape.rank is not None else None
    return known if known is not None else shape(x)[k]


def atrous_conv2d(value, filters, rate, padding, name=None):
    """2-D convolution of NHWC `value` with HWIO `filters` whose taps are `rate` apart (the
    filter upsampled with rate - 1 zeros between its values)."""
    if int(rate) < 1:
        raise ValueError(f'rate {rate} cannot be less than one')

    def conv(x, num_spatial_dims, pad):
        return conv2d(x, filters, [1, 1, 1, 1], pad, name=name)
    filters = convert_to_tensor(filters)
    return with_space_to_batch(value, [int(rate)] * 2, padding, conv,
                               filter_shape=filters.shape.as_list()[:2]
                               if filters.shape.rank is not None else None)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose (gradient) of `atrous_conv2d`: `output_shape` (NHWC) from `value` with HWOI
    `filters` at `rate`."""
    value = convert_to_tensor(value)
    filters = convert_to_tensor(filters, value.dtype)
    if value.shape.rank is not None and filters.shape.rank is not None and \
            not value.shape[3:].is_compatible_with(filters.shape[3:]):
        raise ValueError(f"value's input channels does not match filters' input channels: "
                         f'{value.shape[3]} != {filters.shape[3]}')
    rate = int(rate)
    if rate < 1:
        raise ValueError(f'rate {rate} cannot be less than one')
    _check_padding(padding)
    if rate == 1:
        return conv2d_transpose(value, filters, output_shape, [1, 1, 1, 1], padding, name=name)
    out = [int(d) for d in np.ravel(output_shape)]
    if len(out) != 4:
        raise ValueError(f'output_shape must have shape (4,), got {output_shape!r}')
    if padding == 'SAME':
        fh, fw = (_dim(filters, k) for k in (0, 1))
        ph, pw = fh + (fh - 1) * (rate - 1) - 1, fw + (fw - 1) * (rate - 1) - 1
        top, left = ph // 2, pw // 2
        bottom, right = ph - top, pw - left
    else:
        top = bottom = left = right = 0
    in_h, in_w = out[1] + top + bottom, out[2] + left + right
    extra_h, extra_w = (rate - in_h % rate) % rate, (rate - in_w % rate) % rate
    value = space_to_batch_nd(value, [rate, rate], [[0, extra_h], [0, extra_w]])
    sizes = [rate * rate * out[0], (in_h + extra_h) // rate, (in_w + extra_w) // rate, out[3]]
    value = apply(BACKPROP_INPUT, [convert_to_tensor(sizes, dtypes.int32), filters, value],
                  {'strides': (1, 1, 1, 1), 'padding': 'VALID'})
    return batch_to_space(value, [rate, rate], [[top, bottom + extra_h], [left, right + extra_w]],
                          name=name)
