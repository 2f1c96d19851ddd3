"""Gather and slicing: `gather` (op `GatherV2`), `unsorted_segment_sum`, and numpy-style
`x[...]` (op `StridedSlice`, with TensorFlow's begin/end/strides and bit masks)."""
import builtins
import operator

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.convert import PACK, convert_to_tensor, stack
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value
from runtime.ops.registry import OpDef, register
from runtime.ops.shaping import shape_from


def _gather_kernel(params, indices, axis, batch_dims=0):
    axis = int(axis)
    size = np.shape(params)[axis]
    idx = np.asarray(indices)
    bad = (idx < 0) | (idx >= size)
    if bad.any():
        where = tuple(np.argwhere(bad)[0])
        shown = ','.join(str(i) for i in where) if where else ''
        raise errors.InvalidArgumentError(
            message=f'indices[{shown}] = {int(idx[where])} is not in [0, {size})')
    return np.take(params, idx, axis=axis)


def _gather_infer(inputs, attrs):
    params, indices, axis = inputs
    a = constant_value(axis)
    if params.shape.rank is None or indices.shape.rank is None or a is None:
        return [(params.dtype, TensorShape(None))]
    dims = params.shape.as_list()
    a = int(a) % len(dims)
    return [(params.dtype, TensorShape(dims[:a] + indices.shape.as_list() + dims[a + 1:]))]


def _segment_sum_kernel(data, segment_ids, num_segments):
    ids = np.asarray(segment_ids)
    n = int(num_segments)
    if np.any(ids >= n):
        raise errors.InvalidArgumentError(message=f'segment ids must be < num_segments={n}, '
                                                  f'got {ids}')
    out = np.zeros((n,) + np.shape(data)[ids.ndim:], dtype=data.dtype)
    keep = ids >= 0  # negative ids are dropped, as in TensorFlow
    np.add.at(out, ids[keep], np.asarray(data)[keep])
    return out


def _segment_sum_infer(inputs, attrs):
    data, ids, n = inputs
    known = constant_value(n)
    if data.shape.rank is None or ids.shape.rank is None:
        return [(data.dtype, TensorShape(None))]
    return [(data.dtype, TensorShape([None if known is None else int(known)] +
                                     data.shape.as_list()[ids.shape.rank:]))]


UNSORTED_SEGMENT_SUM = register(
    'UnsortedSegmentSum', _segment_sum_kernel, _segment_sum_infer,
    inputs=('data', 'segment_ids', 'num_segments'), outputs=('output',),
    type_attrs=(('T', 0), ('Tindices', 1), ('Tnumsegments', 2)))


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """Sums of the slices of `data` that share a segment id (op `UnsortedSegmentSum`): output row
    `i` is the sum of the rows `j` with `segment_ids[j] == i`."""
    data, segment_ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    if not isinstance(num_segments, Tensor):
        num_segments = np.int32(num_segments)
    return apply(UNSORTED_SEGMENT_SUM, [data, segment_ids, num_segments], name=name)


