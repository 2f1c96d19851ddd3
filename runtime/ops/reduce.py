"""Reductions (`Sum`, `Mean`, ...), `argmax`/`argmin`, and `unbroadcast` for gradients."""
import builtins
import math

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor
from runtime.ops.array import (
    BROADCAST_TO,
    ONES_LIKE,
    RESHAPE,
    cast,
    expand_dims,
    reshape,
    static_or_dynamic_shape,
)
from runtime.ops.array import range as range_
from runtime.ops.array import rank as rank_
from runtime.ops.array import shape as shape_
from runtime.ops.array import size as size_
from runtime.ops.compare import equal, where
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply, op_function
from runtime.ops.infer import constant_value, known_shape
from runtime.ops.registry import NO_GRADIENT, NUMERIC, register


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
    axes = {a % rank if rank else a for a in _axes(axes)}
    dims = x.shape.as_list()
    out = [1 if i in axes else d for i, d in enumerate(dims)] if keep else \
        [d for i, d in enumerate(dims) if i not in axes]
    return [(x.dtype, TensorShape(out))]


_NUMERIC = (('T', 0), ('Tidx', 1))
_BOOL = (('Tidx', 1),)  # Any/All have no T attr in TensorFlow; they only take bools
_REDUCTIONS = {  # public name: (TensorFlow op, numpy reduction, type attrs, dtypes)
    # the ufuncs' own `reduce` is what np.sum, np.max, ... call, without their Python layer
    'reduce_sum': ('Sum', np.add.reduce, _NUMERIC, NUMERIC),
    'reduce_mean': ('Mean', np.mean, _NUMERIC, NUMERIC),
    'reduce_max': ('Max', np.maximum.reduce, _NUMERIC, NUMERIC),
    'reduce_min': ('Min', np.minimum.reduce, _NUMERIC, NUMERIC),
    'reduce_prod': ('Prod', np.multiply.reduce, _NUMERIC, NUMERIC),
    'reduce_any': ('Any', np.logical_or.reduce, _BOOL, None),
    'reduce_all': ('All', np.logical_and.reduce, _BOOL, None),
}
# ---- gradients (docs/gradients.md) ------------------------------------------------------------

def _kept_shape(x, axis):
    """The shape of `x` reduced over `axis` with keep_dims: numpy when known, else an op."""
    axes = constant_value(axis)
    known = known_shape(x)
    if known is not None and axes is not None:
        dims = list(known)
        for a in np.ravel(axes):
            dims[int(a) % len(dims)] = 1
        return np.array(dims, dtype=np.int32)
    full = shape_(x)
    reduced = reshape(axis, [-1]) % rank_(x)
    mask = reduce_any(equal(expand_dims(range_(0, rank_(x)), 1), expand_dims(reduced, 0)), 1)
    return where(mask, apply(ONES_LIKE, [full]), full)


def _kept(grad, x, axis, keep_dims):
    """A reduction's output (or its gradient) in keep_dims form, which broadcasts against x."""
    return grad if keep_dims else apply(RESHAPE, [grad, _kept_shape(x, axis)])


def _broadcast_like(grad, x):
    known = known_shape(x)
    if known is not None and known == known_shape(grad):
        return grad
    return apply(BROADCAST_TO, [grad, static_or_dynamic_shape(x)])


def _sum_gradient(op, grad):
    x, axis = op.inputs
    return [_broadcast_like(_kept(grad, x, axis, op.get_attr('keep_dims')), x), None]


