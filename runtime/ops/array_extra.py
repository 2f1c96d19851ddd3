"""TensorFlow's top-level array functions over ops of their own: `strided_slice` (StridedSlice
with its masks given), `bitcast` (Bitcast), `dynamic_partition` / `dynamic_stitch`
(DynamicPartition, DynamicStitch), `parallel_stack` (ParallelConcat), and
`histogram_fixed_width_bins`, which TensorFlow too builds from other ops. Gradients are in
runtime/gradients/rules/array_extra.py.
"""
import numpy as np

from runtime.core import context, dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor, int_operand
from runtime.ops.creation import ones_like
from runtime.ops.dispatch import apply
from runtime.ops.elementwise import truediv
from runtime.ops.math import clip_by_value, floor, subtract
from runtime.ops.registry import register
from runtime.ops.shaping import reshape, shape
from runtime.ops.slicing import MASKS, STRIDED_SLICE

# ---- strided_slice -----------------------------------------------------------------------------


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """The slice `input_[begin:end:strides]` in TensorFlow's encoding (op `StridedSlice`): bit
    k of `begin_mask` / `end_mask` ignores begin[k] / end[k] (the whole range), of
    `ellipsis_mask` makes spec k an `...`, of `new_axis_mask` a `tf.newaxis`, of
    `shrink_axis_mask` an index that removes its dimension. `strides` defaults to ones; `var`
    (the variable `input_` was read from, for TensorFlow 1's sliced assignment) changes
    nothing here: assign to `var[...]` instead."""
    x = convert_to_tensor(input_)
    begin = int_operand(begin, 'begin')
    end = int_operand(end, 'end')
    strides = (ones_like(begin) if isinstance(begin, Tensor) else np.ones_like(begin)) \
        if strides is None else int_operand(strides, 'strides')
    masks = dict(zip(MASKS, (begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                             shrink_axis_mask)))
    return apply(STRIDED_SLICE, [x, begin, end, strides],
                 {k: int(v) for k, v in masks.items() if v}, name=name)


# ---- Bitcast -----------------------------------------------------------------------------------

def _bitcast_kernel(input, type):
    out = type.np_dtype
    size_in, size_out = input.dtype.itemsize, np.dtype(out).itemsize
    x = np.ascontiguousarray(input)
    if size_in == size_out:
        return x.view(out)
    if size_in > size_out:
        return x[..., None].view(out)
    if x.ndim == 0 or x.shape[-1] != size_out // size_in:
        raise errors.InvalidArgumentError(
            message=f'Cannot bitcast from {dtypes.of_value(input).name} to {type.name}: the last '
                    f'dimension must be {size_out // size_in}, got shape {list(x.shape)}')
    return x.view(out)[..., 0]


