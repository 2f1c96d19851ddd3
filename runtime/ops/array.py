"""Creating and reshaping tensors, gather, slicing, and shape queries."""
import builtins

import numpy as np

from runtime.core import context, dtypes, errors
from runtime.core.shapes import TensorShape, as_shape
from runtime.core.tensor import Tensor
from runtime.ops.convert import (
    PACK,
    constant,
    convert_to_tensor,
    infer_dtype,
    stack,
    to_numpy,
    unify_operands,
)
from runtime.ops.dispatch import apply, build
from runtime.ops.infer import constant_value, known_shape, same_as_input
from runtime.ops.registry import IDENTITY, PLACEHOLDER, OpDef, register

# ---- cast ---------------------------------------------------------------------------------------

def _cast_kernel(x, DstT):
    return x.astype(DstT.np_dtype)


CAST = register('Cast', _cast_kernel,
                lambda inputs, attrs: [(attrs['DstT'], inputs[0].shape)],
                type_attrs=(('SrcT', 0),), defaults={'Truncate': False},
                native='{0}',  # the native backend casts every result to its dtype
                )


def cast(x, dtype, name=None):
    """`x` converted to `dtype` (floats to ints truncate toward zero)."""
    dtype = dtypes.as_dtype(dtype)
    x = convert_to_tensor(x)
    if x.dtype is dtype:
        return x
    return apply(CAST, [x], {'DstT': dtype}, name=name)


def placeholder(dtype, shape=None, name=None):
    """A graph input to feed when the graph runs. Only inside `with graph.as_default():`."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError('rt.placeholder() needs a graph: use it inside '
                           '`with rt.Graph().as_default():`.')
    return build(graph, PLACEHOLDER, [], {'dtype': dtypes.as_dtype(dtype),
                                          'shape': as_shape(shape)}, name or 'Placeholder')


def identity(input, name=None):
    return apply(IDENTITY, [convert_to_tensor(input)], name=name)


STOP_GRADIENT = register('StopGradient', lambda input: input, same_as_input, inputs=('input',),
                         outputs=('output',))


def stop_gradient(input, name=None):
    """`input` unchanged, but gradients do not flow through it (op `StopGradient`)."""
    return apply(STOP_GRADIENT, [convert_to_tensor(input)], name=name)


def static_or_dynamic_shape(x):
    """`x`'s shape as an int32 numpy vector when fully known (no op), else an op `Shape`."""
    known = known_shape(x)
    if known is not None:
        return np.array(known, dtype=np.int32)
    return apply(SHAPE, [x])


def shape_from(value):
    """A TensorShape from a shape operand's known value (unknown dims if not known)."""
    known = constant_value(value)
    if known is not None:
        return TensorShape([int(d) for d in np.ravel(known)])
    rank = value.shape[0] if isinstance(value, Tensor) and value.shape.rank == 1 else None
    return TensorShape(None if rank is None else [None] * rank)


FILL = register('Fill', lambda dims, value: np.full(tuple(dims), value),
                lambda inputs, attrs: [(inputs[1].dtype, shape_from(inputs[0]))],
                inputs=('dims', 'value'), outputs=('output',),
                type_attrs=(('T', 1), ('index_type', 0)))
ZEROS_LIKE = register('ZerosLike', np.zeros_like, same_as_input, native='zeros_like({0})')
ONES_LIKE = register('OnesLike', np.ones_like, same_as_input, native='ones_like({0})')


def _broadcast_to_infer(inputs, attrs):
    return [(inputs[0].dtype, shape_from(inputs[1]))]


def _broadcast_to_kernel(input, shape):
    shape = tuple(shape.tolist()) if type(shape) is np.ndarray else tuple(shape)
    try:
        if type(input) is np.ndarray and input.ndim <= len(shape):  # copyto: no np layer
            out = np.empty(shape, input.dtype)
            np.copyto(out, input)
            return out
        return np.broadcast_to(input, shape).copy()
    except ValueError:
        raise ValueError(f'Unable to broadcast tensor of shape {list(np.shape(input))} to '
                         f'tensor of shape {list(shape)}') from None


BROADCAST_TO = register('BroadcastTo', _broadcast_to_kernel, _broadcast_to_infer,
                        inputs=('input', 'shape'),
    outputs=('output',), type_attrs=(('T', 0), ('Tidx', 1)))


