"""The gradients of arithmetic, unary math, matmul, reductions, scans and the special functions
(TensorFlow's math_grad.py): ops of runtime/ops/{math,elementwise,compare,reduce,stats,scan,
special}.py."""
import math as pymath

import numpy as np

from runtime.gradients.backprop import needs_gradient
from runtime.gradients.rules.common import defgradient, not_differentiable, unbroadcast
from runtime.ops import compare, elementwise, reduce, scan, special, stats
from runtime.ops import math as math_ops
from runtime.ops.array import cast
from runtime.ops.compare import (
    SELECT,
    equal,
    greater,
    greater_equal,
    less,
    less_equal,
    logical_and,
    not_equal,
    where,
)
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import ONES_LIKE, ZEROS_LIKE
from runtime.ops.creation import range as range_
from runtime.ops.dispatch import apply
from runtime.ops.elementwise import (
    cosh,
    div_no_nan,
    multiply_no_nan,
    rsqrt,
    sinh,
    xdivy,
    xlogy,
)
from runtime.ops.infer import constant_value, known_shape
from runtime.ops.math import (
    RELU_GRAD,
    cos,
    divide,
    exp,
    floor,
    log,
    matmul,
    negative,
    sigmoid,
    sign,
    sin,
    sqrt,
    square,
)
from runtime.ops.reduce import reduce_any, reduce_prod, reduce_sum
from runtime.ops.scan import cumprod, cumsum
from runtime.ops.shaping import (
    BROADCAST_TO,
    RESHAPE,
    expand_dims,
    reshape,
    static_or_dynamic_shape,
    transpose,
)
from runtime.ops.shaping import rank as rank_
from runtime.ops.shaping import shape as shape_
from runtime.ops.shaping import size as size_
from runtime.ops.slicing import gather
from runtime.ops.special import digamma, polygamma


def zeros_like(x):
    return apply(ZEROS_LIKE, [x])


def select(mask, grad):
    """`grad` where `mask`, else 0."""
    return where(mask, grad, zeros_like(grad))


def zero_where_no_gradient(grad, value):
    """`value`, and 0 where `grad` is 0: TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad,
    so that the gradient through a `where` that masks out sqrt(0), 1/0, ... stays 0, not NaN."""
    return where(equal(grad, 0), grad, value)


# ---- binary arithmetic -------------------------------------------------------------------------

def _binary_gradients(op, gx, gy):
    """[gx(), gy()] summed back to the operands' shapes, each only where it is needed."""
    x, y = op.inputs
    return [unbroadcast(gx(), x) if needs_gradient(op, 0) else None,
            unbroadcast(gy(), y) if needs_gradient(op, 1) else None]


@defgradient(math_ops.OPS['add'])
def _add_gradient(op, grad):
    return _binary_gradients(op, lambda: grad, lambda: grad)


@defgradient(math_ops.OPS['subtract'])
def _sub_gradient(op, grad):
    return _binary_gradients(op, lambda: grad, lambda: negative(grad))


@defgradient(math_ops.OPS['multiply'])
def _mul_gradient(op, grad):
    x, y = op.inputs
    return _binary_gradients(op, lambda: grad * y, lambda: x * grad)


@defgradient(math_ops.REAL_DIV)
def _div_gradient(op, grad):
    x, y = op.inputs
    return _binary_gradients(op, lambda: grad / y, lambda: negative(grad) * op.outputs[0] / y)


@defgradient(math_ops.OPS['mod'])
def _floor_mod_gradient(op, grad):
    x, y = op.inputs
    return [unbroadcast(grad, x), unbroadcast(negative(grad) * floor(x / y), y)]