def _mean_count(op, grad):
    """How many elements each output element of a Mean averages."""
    x, y = op.inputs[0], op.outputs[0]
    xs, ys = known_shape(x), known_shape(y)
    if xs is not None and ys is not None:
        return grad.dtype.np_dtype.type(math.prod(xs) // max(math.prod(ys), 1))
    return cast(size_(x), grad.dtype) / cast(size_(y), grad.dtype)


def _mean_gradient(op, grad):
    return _sum_gradient(op, grad / _mean_count(op, grad))


def _extremum_gradient(op, grad):
    """Split evenly among the elements equal to the extremum, as TensorFlow does."""
    x, axis = op.inputs
    keep = op.get_attr('keep_dims')
    chosen = cast(equal(x, _kept(op.outputs[0], x, axis, keep)), grad.dtype)
    count = reduce_sum(chosen, axis, keepdims=True)
    return [chosen * _kept(grad, x, axis, keep) / count, None]


def _prod_gradient(op, grad):
    """y / x per element (inputs are assumed nonzero)."""
    x, axis = op.inputs
    keep = op.get_attr('keep_dims')
    return [_kept(grad * op.outputs[0], x, axis, keep) / x, None]


_GRADIENTS = {'Sum': _sum_gradient, 'Mean': _mean_gradient, 'Max': _extremum_gradient,
              'Min': _extremum_gradient, 'Prod': _prod_gradient}
OPS = {name: register(op, _reduce_kernel(fn), reduce_infer,
                      inputs=('input', 'reduction_indices'), outputs=('output',),
                      type_attrs=type_attrs, defaults={'keep_dims': False}, dtypes=allowed,
                      gradient=_GRADIENTS.get(op, NO_GRADIENT))
       for name, (op, fn, type_attrs, allowed) in _REDUCTIONS.items()}
REDUCE_SUM = OPS['reduce_sum']


def axis_operand(x, axis):
    if axis is None:
        rank = x.ndim if type(x) is EagerTensor else x.shape.rank
        if rank is None:
            return range_(0, rank_(x))
        return np.arange(rank, dtype=np.int32)
    if isinstance(axis, (int, list, tuple, np.integer, np.ndarray)):
        return np.asarray(axis, dtype=np.int32)
    return convert_to_tensor(axis)


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
    if x.shape.rank is None or a is None:
        return [(out_type, TensorShape(None))]
    dims = x.shape.as_list()
    del dims[int(a) % len(dims)]
    return [(out_type, TensorShape(dims))]


ARGMAX = register('ArgMax', _arg_kernel(np.argmax), _arg_infer, inputs=('input', 'dimension'),
                  outputs=('output',), type_attrs=(('T', 0), ('Tidx', 1)),
                  defaults={'output_type': dtypes.int64}, gradient=NO_GRADIENT)
ARGMIN = register('ArgMin', _arg_kernel(np.argmin), _arg_infer, inputs=('input', 'dimension'),
                  outputs=('output',), type_attrs=(('T', 0), ('Tidx', 1)),
                  defaults={'output_type': dtypes.int64}, gradient=NO_GRADIENT)


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


# ---- reducing a broadcast gradient back to its operand's shape --------------------------------

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
    outputs=('r0', 'r1'), gradient=NO_GRADIENT)


_UNBROADCAST_PLANS = {}  # (grad shape, operand shape) -> what unbroadcast adds between them


def _unbroadcast_plan(gl, xl):
    """(axes to sum or None, shape to reshape to or None) from `gl` back to `xl`, as read-only
    int32 vectors (they are shared by every call with these shapes)."""
    lead = len(gl) - len(xl)
    axes = list(builtins.range(lead)) + [lead + i for i, d in enumerate(xl)
                                          if d == 1 and gl[lead + i] != 1]
    summed = [d for i, d in enumerate(gl) if i not in axes]
    plan = (np.array(axes, dtype=np.int32) if axes else None,
            None if summed == list(xl) else np.array(xl, dtype=np.int32))
    for a in plan:
        if a is not None:
            a.flags.writeable = False
    return plan


def unbroadcast(grad, x):
    """`grad` (of a broadcasting op's output) summed back to operand `x`'s shape.

    With both shapes known at trace time this is at most one Sum and one Reshape chosen now (no
    op at all when the shapes agree); otherwise op `BroadcastGradientArgs` picks the axes when
    the graph runs.
    """
    gl, xl = known_shape(grad), known_shape(x)
    if gl is not None and xl is not None:
        if gl == xl:
            return grad
        plan = _UNBROADCAST_PLANS.get((gl, xl))
        if plan is None:
            if len(_UNBROADCAST_PLANS) > 4096:  # shapes that vary without end: start over
                _UNBROADCAST_PLANS.clear()
            plan = _UNBROADCAST_PLANS[gl, xl] = _unbroadcast_plan(gl, xl)
        axes, shape = plan
        out = grad if axes is None else apply(REDUCE_SUM, [grad, axes])
        return out if shape is None else apply(RESHAPE, [out, shape])
    full = shape_(x)
    axes, _ = apply(BROADCAST_GRADIENT_ARGS, [full, shape_(grad)])
    return reshape(reduce_sum(grad, axes), full)
