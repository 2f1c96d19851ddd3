"""Rearranging tensors: tile, pad, slice, split, unstack, reverse, broadcast_to, repeat,
meshgrid, one_hot, linspace.

Each op is TensorFlow's (`Tile`, `Pad`/`PadV2`/`MirrorPad`, `Slice`, `Split`/`SplitV`,
`Unpack`, `ReverseV2`, `BroadcastTo`, `OneHot`, `LinSpace`); `repeat` and `meshgrid` are built
from them, as TensorFlow builds them from its ops.
"""
import builtins

import numpy as np

from runtime.core import dtypes
from runtime.core.context import name_scope
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.compare import less
from runtime.ops.convert import convert_to_tensor, int_operand, stack, unify_operands
from runtime.ops.creation import range
from runtime.ops.dispatch import apply
from runtime.ops.indexing import boolean_mask
from runtime.ops.infer import constant_value, known_elements
from runtime.ops.reduce import reduce_max
from runtime.ops.registry import register
from runtime.ops.shaping import broadcast_to, concat, expand_dims, reshape, shape, shape_from
from runtime.ops.slicing import gather

newaxis = None  # `x[rt.newaxis]`, as numpy's and TensorFlow's


def _static_rank(x, op_name):
    if x.shape.rank is None:
        raise ValueError(f'{op_name} needs a tensor of known rank, got shape {x.shape}.')
    return x.shape.rank


# ---- Tile ----------------------------------------------------------------------------------

def _tile_infer(inputs, attrs):
    x, multiples = inputs
    m = known_elements(multiples)
    if x.shape.rank is None:
        return [(x.dtype, shape_from(multiples))]
    if m is not None and len(m) != x.shape.rank:
        raise ValueError(f'Expected multiples argument to be a vector of length {x.shape.rank} '
                         f'but got length {len(m)}')
    dims = x.shape.as_list()
    if m is None:
        return [(x.dtype, TensorShape([None] * len(dims)))]
    # a dim repeated 0 times is 0 even when unknown
    return [(x.dtype, TensorShape([0 if k is not None and int(k) == 0 else
                                   None if d is None or k is None else d * int(k)
                                   for d, k in zip(dims, m)]))]


def _tile_kernel(input, multiples):
    if len(multiples) != np.ndim(input):
        raise ValueError(f'Expected multiples argument to be a vector of length '
                         f'{np.ndim(input)} but got length {len(multiples)}')
    return np.tile(input, tuple(multiples))


TILE = register('Tile', _tile_kernel, _tile_infer,
                inputs=('input', 'multiples'), outputs=('output',),
                type_attrs=(('T', 0), ('Tmultiples', 1)))


def tile(input, multiples, name=None):
    """`input` repeated `multiples[i]` times along each axis i (op `Tile`)."""
    return apply(TILE, [convert_to_tensor(input), int_operand(multiples, 'multiples')],
                 name=name)


# ---- Slice and the pads --------------------------------------------------------------------

def _slice_kernel(input, begin, size):
    index = tuple(builtins.slice(int(b), None if s == -1 else int(b) + int(s))
                  for b, s in zip(begin, size))
    for axis, (b, s) in enumerate(zip(begin, size)):
        n = np.shape(input)[axis]
        if b < 0 or b > n or s != -1 and (s < 0 or b + s > n):
            raise ValueError(f'Expected begin[{axis}] and size[{axis}] within the dimension '
                             f'{n}, got begin {b} and size {s}')
    return input[index]


def _slice_infer(inputs, attrs):
    x, begin, size = inputs
    b, s = known_elements(begin), known_elements(size)
    if s is None:
        if x.shape.rank is not None:
            return [(x.dtype, TensorShape([None] * x.shape.rank))]
        return [(x.dtype, shape_from(size))]
    dims = x.shape.as_list() if x.shape.rank is not None else [None] * len(s)
    out = []
    for d, k, start in zip(dims, s, b if b is not None else [None] * len(s)):
        if k != -1:
            out.append(k)
        else:
            out.append(None if d is None or start is None else d - start)
    return [(x.dtype, TensorShape(out))]


SLICE = register('Slice', _slice_kernel, _slice_infer, inputs=('input', 'begin', 'size'),
                 outputs=('output',), type_attrs=(('T', 0), ('Index', 1)))


def slice(input_, begin, size, name=None):  # noqa: A001 - rt.slice
    """The block of `input_` that starts at `begin` and has `size` (-1: to the end) (op `Slice`)."""
    return apply(SLICE, [convert_to_tensor(input_), int_operand(begin, 'begin'),
                         int_operand(size, 'size')], name=name)


