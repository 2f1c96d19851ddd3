"""More of TensorFlow's top-level array ops, each its own op type: `roll` (Roll),
`unique` / `unique_with_counts` (Unique, UniqueWithCounts), `unravel_index` (UnravelIndex),
`searchsorted` (LowerBound, UpperBound), `reverse_sequence` (ReverseSequence), `ensure_shape`
(EnsureShape), `math.rint` (Rint), `truncatediv` / `truncatemod` (TruncateDiv, TruncateMod),
`math.invert_permutation` (InvertPermutation), `histogram_fixed_width`
(HistogramFixedWidth), `timestamp` (Timestamp). Their gradients are in
runtime/gradients/rules/array_more.py.
"""
import time

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape, as_shape
from runtime.ops.convert import convert_to_tensor, int_operand, unify_inputs, unify_operands
from runtime.ops.dispatch import apply
from runtime.ops.infer import broadcast, constant_value, same_as_input
from runtime.ops.registry import Elementwise, register

# ---- Roll ------------------------------------------------------------------------------------

def _roll_kernel(input, shift, axis):
    return np.roll(input, tuple(np.ravel(shift).tolist()), tuple(np.ravel(axis).tolist()))


ROLL = register('Roll', _roll_kernel, same_as_input, inputs=('input', 'shift', 'axis'),
                outputs=('output',), type_attrs=(('T', 0), ('Tshift', 1), ('Taxis', 2)))


def roll(input, shift, axis, name=None):
    """`input` with its elements shifted by `shift` along `axis`, wrapping around (op `Roll`)."""
    return apply(ROLL, [convert_to_tensor(input), int_operand(shift, 'shift'),
                        int_operand(axis, 'axis')], name=name)


# ---- Unique, UniqueWithCounts -----------------------------------------------------------------

def _unique_kernel(x, out_idx=dtypes.int32):
    if np.ndim(x) != 1:
        raise errors.InvalidArgumentError(
            message=f'unique expects a 1D vector, got shape {list(np.shape(x))}')
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind='stable')  # in the order of first appearance, as TF
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return values[order], rank[inverse.ravel()].astype(out_idx.np_dtype)


def _unique_counts_kernel(x, out_idx=dtypes.int32):
    y, idx = _unique_kernel(x, out_idx)
    return y, idx, np.bincount(idx, minlength=y.size).astype(out_idx.np_dtype)


def _unique_infer(counts):
    def infer(inputs, attrs):
        x = inputs[0]
        if x.shape.rank not in (None, 1):
            raise ValueError(f'unique expects a 1D vector, got shape {x.shape}')
        out_idx = attrs.get('out_idx', dtypes.int32)
        specs = [(x.dtype, TensorShape([None])), (out_idx, x.shape if x.shape.rank else
                                                 TensorShape([None]))]
        return specs + [(out_idx, TensorShape([None]))] if counts else specs
    return infer


UNIQUE = register('Unique', _unique_kernel, _unique_infer(False), inputs=('x',),
                  outputs=('y', 'idx'), defaults={'out_idx': dtypes.int32})
UNIQUE_WITH_COUNTS = register('UniqueWithCounts', _unique_counts_kernel, _unique_infer(True),
                              inputs=('x',), outputs=('y', 'idx', 'count'),
                              defaults={'out_idx': dtypes.int32})


def _unique(opdef, x, out_idx, name):
    x = convert_to_tensor(x)
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'out_idx must be int32 or int64, got {out_idx.name}.')
    return apply(opdef, [x], {'out_idx': out_idx}, name=name)


def unique(x, out_idx=dtypes.int32, name=None):
    """(y, idx): the distinct values of the vector `x` in order of first appearance, and for
    each entry of `x` the index of its value in `y` (op `Unique`)."""
    return tuple(_unique(UNIQUE, x, out_idx, name))


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """(y, idx, count): `unique`, and how often each value occurs (op `UniqueWithCounts`)."""
    return tuple(_unique(UNIQUE_WITH_COUNTS, x, out_idx, name))


# ---- UnravelIndex ---------------------------------------------------------------------------

def _unravel_kernel(indices, dims):
    dims_list = tuple(int(d) for d in np.ravel(dims))
    flat = np.asarray(indices)
    if np.any(flat < 0) or np.any(flat >= int(np.prod(dims_list))):
        raise errors.InvalidArgumentError(message=f'index out of bounds for dims {dims_list}')
    return np.stack(np.unravel_index(flat, dims_list)).astype(flat.dtype)


def _unravel_infer(inputs, attrs):
    indices, dims = inputs
    count = dims.shape[0] if dims.shape.rank == 1 else None
    if indices.shape.rank is None:
        return [(indices.dtype, TensorShape(None))]
    return [(indices.dtype, TensorShape([count] + indices.shape.as_list()))]