@defgradient(math_ops.OPS['pow'])
def _pow_gradient(op, grad):
    x, y = op.inputs
    z = op.outputs[0]
    gx = grad * y * (x ** (y - 1))
    positive = greater(x, 0)  # TensorFlow's: log(x) taken as 0 where x <= 0 (nan where z is inf)
    log_x = where(positive, log(where(positive, x, apply(ONES_LIKE, [x]))), zeros_like(x))
    gy = grad * z * log_x
    return [unbroadcast(gx, x), unbroadcast(gy, y)]


def _extremum_gradient(choose_x):
    def gradient(op, grad):
        x, y = op.inputs
        mask = choose_x(x, y)
        return [unbroadcast(select(mask, grad), x),
                unbroadcast(where(mask, zeros_like(grad), grad), y)]
    return gradient


defgradient(math_ops.OPS['maximum'])(_extremum_gradient(greater_equal))
defgradient(math_ops.OPS['minimum'])(_extremum_gradient(less_equal))
not_differentiable(math_ops.OPS['floordiv'])


@defgradient(math_ops.CLIP)
def _clip_gradient(op, grad):
    t, low, high = op.inputs
    below, above = less(t, low), greater(t, high)
    inside = logical_and(greater_equal(t, low), less_equal(t, high))
    return [select(inside, grad), unbroadcast(select(below, grad), low),
            unbroadcast(select(above, grad), high)]


@defgradient(compare.SELECT)
def _select_gradient(op, grad):
    condition, t, e = op.inputs
    zeros = apply(ZEROS_LIKE, [grad])
    return [None, unbroadcast(apply(SELECT, [condition, grad, zeros]), t),
            unbroadcast(apply(SELECT, [condition, zeros, grad]), e)]


not_differentiable(*compare.OPS.values(), compare.LOGICAL_AND, compare.LOGICAL_OR,
                   compare.LOGICAL_NOT, compare.WHERE)


# ---- unary math: (op, grad) -> [input gradient]; x is the input, y the output ------------------

_UNARY = {
    'negative': lambda op, g: [negative(g)],
    'abs': lambda op, g: [g * sign(op.inputs[0])],
    'square': lambda op, g: [g * (2 * op.inputs[0])],
    'sign': lambda op, g: [zeros_like(g)],
    'relu': lambda op, g: [apply(RELU_GRAD, [g, op.outputs[0]])],
    'sqrt': lambda op, g: [zero_where_no_gradient(g, g * 0.5 / op.outputs[0])],
    'exp': lambda op, g: [g * op.outputs[0]],
    'log': lambda op, g: [g / op.inputs[0]],
    'sin': lambda op, g: [g * cos(op.inputs[0])],
    'cos': lambda op, g: [negative(g) * sin(op.inputs[0])],
    'tanh': lambda op, g: [g * (1 - square(op.outputs[0]))],
    'sigmoid': lambda op, g: [g * op.outputs[0] * (1 - op.outputs[0])],
}
for _name, _gradient in _UNARY.items():
    defgradient(math_ops.UNARY_OPS[_name])(_gradient)
# Round, Floor and Ceil are piecewise constant: not differentiable, as in TensorFlow.
not_differentiable(*(opdef for name, opdef in math_ops.UNARY_OPS.items() if name not in _UNARY))
defgradient(RELU_GRAD)(lambda op, grad: [apply(RELU_GRAD, [grad, op.inputs[1]]),
                                         zeros_like(op.inputs[1])])

