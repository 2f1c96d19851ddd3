"""Shapes and reshaping: `reshape`, `transpose`, `expand_dims`, `squeeze`, `concat`,
`broadcast_to`, the shape queries `shape`, `size`, `rank`, and the helpers that read or make a
shape operand."""
import builtins

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.convert import constant, convert_to_tensor, int_operand, unify_operands
from runtime.ops.dispatch import apply
from runtime.ops.infer import (
    constant_value,
    constant_value_as_shape,
    known_shape,
    moves_elements,
    rank_value,
    shape_value,
    size_value,
)
from runtime.ops.registry import register


def static_or_dynamic_shape(x):
    """`x`'s shape as an int32 numpy vector when fully known (no op), else an op `Shape`."""
    known = known_shape(x)
    if known is not None:
        return np.array(known, dtype=np.int32)
    return apply(SHAPE, [x])


def shape_from(value):
    """A TensorShape from a shape operand's known value (unknown dims where not known)."""
    known = constant_value(value)
    if known is not None and np.ndim(known) == 0:
        return TensorShape([int(known)])
    return constant_value_as_shape(value)


def _broadcast_to_infer(inputs, attrs):
    x, target = inputs[0].shape, shape_from(inputs[1])
    if x.rank is not None and target.rank is not None:
        if x.rank > target.rank or any(
                d is not None and t is not None and d not in (1, t)
                for d, t in zip(x.as_list()[::-1], target.as_list()[::-1])):
            raise ValueError(f'Unable to broadcast tensor of shape {x} to tensor of shape '
                             f'{target}')
    return [(inputs[0].dtype, target)]


def _broadcast_to_kernel(input, shape):
    shape = tuple(shape.tolist()) if type(shape) is np.ndarray else tuple(shape)
    try:
        kind = type(input)  # an array, or a numpy scalar (a scalar gradient): copyto, no np layer
        if (kind is np.ndarray or issubclass(kind, np.generic)) and input.ndim <= len(shape):
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


def shape_operand(shape):
    """A shape argument as an operand (`int_operand`): a vector, a Pack for a list that holds
    symbolic tensors."""
    out = int_operand(shape)
    return out.reshape(-1) if isinstance(out, np.ndarray) else out


def _reshape_infer(inputs, attrs):
    x, shape = inputs
    known = constant_value(shape)
    if known is None:  # the rank is known from the shape operand's length, if at all
        return [(x.dtype, shape_from(shape))]
    dims = [int(d) for d in np.ravel(known)]
    for d in dims:
        if d < -1:
            raise ValueError(f'Invalid value in tensor used for shape: {d}')
    n = x.shape.num_elements()
    rest = int(np.prod([d for d in dims if d != -1], dtype=np.int64))
    text = '[' + ','.join('?' if d == -1 else str(d) for d in dims) + ']'
    if dims.count(-1) == 1:
        if n is not None and rest == 0 and n != 0:
            raise ValueError(f'Cannot reshape a tensor with {n} elements to shape {text} '
                             f'(0 elements)')
        if n is not None and rest and n % rest:
            raise ValueError(f'Dimension size must be evenly divisible by {rest} but is {n}')
        dims[dims.index(-1)] = n // rest if n is not None and rest else None
    elif -1 not in dims and n is not None and n != rest:
        raise ValueError(f'Cannot reshape a tensor with {n} elements to shape {text} '
                         f'({rest} elements)')
    return [(x.dtype, TensorShape([None if d is None or d < 0 else d for d in dims]))]


def _reshape_kernel(tensor, shape):
    shape = tuple(shape.tolist()) if type(shape) is np.ndarray else tuple(shape)
    try:
        if min(shape, default=0) >= -1:  # numpy takes any negative size as -1
            if type(tensor) is np.ndarray:  # the method: no np.reshape layer
                return tensor.reshape(shape)
            if isinstance(tensor, bytes):  # a scalar string: an object array keeps its NULs
                return np.array(tensor, dtype=object).reshape(shape)
            return np.reshape(tensor, shape)
    except ValueError:
        pass  # TensorFlow's rules decide, and word the error
    return np.reshape(tensor, reshaped_dims(np.shape(tensor), shape))


def reshaped_dims(input_dims, sizes):
    """The output dims of a Reshape of a tensor of `input_dims` to `sizes` (one may be -1), by
    TensorFlow's kernel's rules (with a 0 in `sizes`, the input's zero dims do not count
    towards the -1), or its InvalidArgumentError."""
    unknown, product, has_zero = None, 1, False
    for d, size in enumerate(sizes):
        if size == -1:
            if unknown is not None:
                raise errors.InvalidArgumentError(
                    message=f'Only one input size may be -1, not both {unknown} and {d}')
            unknown = d
        elif size < 0:
            raise errors.InvalidArgumentError(
                message=f'Size {d} must be non-negative, not {size}')
        elif size == 0:
            has_zero = True
        else:
            product *= size
    dims = list(sizes)
    total = int(np.prod(input_dims, dtype=np.int64))
    if unknown is not None:
        counted = int(np.prod([n for n in input_dims if n > 0 or not has_zero], dtype=np.int64))
        missing = counted // product
        if not (has_zero and 0 in input_dims) and missing * product != counted:
            raise errors.InvalidArgumentError(
                message=f'Input to reshape is a tensor with {counted} values, but the requested '
                        f'shape requires a multiple of {product}')
        dims[unknown] = missing
    requested = int(np.prod(dims, dtype=np.int64))
    if requested != total:
        raise errors.InvalidArgumentError(
            message=f'Input to reshape is a tensor with {total} values, but the requested shape '
                    f'has {requested}')
    return tuple(dims)


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
    if p is None:
        return [(x.dtype, TensorShape(None if x.shape.rank is None else
                                      [None] * x.shape.rank))]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape([None] * len(p)))]
    if sorted(int(i) for i in p) != list(builtins.range(x.shape.rank)):
        raise ValueError(f'Transpose: perm {[int(i) for i in p]} is not a permutation of the '
                         f'{x.shape.rank} dimensions of the input.')
    dims = x.shape.as_list()
    return [(x.dtype, TensorShape([dims[int(i)] for i in p]))]