def _paddings_value(paddings, x):
    p = known_elements(paddings)
    if p is not None:
        p = np.asarray(p)
        if x.shape.rank is not None and p.shape != (x.shape.rank, 2):
            raise ValueError(f'The first dimension of paddings must be the rank of inputs '
                             f'[{x.shape.rank},2], got paddings of shape {list(p.shape)}')
    return p


def _pad_infer(inputs, attrs):
    x, paddings = inputs[:2]
    p = _paddings_value(paddings, x)
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None if paddings.shape.rank is None or
                                      paddings.shape[0] is None else [None] * paddings.shape[0]))]
    if p is None:
        return [(x.dtype, TensorShape([None] * x.shape.rank))]
    return [(x.dtype, TensorShape([None if d is None or a is None or b is None else d + a + b
                                   for d, (a, b) in zip(x.shape.as_list(), p)]))]


def _pad_kernel(input, paddings, constant_values=0):
    if np.any(np.asarray(paddings) < 0):
        raise ValueError(f'Paddings must be non-negative, got {np.asarray(paddings).tolist()}')
    return np.pad(input, np.asarray(paddings), constant_values=constant_values)


def _mirror_pad_kernel(input, paddings, mode):
    p = np.asarray(paddings)
    offset = 1 if mode == 'REFLECT' else 0
    for axis, (a, b) in enumerate(p):
        n = np.shape(input)[axis]
        if a < 0 or b < 0 or a > n - offset or b > n - offset:
            raise ValueError(f'paddings must be no greater than the dimension size {n} '
                             f'{"minus 1 " if offset else ""}for {mode}, got {p.tolist()}')
    return np.pad(input, p, mode='reflect' if mode == 'REFLECT' else 'symmetric')


def _mirror_pad_grad_kernel(input, paddings, mode):
    """Fold the mirrored border of a MirrorPad's gradient back onto the values it copied."""
    offset = 1 if mode == 'REFLECT' else 0
    g = np.asarray(input)
    for axis, (a, b) in enumerate(np.asarray(paddings)):
        a, b = int(a), int(b)
        g = np.moveaxis(g, axis, 0)
        n = g.shape[0] - a - b
        core = g[a:a + n].copy()
        if a:
            core[offset:offset + a] += g[:a][::-1]
        if b:
            core[n - offset - b:n - offset] += g[a + n:][::-1]
        g = np.moveaxis(core, 0, axis)
    return g


def _mirror_pad_grad_infer(inputs, attrs):
    g, paddings = inputs
    p = constant_value(paddings)
    if g.shape.rank is None or p is None:
        return [(g.dtype, TensorShape(None if g.shape.rank is None else [None] * g.shape.rank))]
    return [(g.dtype, TensorShape([None if d is None else d - int(a) - int(b)
                                   for d, (a, b) in zip(g.shape.as_list(), p)]))]


PAD = register('Pad', _pad_kernel, _pad_infer, inputs=('input', 'paddings'),
               outputs=('output',), type_attrs=(('T', 0), ('Tpaddings', 1)))
PAD_V2 = register('PadV2', _pad_kernel, _pad_infer,
                  inputs=('input', 'paddings', 'constant_values'), outputs=('output',),
                  type_attrs=(('T', 0), ('Tpaddings', 1)))
MIRROR_PAD = register('MirrorPad', _mirror_pad_kernel, _pad_infer,
                      inputs=('input', 'paddings'), outputs=('output',),
                      type_attrs=(('T', 0), ('Tpaddings', 1)))
MIRROR_PAD_GRAD = register('MirrorPadGrad', _mirror_pad_grad_kernel, _mirror_pad_grad_infer,
                           inputs=('input', 'paddings'), outputs=('output',),
                           type_attrs=(('T', 0), ('Tpaddings', 1)))