UNRAVEL_INDEX = register('UnravelIndex', _unravel_kernel, _unravel_infer,
                         inputs=('indices', 'dims'), outputs=('output',),
                         type_attrs=(('Tidx', 0),))


def unravel_index(indices, dims, name=None):
    """The coordinates in an array of shape `dims` of the flat `indices` (op `UnravelIndex`)."""
    (indices, dims), dtype = unify_operands('UnravelIndex', indices, dims)
    if not dtype.is_integer:
        raise TypeError(f'unravel_index needs integer indices, got {dtype.name}.')
    return apply(UNRAVEL_INDEX, [convert_to_tensor(indices), convert_to_tensor(dims)],
                 name=name)


# ---- LowerBound, UpperBound (searchsorted) ---------------------------------------------------

def _bound_kernel(side):
    def kernel(sorted_inputs, values, out_type=dtypes.int32):
        rows = sorted_inputs.reshape(-1, sorted_inputs.shape[-1])
        wanted = values.reshape(rows.shape[0], -1)
        out = np.stack([np.searchsorted(r, v, side=side) for r, v in zip(rows, wanted)])
        return out.reshape(values.shape).astype(out_type.np_dtype)
    return kernel


def _bound_infer(inputs, attrs):
    return [(attrs.get('out_type', dtypes.int32), inputs[1].shape)]


LOWER_BOUND, UPPER_BOUND = (
    register(op, _bound_kernel(side), _bound_infer, inputs=('sorted_inputs', 'values'),
             outputs=('output',), defaults={'out_type': dtypes.int32})
    for op, side in (('LowerBound', 'left'), ('UpperBound', 'right')))


def searchsorted(sorted_sequence, values, side='left', out_type=dtypes.int32, name=None):
    """For each of `values`, the index in its row of `sorted_sequence` (sorted along the last
    axis) where it would be inserted: before equal entries for side='left' (op `LowerBound`),
    after them for 'right' (op `UpperBound`)."""
    if side not in ('left', 'right'):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}.")
    (sorted_sequence, values), _ = unify_operands('LowerBound', sorted_sequence, values)
    opdef = LOWER_BOUND if side == 'left' else UPPER_BOUND
    return apply(opdef, [convert_to_tensor(sorted_sequence), convert_to_tensor(values)],
                 {'out_type': dtypes.as_dtype(out_type)}, name=name)


# ---- ReverseSequence -------------------------------------------------------------------------

def _reverse_sequence_kernel(input, seq_lengths, seq_dim, batch_dim=0):
    out = np.array(input, copy=True)
    for b, length in enumerate(np.ravel(seq_lengths)):
        length = int(length)
        if length > input.shape[seq_dim] or length < 0:
            raise errors.InvalidArgumentError(message=f'seq_lengths[{b}] = {length} is not in '
                                                      f'[0, {input.shape[seq_dim]}]')
        index = [slice(None)] * input.ndim
        index[batch_dim] = b
        index[seq_dim] = slice(0, length)
        out[tuple(index)] = np.flip(input[tuple(index)], seq_dim - (seq_dim > batch_dim))
    return out


REVERSE_SEQUENCE = register('ReverseSequence', _reverse_sequence_kernel, same_as_input,
                            inputs=('input', 'seq_lengths'), outputs=('output',),
                            type_attrs=(('T', 0), ('Tlen', 1)), defaults={'batch_dim': 0})


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):
    """Each batch entry `b` of `input` with its first `seq_lengths[b]` elements along
    `seq_axis` reversed (op `ReverseSequence`)."""
    if seq_axis is None:
        raise ValueError('reverse_sequence needs seq_axis.')
    x = convert_to_tensor(input)
    rank = x.shape.rank
    seq_dim, batch_dim = int(seq_axis), int(batch_axis or 0)
    if rank is not None:
        seq_dim, batch_dim = seq_dim % rank, batch_dim % rank
    return apply(REVERSE_SEQUENCE, [x, convert_to_tensor(seq_lengths)],
                 {'seq_dim': seq_dim, 'batch_dim': batch_dim}, name=name)


# ---- EnsureShape -----------------------------------------------------------------------------

def _ensure_shape_kernel(input, shape):
    if not shape.is_compatible_with(np.shape(input)):
        raise errors.InvalidArgumentError(message=f'Shape of tensor {list(np.shape(input))} '
                                                  f'is not compatible with expected shape '
                                                  f'{shape}.')
    return input


def _ensure_shape_infer(inputs, attrs):
    x, shape = inputs[0], attrs['shape']
    if not x.shape.is_compatible_with(shape):
        raise ValueError(f'Shape {x.shape} is not compatible with expected shape {shape}.')
    return [(x.dtype, x.shape.merge_with(shape))]


ENSURE_SHAPE = register('EnsureShape', _ensure_shape_kernel, _ensure_shape_infer,
                        inputs=('input',), outputs=('output',))