def broadcast_to(input, shape, name=None):
    """`input` repeated along its size-1 and missing leading dims to `shape` (op
    `BroadcastTo`, numpy's broadcasting rules)."""
    return apply(BROADCAST_TO, [convert_to_tensor(input), shape_operand(shape)], name=name)


def fill(dims, value, name=None):
    value = convert_to_tensor(value) if isinstance(value, Tensor) else value
    value_in, dtype = unify_operands('Fill', value)
    return apply(FILL, [shape_operand(dims), value_in[0]], name=name)


def shape_operand(shape):
    if isinstance(shape, Tensor):
        return shape
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    if isinstance(shape, (list, tuple)) and any(isinstance(d, Tensor) for d in shape):
        return stack([convert_to_tensor(d, dtypes.int32) for d in shape])
    return np.asarray(shape, dtype=np.int32).reshape(-1)


def _filled(value, shape, dtype, name):
    dtype = dtypes.as_dtype(dtype)
    if isinstance(shape, Tensor) or (isinstance(shape, (list, tuple)) and
                                      any(isinstance(d, Tensor) for d in shape)):
        return fill(shape, dtype.np_dtype.type(value), name=name)
    return constant(np.full(tuple(as_shape(shape).as_list()), value, dtype=dtype.np_dtype),
                    dtype, name=name or ('zeros' if value == 0 else 'ones'))


def zeros(shape, dtype=dtypes.float32, name=None):
    return _filled(0, shape, dtype, name)


def ones(shape, dtype=dtypes.float32, name=None):
    return _filled(1, shape, dtype, name)


def zeros_like(input, dtype=None, name=None):
    x = convert_to_tensor(input)
    out = apply(ZEROS_LIKE, [x], name=name)
    return out if dtype is None else cast(out, dtype)


def ones_like(input, dtype=None, name=None):
    x = convert_to_tensor(input)
    out = apply(ONES_LIKE, [x], name=name)
    return out if dtype is None else cast(out, dtype)


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """An identity matrix (a constant: the sizes are Python ints)."""
    dtype = dtypes.as_dtype(dtype)
    return constant(np.eye(int(num_rows), None if num_columns is None else int(num_columns),
                           dtype=dtype.np_dtype), dtype, name=name or 'eye')


def _range_kernel(start, limit, delta):
    if delta == 0:
        raise errors.InvalidArgumentError(message='Requires delta != 0')
    return np.arange(start, limit, delta, dtype=np.result_type(start, limit, delta))


def _range_infer(inputs, attrs):
    values = [constant_value(t) for t in inputs]
    if any(v is None for v in values):
        return [(inputs[0].dtype, TensorShape([None]))]
    return [(inputs[0].dtype, TensorShape([len(builtins.range(*[int(v) for v in values]))
                                           if inputs[0].dtype.is_integer else
                                           len(np.arange(*values))]))]


RANGE = register('Range', _range_kernel, _range_infer, inputs=('start', 'limit', 'delta'),
                 outputs=('output',), type_attrs=(('Tidx', 0),), native='arange({0}, {1}, {2})')


# The dtypes rt.range takes, narrowest first: without `dtype=`, the widest operand's wins.
RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def range(start, limit=None, delta=1, dtype=None, name=None):  # noqa: A001 - rt.range
    """Numbers from `start` up to (not including) `limit` by `delta` (op `Range`).

    The dtype follows TensorFlow: `dtype` when given (tensor operands are cast to it, Python
    numbers must fit it), else the widest dtype of the operands, each converted on its own, in
    the order int32 < int64 < float16 < float32 < float64 (`rt.range(2**32 + 3)` is int64).
    """
    if limit is None:
        start, limit = 0, start
    operands = [convert_to_tensor(v) if isinstance(v, Tensor) or hasattr(v, '_as_tensor')
                else v for v in (start, limit, delta)]
    if dtype is None:
        kinds = [v.dtype if isinstance(v, Tensor) else infer_dtype(v) for v in operands]
        for kind in kinds:
            if kind not in RANGE_DTYPES:
                raise TypeError(f'rt.range: the operands must be int32, int64, float16, float32 '
                                f'or float64 values, got a {kind.name} one; use rt.cast or '
                                f'pass dtype=.')
        dtype = max(kinds, key=RANGE_DTYPES.index)
    else:
        dtype = dtypes.as_dtype(dtype)
    inputs = [(v if v.dtype is dtype else cast(v, dtype)) if isinstance(v, Tensor) else
              to_numpy(v, dtype) for v in operands]
    return apply(RANGE, inputs, name=name)