def pad(tensor, paddings, mode='CONSTANT', constant_values=0, name=None):
    """`tensor` with `paddings[i] = [before, after]` values added along axis i.

    mode 'CONSTANT' (op `Pad`, or `PadV2` with a nonzero `constant_values`), 'REFLECT' or
    'SYMMETRIC' (op `MirrorPad`).
    """
    x = convert_to_tensor(tensor)
    paddings = int_operand(paddings, 'paddings')
    mode = mode.upper()
    if mode == 'CONSTANT':
        if isinstance(constant_values, Tensor) or constant_values != 0:
            (value,), _ = unify_operands('PadV2', convert_to_tensor(constant_values)
                                         if isinstance(constant_values, Tensor) else
                                         constant_values)
            if isinstance(value, Tensor) and value.dtype is not x.dtype:
                raise TypeError(f'PadV2: constant_values has dtype {value.dtype.name} but the '
                                f'tensor has dtype {x.dtype.name}.')
            value = value if isinstance(value, Tensor) else x.dtype.np_dtype.type(value)
            return apply(PAD_V2, [x, paddings, value], name=name)
        return apply(PAD, [x, paddings], name=name)
    if mode not in ('REFLECT', 'SYMMETRIC'):
        raise ValueError(f'Unknown padding mode {mode!r}; use "CONSTANT", "REFLECT" or '
                         f'"SYMMETRIC".')
    return apply(MIRROR_PAD, [x, paddings], {'mode': mode}, name=name)


# ---- Split, SplitV, Unpack -----------------------------------------------------------------

def _axis_of(x, axis, op_name):
    rank = _static_rank(x, op_name)
    if not -rank <= axis < rank:
        raise ValueError(f'{op_name}: axis {axis} is out of range for a tensor of rank {rank}.')
    return axis % rank


def _split_kernel(split_dim, value, num_split):
    n = np.shape(value)[int(split_dim)]
    if n % num_split:
        raise ValueError(f'Number of ways to split should evenly divide the split dimension, '
                         f'but got split_dim {int(split_dim)} (size = {n}) and num_split '
                         f'{num_split}')
    return tuple(np.split(value, num_split, axis=int(split_dim)))


def _split_infer(inputs, attrs):
    split_dim, x = inputs
    axis = int(constant_value(split_dim))
    dims = x.shape.as_list()
    n, k = dims[axis], attrs['num_split']
    if n is not None and n % k:
        raise ValueError(f'Dimension {axis} of size {n} cannot be split into {k} equal parts.')
    dims[axis] = None if n is None else n // k
    return [(x.dtype, TensorShape(dims))] * k


def _splitv_kernel(value, size_splits, split_dim, num_split):
    axis = int(split_dim)
    sizes = [int(s) for s in size_splits]
    n = np.shape(value)[axis]
    if -1 in sizes:
        sizes[sizes.index(-1)] = n - (sum(sizes) + 1)
    if sum(sizes) != n or any(s < 0 for s in sizes):
        raise ValueError(f'Determined shape must either match input shape along split_dim '
                         f'exactly if fully specified, or be less than the size of the input '
                         f'along split_dim if not fully specified.  Got: {sum(sizes)}')
    return tuple(np.split(value, np.cumsum(sizes)[:-1], axis=axis))


def _splitv_infer(inputs, attrs):
    x, size_splits, split_dim = inputs
    axis = int(constant_value(split_dim))
    sizes = known_elements(size_splits)
    dims = x.shape.as_list()
    out = []
    for k in builtins.range(attrs['num_split']):
        d = list(dims)
        d[axis] = None if sizes is None or sizes[k] == -1 else sizes[k]
        if sizes is not None and sizes[k] == -1 and dims[axis] is not None and None not in sizes:
            d[axis] = dims[axis] - int(sum(s for s in sizes if s != -1))
        out.append((x.dtype, TensorShape(d)))
    return out


SPLIT = register('Split', _split_kernel, _split_infer, inputs=('split_dim', 'value'),
                 outputs='output', type_attrs=(('T', 1),))
SPLIT_V = register('SplitV', _splitv_kernel, _splitv_infer,
                   inputs=('value', 'size_splits', 'split_dim'), outputs='output',
                   type_attrs=(('T', 0), ('Tlen', 1)))


def split(value, num_or_size_splits, axis=0, num=None, name='split'):
    """`value` cut along `axis` into `num_or_size_splits` equal parts (op `Split`), or parts of
    the given sizes, one of which may be -1 (op `SplitV`). Returns a list of tensors."""
    x = convert_to_tensor(value)
    axis = _axis_of(x, int(axis), 'rt.split')
    if isinstance(num_or_size_splits, (int, np.integer)):
        k = int(num_or_size_splits)
        if k <= 0:
            raise ValueError(f'rt.split: num_or_size_splits must be positive, got {k}.')
        return apply(SPLIT, [np.int32(axis), x], {'num_split': k}, name=name)
    sizes = int_operand(num_or_size_splits, 'num_or_size_splits')
    k = num if num is not None else (len(sizes) if not isinstance(sizes, Tensor) else
                                     sizes.shape[0])
    if k is None:
        raise ValueError('rt.split: cannot infer the number of parts from size splits of '
                         'unknown length; pass `num`.')
    return apply(SPLIT_V, [x, sizes, np.int32(axis)], {'num_split': int(k)}, name=name)