TRANSPOSE = register('Transpose', lambda x, perm: np.transpose(x, tuple(perm)), _transpose_infer,
                     inputs=('x', 'perm'), type_attrs=(('T', 0), ('Tperm', 1)))


def transpose(a, perm=None, conjugate=False, name=None):
    x = convert_to_tensor(a)
    if conjugate and x.dtype.is_complex:
        raise NotImplementedError('transpose(conjugate=True) of complex tensors is not '
                                  'supported.')
    if perm is None:
        if x.shape.rank is None:
            raise ValueError('rt.transpose needs `perm` when the rank is unknown.')
        perm = list(builtins.range(x.shape.rank))[::-1]
    perm = int_operand(perm, 'perm')
    return apply(TRANSPOSE, [x, perm], name=name)


def _concat_infer(inputs, attrs):
    values, axis = inputs[:-1], inputs[-1]
    a = constant_value(axis)
    shapes = [t.shape for t in values]
    if any(s.rank is None for s in shapes):
        return [(values[0].dtype, TensorShape(None))]
    if a is None:  # the axis is unknown: so is every dim
        return [(values[0].dtype, TensorShape([None] * shapes[0].rank))]
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
                  outputs=('output',), type_attrs=(('T', 0), ('Tidx', -1)),
                  partial=moves_elements)


def concat(values, axis, name=None):
    inputs, _ = unify_operands('ConcatV2', *values)
    return apply(CONCAT, inputs + [int_operand(axis, 'axis')], {'N': len(inputs)}, name=name)


def _expand_infer(inputs, attrs):
    x, dim = inputs
    d = constant_value(dim)
    if x.shape.rank is None or d is None:  # (TensorFlow's rank is unknown too)
        return [(x.dtype, TensorShape(None))]
    dims = x.shape.as_list()
    d = int(d)
    if not -len(dims) - 1 <= d <= len(dims):
        raise ValueError(f'ExpandDims: axis {d} is not in [{-len(dims) - 1}, {len(dims)}] for '
                         f'an input of rank {len(dims)}.')
    dims.insert(d if d >= 0 else len(dims) + 1 + d, 1)
    return [(x.dtype, TensorShape(dims))]


EXPAND_DIMS = register('ExpandDims', lambda input, dim: np.expand_dims(input, int(dim)),
                       _expand_infer, inputs=('input', 'dim'), outputs=('output',),
                       type_attrs=(('T', 0), ('Tdim', 1)))


def expand_dims(input, axis, name=None):
    return apply(EXPAND_DIMS, [convert_to_tensor(input), int_operand(axis, 'axis')], name=name)


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


def _shape_kernel(input, out_type=dtypes.int32):
    return np.array(np.shape(input), dtype=out_type.np_dtype)


SHAPE = register('Shape', _shape_kernel,
                 lambda inputs, attrs: [(attrs.get('out_type', dtypes.int32),
                                         TensorShape([inputs[0].shape.rank]))],
                 inputs=('input',), outputs=('output',), defaults={'out_type': dtypes.int32},
                 partial=shape_value)
SIZE = register('Size', lambda input, out_type=dtypes.int32: out_type.np_dtype.type(np.size(input)),
                lambda inputs, attrs: [(attrs.get('out_type', dtypes.int32), TensorShape([]))],
                inputs=('input',), outputs=('output',), defaults={'out_type': dtypes.int32},
                partial=size_value)
RANK = register('Rank', lambda input: np.int32(np.ndim(input)),
                lambda inputs, attrs: [(dtypes.int32, TensorShape([]))], inputs=('input',),
                outputs=('output',), partial=rank_value)


def shape(input, out_type=None, name=None):
    x = convert_to_tensor(input)
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    if x.shape.is_fully_defined():
        return constant(np.array(x.shape.as_list(), dtype=out_type.np_dtype), out_type,
                        name=name or 'Shape')
    return apply(SHAPE, [x], {} if out_type is dtypes.int32 else {'out_type': out_type}, name=name)


def size(input, out_type=None, name=None):
    x = convert_to_tensor(input)
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return apply(SIZE, [x], {} if out_type is dtypes.int32 else {'out_type': out_type}, name=name)


def rank(input, name=None):
    return apply(RANK, [convert_to_tensor(input)], name=name)