_TWO_OVER_SQRT_PI = 2.0 / pymath.sqrt(pymath.pi)
_FORMULAS = {  # gradient(x, y, grad) of the unary ops of runtime.ops.elementwise
    'log1p': lambda x, y, g: divide(g, 1.0 + x),
    'expm1': lambda x, y, g: g * exp(x),
    # Reciprocal's and Rsqrt's gradients are 0 where grad is 0 (even where y is inf), as in
    # TensorFlow's ReciprocalGrad/RsqrtGrad.
    'reciprocal': lambda x, y, g: zero_where_no_gradient(g, negative(g) * y * y),
    'rsqrt': lambda x, y, g: zero_where_no_gradient(g, g * -0.5 * y * y * y),
    'tan': lambda x, y, g: g * (1.0 + y * y),
    'asin': lambda x, y, g: g * rsqrt(1.0 - x * x),
    'acos': lambda x, y, g: negative(g) * rsqrt(1.0 - x * x),
    'atan': lambda x, y, g: divide(g, 1.0 + x * x),
    'asinh': lambda x, y, g: g * rsqrt(x * x + 1.0),
    'acosh': lambda x, y, g: divide(g, sinh(y)),  # TensorFlow's (nan below 1, as there)
    'atanh': lambda x, y, g: divide(g, 1.0 - x * x),
    'sinh': lambda x, y, g: g * cosh(x),
    'cosh': lambda x, y, g: g * sinh(x),
    'erf': lambda x, y, g: g * _TWO_OVER_SQRT_PI * exp(negative(x * x)),
    'erfc': lambda x, y, g: g * -_TWO_OVER_SQRT_PI * exp(negative(x * x)),
}


def _unary_gradient(formula):
    def gradient(op, grad):
        return [formula(convert_to_tensor(op.inputs[0]), op.outputs[0], grad)]
    return gradient


for _name, _formula in _FORMULAS.items():
    defgradient(elementwise.UNARY_OPS[_name])(_unary_gradient(_formula))
not_differentiable(*elementwise.PREDICATE_OPS.values())
defgradient(elementwise.SOFTPLUS)(lambda op, grad: [grad * sigmoid(op.inputs[0])])
defgradient(elementwise.ADD_N)(lambda op, grad: [grad] * len(op.inputs))


# ---- more binary ops (runtime.ops.elementwise) -------------------------------------------------

def _operands(op):
    return [convert_to_tensor(t) for t in op.inputs]


@defgradient(elementwise.SQUARED_DIFFERENCE)
def _squared_difference_gradient(op, grad):
    x, y = _operands(op)
    d = grad * (2.0 * (x - y)) if x.dtype.is_floating else grad
    return [unbroadcast(d, x), unbroadcast(negative(d), y)]


@defgradient(elementwise.DIV_NO_NAN)
def _div_no_nan_gradient(op, grad):
    x, y = _operands(op)
    return [unbroadcast(div_no_nan(grad, y), x),
            unbroadcast(div_no_nan(negative(grad) * x, y * y), y)]


@defgradient(elementwise.FLOAT_BINARY_OPS['atan2'])
def _atan2_gradient(op, grad):
    y, x = _operands(op)
    scale = divide(grad, x * x + y * y)
    return [unbroadcast(scale * x, y), unbroadcast(negative(scale) * y, x)]


@defgradient(elementwise.FLOAT_BINARY_OPS['xlogy'])
def _xlogy_gradient(op, grad):
    x, y = _operands(op)
    nonzero = cast(not_equal(x, 0.0), x.dtype)  # TensorFlow's: 0 where x is 0, whatever y
    return [unbroadcast(grad * xlogy(nonzero, y), x), unbroadcast(grad * xdivy(x, y), y)]


@defgradient(elementwise.FLOAT_BINARY_OPS['xdivy'])
def _xdivy_gradient(op, grad):
    x, y = _operands(op)
    nonzero = cast(not_equal(x, 0.0), x.dtype)
    return [unbroadcast(grad * xdivy(nonzero, y), x),
            unbroadcast(grad * xdivy(negative(x), y * y), y)]


@defgradient(elementwise.FLOAT_BINARY_OPS['multiply_no_nan'])
def _mul_no_nan_gradient(op, grad):
    x, y = _operands(op)
    return [unbroadcast(multiply_no_nan(grad, y), x), unbroadcast(multiply_no_nan(x, grad), y)]


# ---- matmul ------------------------------------------------------------------------------------

