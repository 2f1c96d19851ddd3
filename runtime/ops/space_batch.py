"""Space-to-batch: `space_to_batch_nd` / `space_to_batch` (op SpaceToBatchND) moves blocks of
the spatial dims into the batch, `batch_to_space` (BatchToSpaceND) moves them back, and
`required_space_to_batch_paddings` computes the paddings that make the spatial dims divisible.
Each op's gradient is the other (runtime/gradients/rules/nn_more.py).

On them, as TensorFlow builds them: `nn.with_space_to_batch` (an op at a dilation rate),
`nn.atrous_conv2d` and `nn.atrous_conv2d_transpose` (dilated 2-D convolutions).
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.convert import convert_to_tensor, int_operand, stack
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value
from runtime.ops.registry import register

# ---- the kernels -------------------------------------------------------------------------------


def _block_args(block_shape, pairs, what):
    block = [int(b) for b in np.ravel(block_shape)]
    pairs = np.asarray(pairs).reshape(-1, 2).astype(np.int64) if np.size(pairs) else \
        np.zeros((0, 2), np.int64)
    if len(block) != len(pairs):
        raise errors.InvalidArgumentError(
            message=f'block_shape has {len(block)} entries but {what} has {len(pairs)} rows')
    if any(b < 1 for b in block):
        raise errors.InvalidArgumentError(message=f'All values in block_shape must be >= 1, got '
                                                  f'{block}')
    if (pairs < 0).any():
        raise errors.InvalidArgumentError(message=f'All values in {what} must be >= 0, got '
                                                  f'{pairs.tolist()}')
    return block, pairs


def _check_rank(input, m):
    if input.ndim < m + 1:
        raise errors.InvalidArgumentError(
            message=f'input rank should be > block_shape size {m}, got {input.ndim}')


def _space_to_batch_kernel(input, block_shape, paddings):
    block, pads = _block_args(block_shape, paddings, 'paddings')
    m = len(block)
    _check_rank(input, m)
    padded = np.pad(input, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (input.ndim - m - 1))
    batch, spatial, rest = padded.shape[0], padded.shape[1:m + 1], padded.shape[m + 1:]
    for k, (size, b) in enumerate(zip(spatial, block)):
        if size % b:
            raise errors.InvalidArgumentError(
                message=f'padded_shape[{k}]={size} is not divisible by block_shape[{k}]={b}')
    split = [batch] + [d for size, b in zip(spatial, block) for d in (size // b, b)] + list(rest)
    perm = ([2 + 2 * k for k in range(m)] + [0] + [1 + 2 * k for k in range(m)] +
            list(range(1 + 2 * m, len(split))))
    out = padded.reshape(split).transpose(perm)
    return out.reshape([batch * int(np.prod(block))] + [s // b for s, b in zip(spatial, block)] +
                       list(rest))


def _batch_to_space_kernel(input, block_shape, crops):
    block, crops = _block_args(block_shape, crops, 'crops')
    m = len(block)
    _check_rank(input, m)
    total = int(np.prod(block))
    batch = input.shape[0]
    if batch % total:
        raise errors.InvalidArgumentError(
            message=f'Input batch dimension ({batch}) is not divisible by product of block '
                    f'sizes ({total})')
    spatial, rest = input.shape[1:m + 1], input.shape[m + 1:]
    x = input.reshape(block + [batch // total] + list(input.shape[1:]))
    perm = [m] + [d for k in range(m) for d in (m + 1 + k, k)] + \
        list(range(2 * m + 1, x.ndim))
    x = x.transpose(perm).reshape([batch // total] + [s * b for s, b in zip(spatial, block)] +
                                  list(rest))
    index = [slice(None)]
    for k, (size, (lo, hi)) in enumerate(zip(x.shape[1:m + 1], crops)):
        if lo + hi > size:
            raise errors.InvalidArgumentError(
                message=f'Crops must be non-negative and not exceed the size: crops[{k}] = '
                        f'{[int(lo), int(hi)]}, dimension {size}')
        index.append(slice(int(lo), size - int(hi)))
    return x[tuple(index)]


def _infer(to_batch):
    def infer(inputs, attrs):
        x, block_shape, pairs = inputs
        block, pairs = constant_value(block_shape), constant_value(pairs)
        if x.shape.rank is None or block is None:
            return [(x.dtype, TensorShape(None) if x.shape.rank is None or block is None else
                     TensorShape([None] * x.shape.rank))]
        block = [int(b) for b in np.ravel(block)]
        m = len(block)
        if x.shape.rank < m + 1:
            raise ValueError(f'input rank should be > block_shape size {m}, got shape {x.shape}')
        dims = x.shape.as_list()
        total = int(np.prod(block))
        out = [None if dims[0] is None else dims[0] * total if to_batch else dims[0] // total]
        for k, b in enumerate(block):
            d = dims[1 + k]
            if d is None or pairs is None:
                out.append(None)
                continue
            lo, hi = (int(v) for v in np.asarray(pairs).reshape(-1, 2)[k])
            if to_batch:
                if (d + lo + hi) % b:
                    raise ValueError(f'padded_shape[{k}]={d + lo + hi} is not divisible by '
                                     f'block_shape[{k}]={b}')
                out.append((d + lo + hi) // b)
            else:
                out.append(d * b - lo - hi)
        if to_batch is False and dims[0] is not None and dims[0] % total:
            raise ValueError(f'Input batch dimension ({dims[0]}) is not divisible by product of '
                             f'block sizes ({total})')
        return [(x.dtype, TensorShape(out + dims[1 + m:]))]
    return infer


SPACE_TO_BATCH_ND = register(
    'SpaceToBatchND', _space_to_batch_kernel, _infer(True),
    inputs=('input', 'block_shape', 'paddings'), outputs=('output',),
    type_attrs=(('T', 0), ('Tblock_shape', 1), ('Tpaddings', 2)))
BATCH_TO_SPACE_ND = register(
    'BatchToSpaceND', _batch_to_space_kernel, _infer(False),
    inputs=('input', 'block_shape', 'crops'), outputs=('output',),
    type_attrs=(('T', 0), ('Tblock_shape', 1), ('Tcrops', 2)))


def space_to_batch_nd(input, block_shape, paddings, name=None):
    """`input` ([batch] + spatial + rest) zero-padded by `paddings` ([M, 2]) with each
    `block_shape` ([M]) block of its M spatial dims moved into the batch: shape
    [batch * prod(block_shape)] + padded spatial / block_shape + rest (op `SpaceToBatchND`)."""
    return apply(SPACE_TO_BATCH_ND, [convert_to_tensor(input),
                                     int_operand(block_shape, 'block_shape'),
                                     int_operand(paddings, 'paddings')], name=name)


def space_to_batch(input, block_shape, paddings, name=None):
    """`space_to_batch_nd` (TensorFlow 2's `tf.space_to_batch` and `tf.nn.space_to_batch`)."""
    return space_to_batch_nd(input, block_shape, paddings, name)


def batch_to_space(input, block_shape, crops, name=None):
    """The inverse of `space_to_batch_nd`: the batch's blocks put back into the M spatial dims,
    which `crops` ([M, 2]) then crops (op `BatchToSpaceND`)."""
    if isinstance(block_shape, (int, np.integer)):  # TensorFlow's 2-D shorthand
        block_shape = np.array([block_shape, block_shape], np.int64)
    return apply(BATCH_TO_SPACE_ND, [convert_to_tensor(input),
                                     int_operand(block_shape, 'block_shape'),
                                     int_operand(crops, 'crops')], name=name)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """(paddings, crops): the smallest paddings beyond `base_paddings` ([M, 2], zeros by
    default) that make each of `input_shape` ([M]) divisible by `block_shape` ([M]), and the
    crops that undo the extra padding, as int32 tensors."""
    shape_v = _constant(input_shape, 'input_shape')
    block_v = _constant(block_shape, 'block_shape')
    m = np.size(block_v) if block_v is not None else convert_to_tensor(block_shape).shape[0]
    if m is None:
        raise ValueError('block_shape must have a fully defined shape.')
    base_v = np.zeros((m, 2), np.int32) if base_paddings is None else \
        _constant(base_paddings, 'base_paddings')
    if m == 0:
        empty = np.zeros((0, 2), np.int32)
        return convert_to_tensor(empty), convert_to_tensor(empty)
    if shape_v is not None and block_v is not None and base_v is not None:
        base_v = np.reshape(base_v, (m, 2))
        full = shape_v + base_v[:, 0] + base_v[:, 1]
        extra = (block_v - full % block_v) % block_v
        paddings = np.stack([base_v[:, 0], base_v[:, 1] + extra], 1).astype(np.int32)
        crops = np.stack([np.zeros_like(extra), extra], 1).astype(np.int32)
        return convert_to_tensor(paddings), convert_to_tensor(crops)
    input_shape = convert_to_tensor(input_shape, dtypes.int32)
    block = convert_to_tensor(block_shape, dtypes.int32)
    base = convert_to_tensor(np.zeros((m, 2), np.int32) if base_paddings is None
                             else base_paddings, dtypes.int32)
    start, end = base[:, 0], base[:, 1]
    extra = (block - (input_shape + start + end) % block) % block
    paddings = stack([stack([start[i], end[i] + extra[i]]) for i in range(m)], name=name)
    crops = stack([stack([np.int32(0), extra[i]]) for i in range(m)])
    return paddings, crops


def _constant(value, what):
    """The int32 numpy value of a shape-like argument, or None when a tensor's value is not
    known yet."""
    if isinstance(value, Tensor):
        known = constant_value(value)
        return None if known is None else np.asarray(known, np.int32)
    return np.asarray(int_operand(value, what), np.int32)