def _unpack_infer(inputs, attrs):
    x = inputs[0]
    dims = x.shape.as_list()
    del dims[attrs['axis'] % len(dims)]
    return [(x.dtype, TensorShape(dims))] * attrs['num']


UNPACK = register('Unpack', lambda value, num, axis=0: tuple(np.moveaxis(value, axis, 0)),
                  _unpack_infer, inputs=('value',), outputs='output', defaults={'axis': 0})


def unstack(value, num=None, axis=0, name='unstack'):
    """The slices of `value` along `axis`, a list of tensors (op `Unpack`)."""
    x = convert_to_tensor(value)
    axis = _axis_of(x, int(axis), 'rt.unstack')
    n = x.shape[axis]
    if num is None:
        if n is None:
            raise ValueError(f'Cannot infer argument `num` from shape {x.shape}')
        num = n
    elif n is not None and num != n:
        raise ValueError(f'rt.unstack: num={num} does not match dimension {axis} of shape '
                         f'{x.shape}.')
    return apply(UNPACK, [x], {'num': int(num), 'axis': axis}, name=name)


# ---- ReverseV2 -----------------------------------------------------------------------------

REVERSE = register('ReverseV2', lambda tensor, axis: np.flip(tensor, tuple(int(a) for a in axis)),
                   lambda inputs, attrs: [(inputs[0].dtype, inputs[0].shape)],
                   inputs=('tensor', 'axis'), outputs=('output',),
                   type_attrs=(('T', 0), ('Tidx', 1)))


def reverse(tensor, axis, name=None):
    """`tensor` with the order of the elements along each axis in `axis` reversed."""
    axis = int_operand(axis, 'axis')
    return apply(REVERSE, [convert_to_tensor(tensor), axis.reshape(-1)
                           if isinstance(axis, np.ndarray) else axis], name=name)


# ---- OneHot, LinSpace ----------------------------------------------------------------------

def _one_hot_kernel(indices, depth, on_value, off_value, axis=-1):
    idx = np.asarray(indices)
    hot = idx[..., None] == np.arange(int(depth))
    out = np.where(hot, on_value, off_value).astype(np.result_type(on_value))
    return out if axis == -1 else np.moveaxis(out, -1, axis)


def _one_hot_infer(inputs, attrs):
    indices, depth, on_value = inputs[:3]
    d = constant_value(depth)
    axis = attrs.get('axis', -1)
    if indices.shape.rank is None:
        return [(on_value.dtype, TensorShape(None))]
    dims = indices.shape.as_list()
    dims.insert(len(dims) if axis == -1 else axis, None if d is None else int(d))
    return [(on_value.dtype, TensorShape(dims))]