def ensure_shape(x, shape, name=None):
    """`x`, checked to have a shape compatible with `shape` (None dims match any size): a
    ValueError while building when the known dims disagree, InvalidArgumentError when it runs
    otherwise (op `EnsureShape`); the result's static shape is the two merged."""
    return apply(ENSURE_SHAPE, [convert_to_tensor(x)], {'shape': as_shape(shape)}, name=name)


# ---- Rint, TruncateDiv, TruncateMod ------------------------------------------------------------

RINT = register('Rint', np.rint, same_as_input, inputs=('x',), outputs=('y',),
                elementwise=Elementwise.of(np.rint),
                dtypes=frozenset(d for d in dtypes.PUBLIC if d.is_floating))


def rint(x, name=None):
    """Each value rounded to the nearest integer, halves to even (op `Rint`; floats)."""
    return apply(RINT, [convert_to_tensor(x)], name=name)


def _truncate_div_kernel(x, y):
    if x.dtype.kind in 'iu':
        if np.any(np.asarray(y) == 0):
            raise errors.InvalidArgumentError(message='Integer division by zero')
        return (np.trunc(x / y)).astype(x.dtype)[()]
    return np.trunc(x / y).astype(x.dtype)[()]


def _truncate_mod_kernel(x, y):
    return np.fmod(x, y).astype(x.dtype)[()]


TRUNCATE_DIV = register('TruncateDiv', _truncate_div_kernel, broadcast, inputs=('x', 'y'),
                        outputs=('z',), convert_inputs=unify_inputs)
TRUNCATE_MOD = register('TruncateMod', _truncate_mod_kernel, broadcast, inputs=('x', 'y'),
                        outputs=('z',), convert_inputs=unify_inputs)


def truncatediv(x, y, name=None):
    """`x / y` rounded toward zero (op `TruncateDiv`)."""
    (x, y), _ = unify_operands('TruncateDiv', x, y)
    return apply(TRUNCATE_DIV, (x, y), None, name)


def truncatemod(x, y, name=None):
    """The remainder of `truncatediv`, with the sign of `x` (op `TruncateMod`)."""
    (x, y), _ = unify_operands('TruncateMod', x, y)
    return apply(TRUNCATE_MOD, (x, y), None, name)


# ---- InvertPermutation, HistogramFixedWidth, Timestamp ----------------------------------------

def _invert_permutation_kernel(x):
    n = x.size
    if sorted(np.ravel(x).tolist()) != list(range(n)):
        raise errors.InvalidArgumentError(message=f'{x.tolist()} is not a permutation of '
                                                  f'0..{n - 1}')
    out = np.empty_like(x)
    out[x] = np.arange(n, dtype=x.dtype)
    return out


INVERT_PERMUTATION = register('InvertPermutation', _invert_permutation_kernel, same_as_input,
                              inputs=('x',), outputs=('y',))


def invert_permutation(x, name=None):
    """`y` with `y[x[i]] = i` for the permutation vector `x` (op `InvertPermutation`)."""
    x = convert_to_tensor(x)
    if x.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'invert_permutation needs int32 or int64, got {x.dtype.name}.')
    return apply(INVERT_PERMUTATION, [x], name=name)


def _histogram_kernel(values, value_range, nbins, dtype=dtypes.int32):
    low, high = (float(v) for v in np.ravel(value_range))
    n = int(nbins)
    scaled = (np.ravel(values).astype(np.float64) - low) / (high - low)
    bins = np.clip(np.floor(scaled * n), 0, n - 1).astype(np.int64)
    return np.bincount(bins, minlength=n).astype(dtype.np_dtype)


def _histogram_infer(inputs, attrs):
    nbins = constant_value(inputs[2])
    return [(attrs.get('dtype', dtypes.int32),
             TensorShape([None if nbins is None else int(nbins)]))]


HISTOGRAM_FIXED_WIDTH = register(
    'HistogramFixedWidth', _histogram_kernel, _histogram_infer,
    inputs=('values', 'value_range', 'nbins'), outputs=('out',), type_attrs=(('T', 0),),
    defaults={'dtype': dtypes.int32})


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many of `values` fall in each of `nbins` equal bins over `value_range` [low, high]
    (values outside go to the end bins; op `HistogramFixedWidth`)."""
    (values, value_range), _ = unify_operands('HistogramFixedWidth', values, value_range)
    nbins = int_operand(nbins, 'nbins')
    return apply(HISTOGRAM_FIXED_WIDTH, [convert_to_tensor(values),
                                         convert_to_tensor(value_range), nbins],
                 {'dtype': dtypes.as_dtype(dtype)}, name=name)


TIMESTAMP = register('Timestamp', lambda: np.float64(time.time()),
                     lambda inputs, attrs: [(dtypes.float64, TensorShape([]))], inputs=(),
                     outputs=('ts',), type_attrs=(), stateful=True)


def timestamp(name=None):
    """Seconds since the epoch when the op runs, a float64 (op `Timestamp`; stateful)."""
    return apply(TIMESTAMP, [], name=name)
