"""Reductions (`Sum`, `Mean`, ...), `argmax`/`argmin`, and `BroadcastGradientArgs`, which
`unbroadcast` (runtime/gradients/rules/common.py) runs when shapes are known only at run time."""
import builtins

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor
from runtime.ops.convert import convert_to_tensor, int_operand
from runtime.ops.creation import range as range_
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import constant_value
from runtime.ops.registry import register
from runtime.ops.shaping import rank as rank_


def _axes(axis):
    if type(axis) is np.ndarray:  # the common case: the int32 vector axis_operand makes
        return tuple(axis.ravel().tolist())
    return tuple(int(a) for a in np.ravel(axis))


def _reduce_kernel(fn):
    """A numpy reduction that keeps the input dtype (integer means truncate, as TensorFlow)."""
    def kernel(input, reduction_indices, keep_dims=False):
        out = fn(input, axis=_axes(reduction_indices), keepdims=keep_dims)
        return out.astype(input.dtype, copy=False)
    return kernel


def reduce_infer(inputs, attrs):
    x, axis = inputs
    keep = attrs.get('keep_dims', False)
    rank = x.shape.rank
    axes = constant_value(axis)
    if rank is None or axes is None:
        return [(x.dtype, TensorShape(None))]
    check_axes(_axes(axes), rank)
    axes = {a % rank if rank else a for a in _axes(axes)}
    dims = x.shape.as_list()
    out = [1 if i in axes else d for i, d in enumerate(dims)] if keep else \
        [d for i, d in enumerate(dims) if i not in axes]
    return [(x.dtype, TensorShape(out))]


def check_axes(axes, rank, what='reduction dimension'):
    """TensorFlow's ValueError at graph construction for an axis outside [-rank, rank)."""
    for a in axes:
        if rank and not -rank <= a < rank:
            raise ValueError(f'Invalid {what} {a} for input with {rank} dimensions.')


def _extremum(ufunc, identity):
    """`ufunc.reduce`, with TensorFlow's answer over no elements: `identity` of the dtype
    (-inf for the max of floats, the lowest integer for ints)."""
    def reduce(input, axis, keepdims):
        if input.size:
            return ufunc.reduce(input, axis=axis, keepdims=keepdims)
        return ufunc.reduce(input, axis=axis, keepdims=keepdims, initial=identity(input.dtype))
    return reduce


def _lowest(dtype):
    return -np.inf if dtype.kind in 'fc' else np.iinfo(dtype).min


def _highest(dtype):
    return np.inf if dtype.kind in 'fc' else np.iinfo(dtype).max


_NUMERIC = (('T', 0), ('Tidx', 1))
_BOOL = (('Tidx', 1),)  # Any/All have no T attr in TensorFlow; they only take bools
# the dtypes each accepts are TensorFlow's (runtime/ops/allowed_dtypes.py)
_REDUCTIONS = {  # public name: (TensorFlow op, numpy reduction, type attrs)
    # the ufuncs' own `reduce` is what np.sum, np.max, ... call, without their Python layer
    'reduce_sum': ('Sum', np.add.reduce, _NUMERIC),
    'reduce_mean': ('Mean', np.mean, _NUMERIC),
    'reduce_max': ('Max', _extremum(np.maximum, _lowest), _NUMERIC),
    'reduce_min': ('Min', _extremum(np.minimum, _highest), _NUMERIC),
    'reduce_prod': ('Prod', np.multiply.reduce, _NUMERIC),
    'reduce_any': ('Any', np.logical_or.reduce, _BOOL),
    'reduce_all': ('All', np.logical_and.reduce, _BOOL),
}
OPS = {name: register(op, _reduce_kernel(fn), reduce_infer,
                      inputs=('input', 'reduction_indices'), outputs=('output',),
                      type_attrs=type_attrs, defaults={'keep_dims': False})
       for name, (op, fn, type_attrs) in _REDUCTIONS.items()}
REDUCE_SUM = OPS['reduce_sum']