def _bitcast_infer(inputs, attrs):
    x, out = inputs[0], attrs['type']
    size_in, size_out = x.dtype.np_dtype.itemsize, out.np_dtype.itemsize
    if x.shape.rank is None or size_in == size_out:
        return [(out, x.shape)]
    dims = x.shape.as_list()
    if size_in > size_out:
        return [(out, TensorShape(dims + [size_in // size_out]))]
    if not dims or dims[-1] not in (None, size_out // size_in):
        raise ValueError(f'Cannot bitcast from {x.dtype.name} to {out.name}: the last '
                         f'dimension must be {size_out // size_in}, got shape {x.shape}')
    return [(out, TensorShape(dims[:-1]))]


BITCAST = register('Bitcast', _bitcast_kernel, _bitcast_infer, inputs=('input',),
                   outputs=('output',))  # TensorFlow's dtypes: numbers, complex ones too


def bitcast(input, type, name=None):
    """The bytes of `input` read as `type`, without copying: a wider input gains a last
    dimension, a narrower one loses its last dimension (of the size ratio) (op `Bitcast`)."""
    type = dtypes.as_dtype(type)
    if type not in BITCAST.dtypes:
        raise TypeError(f'bitcast: {type.name} is not a numeric dtype.')
    return apply(BITCAST, [convert_to_tensor(input)], {'type': type}, name=name)


# ---- DynamicPartition, DynamicStitch ----------------------------------------------------------

def _partition_kernel(data, partitions, num_partitions):
    partitions = np.asarray(partitions)
    if data.shape[:partitions.ndim] != partitions.shape:
        raise errors.InvalidArgumentError(
            message=f'data.shape must start with partitions.shape, got data.shape = '
                    f'{list(data.shape)}, partitions.shape = {list(partitions.shape)}')
    bad = (partitions < 0) | (partitions >= num_partitions)
    if bad.any():
        value = int(partitions[bad][0])
        raise errors.InvalidArgumentError(
            message=f'partitions{list(np.argwhere(bad)[0])} = {value} is not in [0, '
                    f'{num_partitions})')
    return tuple(data[partitions == i] for i in range(num_partitions))


def _partition_infer(inputs, attrs):
    data, partitions = inputs
    n = attrs['num_partitions']
    if data.shape.rank is None or partitions.shape.rank is None:
        return [(data.dtype, TensorShape(None))] * n
    if not data.shape[:partitions.shape.rank].is_compatible_with(partitions.shape):
        raise ValueError(f'data.shape must start with partitions.shape, got {data.shape} and '
                         f'{partitions.shape}')
    return [(data.dtype, TensorShape([None] + data.shape.as_list()[partitions.shape.rank:]))] * n


DYNAMIC_PARTITION = register('DynamicPartition', _partition_kernel, _partition_infer,
                             inputs=('data', 'partitions'), outputs='outputs')


def dynamic_partition(data, partitions, num_partitions, name=None):
    """`num_partitions` tensors: output i holds the slices of `data` whose `partitions` entry
    is i, in order (op `DynamicPartition`)."""
    if not isinstance(num_partitions, (int, np.integer)) or num_partitions < 1:
        raise ValueError(f'num_partitions must be a positive int, got {num_partitions!r}.')
    partitions = convert_to_tensor(partitions, dtypes.int32)
    out = apply(DYNAMIC_PARTITION, [convert_to_tensor(data), partitions],
                {'num_partitions': int(num_partitions)}, name=name)
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _stitch_kernel(*operands, N):
    indices, data = operands[:N], operands[N:]
    prefix = [np.asarray(i).ndim for i in indices]
    for k, (i, d) in enumerate(zip(indices, data)):
        if d.shape[:prefix[k]] != np.shape(i):
            raise errors.InvalidArgumentError(
                message=f'data[{k}].shape = {list(d.shape)} does not start with '
                        f'indices[{k}].shape = {list(np.shape(i))}')
    size = max((int(np.max(i)) + 1 for i in indices if np.size(i)), default=0)
    inner = data[0].shape[prefix[0]:]
    out = np.zeros((size,) + inner, data[0].dtype)
    for i, d in zip(indices, data):
        out[np.ravel(i)] = d.reshape((-1,) + inner)
    return out


def _stitch_infer(inputs, attrs):
    n = attrs['N']
    indices, data = inputs[:n], inputs[n:]
    i0, d0 = indices[0], data[0]
    if i0.shape.rank is None or d0.shape.rank is None:
        return [(d0.dtype, TensorShape(None))]
    return [(d0.dtype, TensorShape([None] + d0.shape.as_list()[i0.shape.rank:]))]


DYNAMIC_STITCH = register('DynamicStitch', _stitch_kernel, _stitch_infer,
                          inputs=('indices', 'data'), outputs=('merged',), type_attrs=(('T', -1),))


def dynamic_stitch(indices, data, name=None):
    """One tensor with `merged[indices[m][i]] = data[m][i]` (later values win) (op
    `DynamicStitch`)."""
    if len(indices) != len(data) or not indices:
        raise ValueError(f'dynamic_stitch needs as many data tensors as index tensors (at least '
                         f'one), got {len(indices)} and {len(data)}.')
    values = [convert_to_tensor(d) for d in data]
    dtype = values[0].dtype
    for v in values[1:]:
        if v.dtype is not dtype:
            raise TypeError(f'dynamic_stitch: the data tensors must have one dtype, got '
                            f'{dtype.name} and {v.dtype.name}.')
    ints = [convert_to_tensor(i, dtypes.int32) for i in indices]
    return apply(DYNAMIC_STITCH, ints + values, {'N': len(ints)}, name=name)


# ---- ParallelConcat ----------------------------------------------------------------------------

def _parallel_concat_kernel(*values, shape, N=None):
    return np.stack(values)


def _parallel_concat_infer(inputs, attrs):
    return [(inputs[0].dtype, attrs['shape'])]


PARALLEL_CONCAT = register('ParallelConcat', _parallel_concat_kernel, _parallel_concat_infer,
                           inputs=('values',), outputs=('output',))


def parallel_stack(values, name='parallel_stack'):
    """`values` (tensors of one fully known shape) stacked along a new first axis, in a graph
    (op `ParallelConcat`); eagerly a RuntimeError, as in TensorFlow (use `tf.stack`)."""
    if context.current_graph() is None:
        raise RuntimeError('tf.parallel_stack() is not compatible with eager execution.')
    tensors = [convert_to_tensor(v) for v in values]
    merged = tensors[0].shape
    for t in tensors[1:]:
        merged = merged.merge_with(t.shape)
    if not merged.is_fully_defined():
        raise ValueError(f'parallel_stack needs values of a fully defined shape, got {merged}.')
    return apply(PARALLEL_CONCAT, tensors, {'N': len(tensors), 'shape': TensorShape(
        [len(tensors)] + merged.as_list())}, name=name)


# ---- histogram_fixed_width_bins ----------------------------------------------------------------

def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """For each of `values`, the index of its bin among `nbins` equal bins over
    `value_range` (values outside go to the first or last bin); int32, as in TensorFlow
    (which ignores `dtype` too)."""
    values = convert_to_tensor(values)
    original = shape(values)
    flat = reshape(values, [-1])
    value_range = convert_to_tensor(value_range, values.dtype)
    nbins_float = cast(convert_to_tensor(nbins, dtypes.int32), values.dtype)
    scaled = truediv(subtract(flat, value_range[0]), value_range[1] - value_range[0])
    indices = floor(nbins_float * scaled)
    indices = cast(clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
    return reshape(indices, original, name=name)