def _matmul_gradients(op, grad, ta, tb):
    """TensorFlow's four cases of d(op(a) @ op(b)), op = transpose when the flag is set; None
    for an operand whose gradient is not needed."""
    a, b = op.inputs
    if not ta and not tb:
        ga, gb = ((grad, b), {'transpose_b': True}), ((a, grad), {'transpose_a': True})
    elif not ta and tb:
        ga, gb = ((grad, b), {}), ((grad, a), {'transpose_a': True})
    elif ta and not tb:
        ga, gb = ((b, grad), {'transpose_b': True}), ((a, grad), {})
    else:
        ga = ((b, grad), {'transpose_a': True, 'transpose_b': True})
        gb = ((grad, a), {'transpose_a': True, 'transpose_b': True})
    return [matmul(*args, **flags) if needs_gradient(op, i) else None
            for i, (args, flags) in enumerate((ga, gb))]


@defgradient(math_ops.MATMUL)
def _matmul_gradient(op, grad):
    return _matmul_gradients(op, grad, op.get_attr('transpose_a'), op.get_attr('transpose_b'))


@defgradient(math_ops.BATCH_MATMUL)
def _batch_matmul_gradient(op, grad):
    x, y = op.inputs
    gx, gy = _matmul_gradients(op, grad, op.get_attr('adj_x'), op.get_attr('adj_y'))
    return [None if gx is None else unbroadcast(gx, x), None if gy is None else unbroadcast(gy, y)]


# ---- reductions --------------------------------------------------------------------------------

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
    """A reduction's output (or its gradient) in keep_dims form, which broadcasts against x (a
    scalar already does: a reduction over every axis needs no reshape)."""
    if keep_dims or known_shape(grad) == ():
        return grad
    return apply(RESHAPE, [grad, _kept_shape(x, axis)])


def _broadcast_like(grad, x):
    known = known_shape(x)
    if known is not None and known == known_shape(grad):
        return grad
    return apply(BROADCAST_TO, [grad, static_or_dynamic_shape(x)])


@defgradient(reduce.OPS['reduce_sum'])
def _sum_gradient(op, grad):
    x, axis = op.inputs
    return [_broadcast_like(_kept(grad, x, axis, op.get_attr('keep_dims')), x), None]