def _reshape_infer(inputs, attrs):
    x, shape = inputs
    known = constant_value(shape)
    if known is None:  # the rank is known from the shape operand's length, if at all
        return [(x.dtype, shape_from(shape))]
    dims = [int(d) for d in np.ravel(known)]
    if -1 in dims:
        n = x.shape.num_elements()
        rest = 1
        for d in dims:
            if d not in (-1, None):
                rest *= d
        dims[dims.index(-1)] = n // rest if n is not None and rest else None
    return [(x.dtype, TensorShape([None if d is None or d < 0 else d for d in dims]))]


def _reshape_kernel(tensor, shape):
    shape = tuple(shape.tolist()) if type(shape) is np.ndarray else tuple(shape)
    if type(tensor) is np.ndarray:  # the method: no np.reshape layer
        return tensor.reshape(shape)
    return np.reshape(tensor, shape)


RESHAPE = register('Reshape', _reshape_kernel, _reshape_infer, inputs=('tensor', 'shape'),
                   outputs=('output',),
                   type_attrs=(('T', 0), ('Tshape', 1)))


def reshape(tensor, shape, name=None):
    x = convert_to_tensor(tensor)
    if isinstance(shape, (list, tuple, TensorShape)) and not any(
            isinstance(d, Tensor) for d in shape):
        shape = np.asarray([-1 if d is None else d for d in shape], dtype=np.int32)
    else:
        shape = shape_operand(shape)
    return apply(RESHAPE, [x, shape], name=name)


def _transpose_infer(inputs, attrs):
    x, perm = inputs
    p = constant_value(perm)
    if x.shape.rank is None or p is None:
        return [(x.dtype, TensorShape(None if p is None else [None] * len(p)))]
    dims = x.shape.as_list()
    return [(x.dtype, TensorShape([dims[int(i)] for i in p]))]


TRANSPOSE = register('Transpose', lambda x, perm: np.transpose(x, tuple(perm)), _transpose_infer,
                     inputs=('x', 'perm'), type_attrs=(('T', 0), ('Tperm', 1)))


def transpose(a, perm=None, name=None):
    x = convert_to_tensor(a)
    if perm is None:
        if x.shape.rank is None:
            raise ValueError('rt.transpose needs `perm` when the rank is unknown.')
        perm = list(builtins.range(x.shape.rank))[::-1]
    perm = np.asarray(perm, dtype=np.int32) if not isinstance(perm, Tensor) else perm
    return apply(TRANSPOSE, [x, perm], name=name)


def _concat_infer(inputs, attrs):
    values, axis = inputs[:-1], inputs[-1]
    a = constant_value(axis)
    shapes = [t.shape for t in values]
    if a is None or any(s.rank is None for s in shapes):
        return [(values[0].dtype, TensorShape(None))]
    rank = shapes[0].rank
    a = int(a) % rank
    dims = []
    for i in builtins.range(rank):
        col = [s[i] for s in shapes]
        if i == a:
            dims.append(None if None in col else sum(col))
        else:
            known = {d for d in col if d is not None}
            if len(known) > 1:
                raise ValueError(f'ConcatV2: dimension {i} differs between inputs: '
                                 f'{", ".join(str(s) for s in shapes)}')
            dims.append(known.pop() if known else None)
    return [(values[0].dtype, TensorShape(dims))]


def _concat_kernel(*args, N=None):
    return np.concatenate(args[:-1], axis=int(args[-1]))


CONCAT = register('ConcatV2', _concat_kernel, _concat_infer, inputs=('values',),
                  outputs=('output',), type_attrs=(('T', 0), ('Tidx', -1)))


def concat(values, axis, name=None):
    inputs, _ = unify_operands('ConcatV2', *values)
    return apply(CONCAT, inputs + [np.int32(axis)], {'N': len(inputs)}, name=name)