def axis_operand(x, axis):
    if axis is None:
        rank = x.ndim if type(x) is EagerTensor else x.shape.rank
        if rank is None:
            return range_(0, rank_(x))
        return np.arange(rank, dtype=np.int32)
    if isinstance(axis, (int, np.integer, np.ndarray)):
        return np.asarray(axis, dtype=np.int32)
    return int_operand(axis, 'axis')


def _reduction(public_name):
    opdef = OPS[public_name]
    bool_only = public_name in ('reduce_any', 'reduce_all')

    def reduce(input_tensor, axis=None, keepdims=False, name=None):
        x = convert_to_tensor(input_tensor)
        if bool_only != (x.dtype is dtypes.bool):
            need = 'bool' if bool_only else 'numeric'
            raise TypeError(f'rt.{public_name} needs a {need} tensor, got {x.dtype.name}.')
        attrs = {'keep_dims': True} if keepdims else {}
        return apply(opdef, [x, axis_operand(x, axis)], attrs, name=name)
    return op_function(reduce, public_name, f'{opdef.name} over `axis` (all axes when None), '
                                            f'keeping reduced dims as 1 when `keepdims`.')


reduce_sum = _reduction('reduce_sum')
reduce_mean = _reduction('reduce_mean')
reduce_max = _reduction('reduce_max')
reduce_min = _reduction('reduce_min')
reduce_prod = _reduction('reduce_prod')
reduce_any = _reduction('reduce_any')
reduce_all = _reduction('reduce_all')


def _arg_kernel(fn):
    def kernel(input, dimension, output_type=dtypes.int64):
        return fn(input, axis=int(dimension)).astype(output_type.np_dtype)
    return kernel


def _arg_infer(inputs, attrs):
    x, axis = inputs
    out_type = attrs.get('output_type', dtypes.int64)
    a = constant_value(axis)
    if x.shape.rank is None:
        return [(out_type, TensorShape(None))]
    if a is None:  # one dim fewer, which one known when running
        return [(out_type, TensorShape([None] * max(x.shape.rank - 1, 0)))]
    check_axes([int(a)], x.shape.rank, 'dimension')
    dims = x.shape.as_list()
    del dims[int(a) % len(dims)]
    return [(out_type, TensorShape(dims))]


ARGMAX = register('ArgMax', _arg_kernel(np.argmax), _arg_infer, inputs=('input', 'dimension'),
                  outputs=('output',), type_attrs=(('T', 0), ('Tidx', 1)),
                  defaults={'output_type': dtypes.int64})
ARGMIN = register('ArgMin', _arg_kernel(np.argmin), _arg_infer, inputs=('input', 'dimension'),
                  outputs=('output',), type_attrs=(('T', 0), ('Tidx', 1)),
                  defaults={'output_type': dtypes.int64})


def argmax(input, axis=None, output_type=dtypes.int64, name=None):
    return _arg(ARGMAX, input, axis, output_type, name)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):
    return _arg(ARGMIN, input, axis, output_type, name)


def _arg(opdef, input, axis, output_type, name):
    x = convert_to_tensor(input)
    output_type = dtypes.as_dtype(output_type)
    attrs = {} if output_type is dtypes.int64 else {'output_type': output_type}
    axis = np.int32(0 if axis is None else axis) if not hasattr(axis, 'dtype') or \
        isinstance(axis, np.generic) else axis
    return apply(opdef, [x, axis], attrs, name=name)


# ---- the axes a broadcast gradient is summed over ----------------------------------------------

def _broadcast_gradient_args_kernel(s0, s1):
    """The axes to sum the gradient of each operand over (padded dims of size 1; summing a
    size-1 dim is harmless, the caller reshapes)."""
    n = max(len(s0), len(s1))
    a = [1] * (n - len(s0)) + list(s0)
    b = [1] * (n - len(s1)) + list(s1)
    return (np.array([i for i in builtins.range(n) if a[i] == 1], dtype=np.int32),
            np.array([i for i in builtins.range(n) if b[i] == 1], dtype=np.int32))


BROADCAST_GRADIENT_ARGS = register(
    'BroadcastGradientArgs', _broadcast_gradient_args_kernel,
    lambda inputs, attrs: [(dtypes.int32, TensorShape([None]))] * 2, inputs=('s0', 's1'),
    outputs=('r0', 'r1'))