ONE_HOT = register('OneHot', _one_hot_kernel, _one_hot_infer,
                   inputs=('indices', 'depth', 'on_value', 'off_value'), outputs=('output',),
                   type_attrs=(('T', 2), ('TI', 0)), defaults={'axis': -1})


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A tensor with `on_value` where the last (or `axis`) index equals `indices`, `off_value`
    elsewhere (op `OneHot`); float32 unless `dtype` or the values say otherwise."""
    indices = convert_to_tensor(indices)
    if indices.dtype not in (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64):
        raise TypeError(f'rt.one_hot needs integer indices (uint8, int8, int32 or int64), got '
                        f'{indices.dtype.name}.')
    given = [v for v in (on_value, off_value) if v is not None]
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    elif given:  # the dtype of on_value (or off_value), as TensorFlow assumes
        dtype = convert_to_tensor(given[0]).dtype
    else:
        dtype = dtypes.float32
    values = []
    for v, default in ((on_value, 1), (off_value, 0)):
        v = default if v is None else v
        if isinstance(v, Tensor):
            if v.dtype is not dtype:
                raise TypeError(f'rt.one_hot: dtype {dtype.name} does not match the '
                                f'{v.dtype.name} on_value/off_value.')
            values.append(v)
        else:
            values.append(np.asarray(v, dtype=dtype.np_dtype)[()])
    rank = indices.shape.rank
    if axis is not None and axis != -1 and rank is not None and not 0 <= axis <= rank:
        raise ValueError(f'rt.one_hot: axis must be -1 or in [0, {rank}], got {axis}.')
    attrs = {} if axis is None or axis == -1 else {'axis': int(axis)}
    depth = depth if isinstance(depth, Tensor) else np.int32(depth)
    return apply(ONE_HOT, [indices, depth] + values, attrs, name=name or 'one_hot')


def _linspace_kernel(start, stop, num):
    if num <= 0:
        raise ValueError(f'Requires num > 0: {int(num)}')
    return np.linspace(start, stop, int(num)).astype(np.result_type(start))


def _linspace_infer(inputs, attrs):
    n = constant_value(inputs[2])
    return [(inputs[0].dtype, TensorShape([None if n is None else int(n)]))]


LINSPACE = register('LinSpace', _linspace_kernel, _linspace_infer,
                    inputs=('start', 'stop', 'num'), outputs=('output',),
                    type_attrs=(('T', 0), ('Tidx', 2)))


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` inclusive (op `LinSpace`)."""
    if axis != 0:
        raise ValueError('rt.linspace supports scalar start and stop (axis=0) only.')
    (start, stop), dtype = unify_operands('LinSpace', start, stop)
    if not dtype.is_floating:
        (start, stop), dtype = unify_operands('LinSpace', np.float32(start), np.float32(stop))
    num = num if isinstance(num, Tensor) else np.int32(num)
    return apply(LINSPACE, [start, stop, num], name=name or 'linspace')


# ---- compositions: repeat, meshgrid --------------------------------------------------------

def repeat(input, repeats, axis=None, name=None):
    """Each element of `input` repeated `repeats` times along `axis` (flattened when axis is
    None); `repeats` a scalar or one count per element. Built from Tile/Reshape, or, for
    per-element counts, from a mask and GatherV2, as TensorFlow does."""
    with name_scope(name or 'Repeat'):
        return _repeat(convert_to_tensor(input), repeats, axis)


def _repeat(x, repeats, axis):
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    axis = _axis_of(x, int(axis), 'rt.repeat')
    repeats = convert_to_tensor(repeats) if not isinstance(repeats, Tensor) else repeats
    if not repeats.dtype.is_integer:
        raise TypeError(f'rt.repeat needs integer repeats, got {repeats.dtype.name}.')
    repeats = cast(repeats, dtypes.int32)
    if repeats.shape.rank == 0:
        # [..., n, ...] -> [..., n, 1, ...] tiled k times -> [..., n * k, ...]
        expanded = expand_dims(x, axis + 1)
        multiples = [1] * (x.shape.rank + 1)
        multiples[axis + 1] = repeats
        tiled = tile(expanded, stack([convert_to_tensor(m, dtypes.int32)
                                      if not isinstance(m, Tensor) else m for m in multiples]))
        k = constant_value(repeats)
        if x.shape.is_fully_defined() and k is not None:
            new = x.shape.as_list()
            new[axis] *= int(k)
        else:
            dims = shape(x)
            new = concat([dims[:axis], dims[axis:axis + 1] * repeats, dims[axis + 1:]], 0)
        return reshape(tiled, new)
    # per-element counts: index i appears repeats[i] times
    n = shape(x)[axis]
    most = reduce_max(repeats)
    mask = less(expand_dims(range(most), 0), expand_dims(repeats, 1))  # [n, most]
    positions = tile(expand_dims(range(n), 1), stack([np.int32(1), most]))
    return gather(x, boolean_mask(positions, mask), axis=axis)


def meshgrid(*args, indexing='xy', name=None):
    """N-D coordinate grids from 1-D tensors ('xy': Cartesian, 'ij': matrix indexing)."""
    if indexing not in ('xy', 'ij'):
        raise ValueError(f'indexing must be "xy" or "ij", got {indexing!r}.')
    with name_scope(name or 'meshgrid'):
        return _meshgrid(args, indexing)


def _meshgrid(args, indexing):
    tensors = [reshape(convert_to_tensor(a), [-1]) for a in args]
    n = len(tensors)
    if n == 0:
        return []
    sizes = [shape(t)[0] for t in tensors]
    if indexing == 'xy' and n > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(tensors):
        axis = i
        if indexing == 'xy' and n > 1 and i < 2:
            axis = 1 - i
        dims = [1] * n
        dims[axis] = -1
        out.append(broadcast_to(reshape(t, dims), stack(sizes)))
    return out