def _expand_infer(inputs, attrs):
    x, dim = inputs
    d = constant_value(dim)
    if x.shape.rank is None or d is None:
        return [(x.dtype, TensorShape(None))]
    dims = x.shape.as_list()
    d = int(d)
    dims.insert(d if d >= 0 else len(dims) + 1 + d, 1)
    return [(x.dtype, TensorShape(dims))]


EXPAND_DIMS = register('ExpandDims', lambda input, dim: np.expand_dims(input, int(dim)),
                       _expand_infer, inputs=('input', 'dim'), outputs=('output',),
                       type_attrs=(('T', 0), ('Tdim', 1)))


def expand_dims(input, axis, name=None):
    return apply(EXPAND_DIMS, [convert_to_tensor(input), np.int32(axis)], name=name)


def _squeeze_kernel(input, squeeze_dims=()):
    return np.squeeze(input, axis=tuple(squeeze_dims) if squeeze_dims else None)


def _squeeze_infer(inputs, attrs):
    shape = inputs[0].shape
    axes = attrs.get('squeeze_dims', ())
    if shape.rank is None:
        return [(inputs[0].dtype, shape)]
    dims = shape.as_list()
    if axes:
        axes = {a % len(dims) for a in axes}
        for a in axes:
            if dims[a] not in (1, None):
                raise ValueError(f'Cannot squeeze dim {a} of size {dims[a]} (shape {shape})')
        return [(inputs[0].dtype, TensorShape([d for i, d in enumerate(dims) if i not in axes]))]
    if None in dims:
        return [(inputs[0].dtype, TensorShape(None))]
    return [(inputs[0].dtype, TensorShape([d for d in dims if d != 1]))]


SQUEEZE = register('Squeeze', _squeeze_kernel, _squeeze_infer, inputs=('input',),
                   outputs=('output',), defaults={'squeeze_dims': ()})


def squeeze(input, axis=None, name=None):
    axes = () if axis is None else tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    return apply(SQUEEZE, [convert_to_tensor(input)], {'squeeze_dims': axes} if axes else {},
                 name=name)


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


def gather(params, indices, axis=0, name=None):
    """Slices of `params` at `indices` along `axis` (op `GatherV2`). An index out of range
    raises rt.errors.InvalidArgumentError when the op runs."""
    params = convert_to_tensor(params)
    if not isinstance(indices, Tensor):
        indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise TypeError(f'rt.gather needs integer indices, got {indices.dtype.name}.')
    axis = np.int32(axis) if not isinstance(axis, Tensor) else axis
    return apply(GATHER, [params, indices, axis], name=name)


def _shape_kernel(input, out_type=dtypes.int32):
    return np.array(np.shape(input), dtype=out_type.np_dtype)


SHAPE = register('Shape', _shape_kernel,
                 lambda inputs, attrs: [(attrs.get('out_type', dtypes.int32),
                                         TensorShape([inputs[0].shape.rank]))],
                 inputs=('input',), outputs=('output',), defaults={'out_type': dtypes.int32})
SIZE = register('Size', lambda input, out_type=dtypes.int32: out_type.np_dtype.type(np.size(input)),
                lambda inputs, attrs: [(attrs.get('out_type', dtypes.int32), TensorShape([]))],
                inputs=('input',), outputs=('output',), defaults={'out_type': dtypes.int32})
RANK = register('Rank', lambda input: np.int32(np.ndim(input)),
                lambda inputs, attrs: [(dtypes.int32, TensorShape([]))], inputs=('input',),
                outputs=('output',))


def shape(input, out_type=dtypes.int32, name=None):
    x = convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    if x.shape.is_fully_defined():
        return constant(np.array(x.shape.as_list(), dtype=out_type.np_dtype), out_type,
                        name=name or 'Shape')
    return apply(SHAPE, [x], {} if out_type is dtypes.int32 else {'out_type': out_type}, name=name)


def size(input, out_type=dtypes.int32, name=None):
    x = convert_to_tensor(input)
    out_type = dtypes.as_dtype(out_type)
    return apply(SIZE, [x], {} if out_type is dtypes.int32 else {'out_type': out_type}, name=name)


def rank(input, name=None):
    return apply(RANK, [convert_to_tensor(input)], name=name)


# ---- indexing: StridedSlice, encoded with TensorFlow's begin/end/strides and bit masks --------

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
                     infix='{0}[{1}]')


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