GATHER = register('GatherV2', _gather_kernel, _gather_infer,
                  inputs=('params', 'indices', 'axis'), outputs=('output',),
                  type_attrs=(('Tparams', 0), ('Tindices', 1), ('Taxis', 2)),
                  defaults={'batch_dims': 0})


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` at `indices` along `axis` (default 0; op `GatherV2`). An index out of
    range raises rt.errors.InvalidArgumentError when the op runs (`validate_indices`,
    deprecated in TensorFlow, changes nothing). `batch_dims` other than 0 is not supported."""
    if batch_dims:
        raise NotImplementedError('rt.gather supports batch_dims=0 only.')
    if axis is None:
        axis = 0
    params = convert_to_tensor(params)
    if not isinstance(indices, Tensor):
        indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise TypeError(f'rt.gather needs integer indices, got {indices.dtype.name}.')
    axis = np.int32(axis) if not isinstance(axis, Tensor) else axis
    return apply(GATHER, [params, indices, axis], name=name)


def _index_tuple(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                 shrink_axis_mask):
    index = []
    for k in builtins.range(len(begin)):
        bit = 1 << k
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(int(begin[k]))
        else:
            index.append(slice(None if begin_mask & bit else int(begin[k]),
                               None if end_mask & bit else int(end[k]), int(strides[k])))
    return tuple(index)


def index_tuple(begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                shrink_axis_mask=0):
    """The numpy index that StridedSlice's operands and masks (as keywords) encode."""
    return _index_tuple(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                        shrink_axis_mask)


def _strided_slice_kernel(input, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                          new_axis_mask=0, shrink_axis_mask=0):
    index = _index_tuple(begin, end, strides, begin_mask, end_mask, ellipsis_mask,
                         new_axis_mask, shrink_axis_mask)
    try:
        return input[index]
    except IndexError as e:
        raise errors.InvalidArgumentError(message=f'slice index out of bounds: {e}') from None


def _strided_slice_infer(inputs, attrs):
    x, begin, end, strides = inputs
    values = [constant_value(t) for t in (begin, end, strides)]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    masks = [attrs.get(k, 0) for k in ('begin_mask', 'end_mask', 'ellipsis_mask',
                                       'new_axis_mask', 'shrink_axis_mask')]
    n = begin.shape[0] if values[0] is None else len(values[0])
    dims_in = x.shape.as_list()
    out, pos = [], 0
    spec_dims = sum(1 for k in builtins.range(n)
                    if not (masks[2] | masks[3]) & (1 << k))
    for k in builtins.range(n):
        bit = 1 << k
        if masks[2] & bit:
            take = len(dims_in) - spec_dims
            out.extend(dims_in[pos:pos + take])
            pos += take
        elif masks[3] & bit:
            out.append(1)
        elif masks[4] & bit:
            pos += 1
        else:
            d = dims_in[pos] if pos < len(dims_in) else None
            pos += 1
            if d is None or any(v is None for v in values):
                out.append(None)
            else:
                s = slice(None if masks[0] & bit else int(values[0][k]),
                          None if masks[1] & bit else int(values[1][k]), int(values[2][k]))
                out.append(len(builtins.range(*s.indices(d))))
    out.extend(dims_in[pos:])
    return [(x.dtype, TensorShape(out))]


MASKS = ('begin_mask', 'end_mask', 'ellipsis_mask', 'new_axis_mask', 'shrink_axis_mask')


def _strided_slice_grad_kernel(shape, begin, end, strides, dy, **masks):
    out = np.zeros(tuple(shape), dtype=dy.dtype)
    out[_index_tuple(begin, end, strides, *(masks.get(k, 0) for k in MASKS))] = dy
    return out


def _scalar_index_infer(inputs, attrs):
    x = inputs[0]
    return [(x.dtype, TensorShape(None) if x.shape.rank is None else x.shape[1:])]


# Not a TensorFlow op, so not in the registry and never in a graph: the executor's form of
# `x[i]` for a scalar integer `i`, which StridedSlice's rewrite produces (below).
SCALAR_INDEX = OpDef('ScalarIndex', lambda input, index: input[index], _scalar_index_infer,
                     inputs=('input', 'index'), outputs=('output',), type_attrs=(),
                     operator=operator.getitem)


def _strided_slice_rewrite(node):
    """`x[i]` as TensorFlow builds it for a scalar `i` (StridedSlice of x, Pack(i), Pack(i + 1),
    [1] shrinking axis 0), or with a constant `i`, becomes the subscript `x[i]` (ScalarIndex):
    no Pack, no index decoding at run time. Only the begin index matters on a shrunk axis."""
    attrs = node.attrs
    if attrs.get('shrink_axis_mask', 0) != 1 or any(attrs.get(k, 0) for k in MASKS[:4]):
        return None
    x, begin, _, strides = node.inputs
    if x.shape.rank == 0 or strides.constant is None or np.ravel(strides.constant).tolist() != [1]:
        return None
    if begin.constant is not None:
        if np.size(begin.constant) != 1:
            return None
        return SCALAR_INDEX, [x, np.ravel(begin.constant)[0]]
    if begin.node.opdef is PACK and len(begin.node.inputs) == 1 and \
            begin.node.inputs[0].shape.rank == 0:
        return SCALAR_INDEX, [x, begin.node.inputs[0]]
    return None


STRIDED_SLICE = register(
    'StridedSlice', _strided_slice_kernel, _strided_slice_infer,
    inputs=('input', 'begin', 'end', 'strides'), outputs=('output',),
    type_attrs=(('T', 0), ('Index', 1)), defaults=dict.fromkeys(MASKS, 0),
    rewrite=_strided_slice_rewrite)
STRIDED_SLICE_GRAD = register(
    'StridedSliceGrad', _strided_slice_grad_kernel,
    lambda inputs, attrs: [(inputs[4].dtype, shape_from(inputs[0]))],
    inputs=('shape', 'begin', 'end', 'strides', 'dy'), outputs=('output',),
    type_attrs=(('T', 4), ('Index', 0)), defaults=dict.fromkeys(MASKS, 0))


def strided_slice(tensor, index):
    """numpy-style `tensor[index]` with ints, slices, `...` and `None` (op `StridedSlice`)."""
    x = convert_to_tensor(tensor)
    operands_, attrs = slice_spec(index)
    return apply(STRIDED_SLICE, [x] + operands_, attrs)


def slice_spec(index):
    """StridedSlice's encoding of a numpy-style index: ([begin, end, strides], mask attrs)."""
    if not isinstance(index, tuple):
        index = (index,)
    begin, end, strides = [], [], []
    masks = dict.fromkeys(('begin_mask', 'end_mask', 'ellipsis_mask', 'new_axis_mask',
                           'shrink_axis_mask'), 0)
    for k, item in enumerate(index):
        bit = 1 << k
        if item is Ellipsis:
            masks['ellipsis_mask'] |= bit
            item = (0, 0, 1)
        elif item is None:
            masks['new_axis_mask'] |= bit
            item = (0, 0, 1)
        elif isinstance(item, slice):
            if item.start is None:
                masks['begin_mask'] |= bit
            if item.stop is None:
                masks['end_mask'] |= bit
            item = (0 if item.start is None else item.start, 0 if item.stop is None else item.stop,
                    1 if item.step is None else item.step)
        elif isinstance(item, (int, np.integer)) or isinstance(item, Tensor) and \
                item.dtype.is_integer and item.shape.rank == 0:
            masks['shrink_axis_mask'] |= bit
            item = (item, item + 1, 1)
        else:
            raise TypeError(f'Only integers, slices, `...`, `None` and scalar integer tensors '
                            f'are valid indices, got {item!r}.')
        begin.append(item[0])
        end.append(item[1])
        strides.append(item[2])
    operands_ = [_index_operand(v) for v in (begin, end, strides)]
    return operands_, {k: v for k, v in masks.items() if v}


def _index_operand(values):
    if any(isinstance(v, Tensor) for v in values):
        return stack([convert_to_tensor(v, dtypes.int32) if not isinstance(v, Tensor) else
                      (v if v.dtype is dtypes.int32 else cast(v, dtypes.int32))
                      for v in values])
    return np.asarray(values, dtype=np.int32)