def _mean_count(op, grad):
    """How many elements each output element of a Mean averages."""
    x, y = op.inputs[0], op.outputs[0]
    xs, ys = known_shape(x), known_shape(y)
    if xs is not None and ys is not None:
        return grad.dtype.np_dtype.type(pymath.prod(xs) // max(pymath.prod(ys), 1))
    return cast(size_(x), grad.dtype) / cast(size_(y), grad.dtype)


@defgradient(reduce.OPS['reduce_mean'])
def _mean_gradient(op, grad):
    return _sum_gradient(op, grad / _mean_count(op, grad))


@defgradient(reduce.OPS['reduce_max'], reduce.OPS['reduce_min'])
def _reduce_extremum_gradient(op, grad):
    """Split evenly among the elements equal to the extremum, as TensorFlow does."""
    x, axis = op.inputs
    keep = op.get_attr('keep_dims')
    chosen = cast(equal(x, _kept(op.outputs[0], x, axis, keep)), grad.dtype)
    count = reduce_sum(chosen, axis, keepdims=True)
    return [chosen * _kept(grad, x, axis, keep) / count, None]


@defgradient(reduce.OPS['reduce_prod'])
def _prod_gradient(op, grad):
    """TensorFlow's: each element gets the product of the other elements of its group, the
    exclusive cumulative products from both ends over the reduced axes moved to the front and
    flattened, so a zero element gives a finite gradient (y / x would be nan)."""
    x, axis = convert_to_tensor(op.inputs[0]), op.inputs[1]
    grad = _broadcast_like(_kept(grad, x, axis, op.get_attr('keep_dims')), x)
    axes, rank = constant_value(axis), x.shape.rank
    if axes is None or rank is None:  # the reduced axes known only when running
        return [grad * _kept(op.outputs[0], x, axis, True) / x, None]
    if rank == 0:
        return [grad, None]
    reduced = sorted({int(a) % rank for a in np.ravel(axes)})
    perm = reduced + [i for i in range(rank) if i not in reduced]
    moved = transpose(x, perm)
    full = shape_(x)
    sizes = [reduce_prod(gather(full, np.array(part, np.int32)))
             for part in (reduced, perm[len(reduced):])]
    flat = reshape(moved, stack(sizes))
    others = cumprod(flat, 0, exclusive=True) * cumprod(flat, 0, exclusive=True, reverse=True)
    return [grad * transpose(reshape(others, shape_(moved)), np.argsort(perm).tolist()), None]


not_differentiable(reduce.OPS['reduce_any'], reduce.OPS['reduce_all'], reduce.ARGMAX,
                   reduce.ARGMIN, reduce.BROADCAST_GRADIENT_ARGS)


@defgradient(stats.EUCLIDEAN_NORM)
def _euclidean_norm_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    norm = sqrt(reduce_sum(square(x), op.inputs[1], keepdims=True))
    return [div_no_nan(x * reshape(grad, shape_(norm)), norm), None]


# ---- scans, top_k, segments (runtime.ops.scan) -------------------------------------------------

@defgradient(scan.CUMSUM)
def _cumsum_gradient(op, grad):
    return [cumsum(grad, op.inputs[1], exclusive=op.get_attr('exclusive'),
                   reverse=not op.get_attr('reverse')), None]


@defgradient(scan.CUMPROD)
def _cumprod_gradient(op, grad):
    """TensorFlow's formula: cumsum of y * grad the other way, / x with 0 where x is 0 (no
    nan)."""
    x = convert_to_tensor(op.inputs[0])
    exclusive, reverse = op.get_attr('exclusive'), op.get_attr('reverse')
    back = cumsum(op.outputs[0] * grad, op.inputs[1], exclusive=exclusive, reverse=not reverse)
    return [div_no_nan(back, x), None]


@defgradient(scan.CUMULATIVE_LOGSUMEXP)
def _cumulative_logsumexp_gradient(op, grad):
    """Output i sums exp(x_j) over the j it covers, so x_j gets exp(x_j) times the sum of
    grad_i * exp(-y_i) over the outputs covering it: a cumsum the other way."""
    x = convert_to_tensor(op.inputs[0])
    back = cumsum(grad * exp(negative(op.outputs[0])), op.inputs[1],
                  exclusive=op.get_attr('exclusive'), reverse=not op.get_attr('reverse'))
    return [back * exp(x), None]


@defgradient(scan.TOP_K)
def _top_k_gradient(op, grad, indices_grad):
    """Each value's gradient goes back to the input position it came from: a one-hot of the
    indices over the last axis, weighted by `grad` and summed over the k picks."""
    x = convert_to_tensor(op.inputs[0])
    n = shape_(x)[-1]
    picked = equal(expand_dims(op.outputs[1], -1), range_(n))  # [..., k, n]
    return [reduce_sum(expand_dims(grad, -1) * cast(picked, grad.dtype), axis=-2), None]


defgradient(scan.SEGMENT_SUM)(lambda op, grad: [gather(grad, op.inputs[1]), None])
not_differentiable(scan.IN_TOP_K, scan.DENSE_BINCOUNT)


# ---- special functions: each the next one's derivative -----------------------------------------

defgradient(special.LGAMMA)(lambda op, grad: [grad * digamma(op.inputs[0])])
defgradient(special.DIGAMMA)(lambda op, grad: [grad * polygamma(1.0, op.inputs[0])])
defgradient(special.POLYGAMMA)(lambda op, grad: [
    None, unbroadcast(grad * polygamma(convert_to_tensor(op.inputs[0]) + 1.0, op.inputs[1]),
                      op.inputs[1])])
