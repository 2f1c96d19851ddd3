"""The gradients of the special functions of runtime/ops/special_more.py, the segment products
of runtime/ops/segment_prod.py (TensorFlow's math_grad.py rules) and the random ops of
runtime/ops/random_more.py (gamma numbers differentiate in alpha, as TensorFlow's)."""
import math as pymath

from runtime.gradients.rules.common import defgradient, not_differentiable, unbroadcast
from runtime.ops import candidate_sampling, random_more, segment_prod, special_more
from runtime.ops.array import cast
from runtime.ops.compare import equal, greater, where
from runtime.ops.composite_math import xlog1py
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import ones, ones_like, zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.elementwise import xlogy
from runtime.ops.math import exp, log, maximum, sign, square
from runtime.ops.reduce import reduce_sum
from runtime.ops.registry import UNREGISTERED_GRADIENT
from runtime.ops.scan import segment_sum
from runtime.ops.shaping import concat, expand_dims, reshape
from runtime.ops.shaping import shape as shape_
from runtime.ops.slicing import gather, unsorted_segment_sum
from runtime.ops.special import lgamma
from runtime.ops.special_more import (
    bessel_i0e,
    bessel_i1,
    bessel_i1e,
    igamma_grad_a,
    zeta,
)


def _const(value, like):
    return convert_to_tensor(value, like.dtype)


@defgradient(special_more.ERFINV)
def _erfinv_gradient(op, grad):
    y = op.outputs[0]
    return [grad * _const(pymath.sqrt(pymath.pi) / 2, y) * exp(square(y))]


@defgradient(special_more.NDTRI)
def _ndtri_gradient(op, grad):
    y = op.outputs[0]
    return [grad * _const(pymath.sqrt(2 * pymath.pi), y) * exp(square(y) / 2)]


@defgradient(special_more.BESSEL_I0)
def _bessel_i0_gradient(op, grad):
    return [grad * bessel_i1(op.inputs[0])]


@defgradient(special_more.BESSEL_I0E)
def _bessel_i0e_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    return [grad * (bessel_i1e(x) - sign(x) * op.outputs[0])]


@defgradient(special_more.BESSEL_I1)
def _bessel_i1_gradient(op, grad):
    """I1'(x) = I0(x) - I1(x) / x; at 0, 1 as TensorFlow's rule has it (the limit is 1/2)."""
    x, y = convert_to_tensor(op.inputs[0]), op.outputs[0]
    zero = equal(x, zeros_like(x))
    safe_x = where(zero, ones_like(x), x)
    i0 = bessel_i0e(x) * exp(x * sign(x))
    return [grad * where(zero, ones_like(x), i0 - y / safe_x)]


@defgradient(special_more.BESSEL_I1E)
def _bessel_i1e_gradient(op, grad):
    """I1e'(x) = I0e(x) - I1e(x) (sign(x) + 1 / x), and 1/2 at 0."""
    x, y = convert_to_tensor(op.inputs[0]), op.outputs[0]
    zero = equal(x, zeros_like(x))
    safe_x = where(zero, ones_like(x), x)
    slope = bessel_i0e(x) - y * (sign(x) + 1 / safe_x)
    return [grad * where(zero, _const(0.5, x) * ones_like(x), slope)]


def _igamma_partial_x(a, x):
    """d igamma(a, x) / dx = exp(-x + (a - 1) log x - lgamma(a))."""
    return exp(-x + (a - 1) * log(x) - lgamma(a))


@defgradient(special_more.IGAMMA)
def _igamma_gradient(op, grad):
    a, x = (convert_to_tensor(t) for t in op.inputs)
    return [unbroadcast(grad * igamma_grad_a(a, x), a),
            unbroadcast(grad * _igamma_partial_x(a, x), x)]


@defgradient(special_more.IGAMMAC)
def _igammac_gradient(op, grad):
    a, x = (convert_to_tensor(t) for t in op.inputs)
    return [unbroadcast(-grad * igamma_grad_a(a, x), a),
            unbroadcast(-grad * _igamma_partial_x(a, x), x)]


@defgradient(special_more.BETAINC)
def _betainc_gradient(op, grad):
    """TensorFlow differentiates betainc in x only: x^(a-1) (1-x)^(b-1) / B(a, b)."""
    a, b, x = (convert_to_tensor(t) for t in op.inputs)
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    partial_x = exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log_beta)
    return [None, None, unbroadcast(grad * partial_x, x)]


@defgradient(special_more.ZETA)
def _zeta_gradient(op, grad):
    """TensorFlow differentiates zeta(x, q) in q only: -x zeta(x + 1, q)."""
    x, q = (convert_to_tensor(t) for t in op.inputs)
    return [None, unbroadcast(grad * -x * zeta(x + 1, q), q)]


defgradient(special_more.IGAMMA_GRAD_A, random_more.RANDOM_GAMMA_GRAD)(UNREGISTERED_GRADIENT)


def _segment_prod_gradient(op, grad, segment_sum_, segment_prod_, extra):
    """TensorFlow's rule: the product over the element where a segment has no zero, the product
    of the others at a segment's one zero, and 0 in segments with two zeros or more."""
    data = convert_to_tensor(op.inputs[0])
    ids = convert_to_tensor(op.inputs[1])
    is_zero = equal(data, zeros_like(data))
    num_zeros = segment_sum_(cast(is_zero, 'int32'), ids, *extra)
    grad = where(greater(num_zeros, ones_like(num_zeros)), zeros_like(grad), grad)
    non_zero_data = where(is_zero, ones_like(data), data)
    non_zero_prod = segment_prod_(non_zero_data, ids, *extra)
    clipped = maximum(ids, zeros_like(ids))
    partial = where(is_zero, gather(non_zero_prod, clipped),
                    gather(op.outputs[0], clipped) / non_zero_data)
    gathered = gather(grad, clipped)
    if extra:  # rows whose id is negative were dropped: no gradient
        keep = greater(ids + 1, zeros_like(ids))
        gathered = where(_expand_like(keep, gathered), gathered, zeros_like(gathered))
    return gathered * partial


def _expand_like(mask, like):
    """`mask` with trailing unit axes up to `like`'s rank (where() broadcasts it)."""
    for _ in range(like.shape.rank - mask.shape.rank):
        mask = expand_dims(mask, -1)
    return mask


@defgradient(segment_prod.SEGMENT_PROD)
def _segment_prod_rule(op, grad):
    return [_segment_prod_gradient(op, grad, segment_sum, segment_prod.segment_prod, ()), None]


@defgradient(segment_prod.UNSORTED_SEGMENT_PROD)
def _unsorted_segment_prod_rule(op, grad):
    extra = (op.inputs[2],)
    return [_segment_prod_gradient(op, grad, unsorted_segment_sum,
                                   segment_prod.unsorted_segment_prod, extra), None, None]



# ---- gamma numbers: implicit reparameterization (TensorFlow's random_grad.py) ----------------

def _gamma_partial(alpha, sample):
    return apply(random_more.RANDOM_GAMMA_GRAD, [alpha, sample])


@defgradient(random_more.RANDOM_GAMMA)
def _random_gamma_gradient(op, grad):
    """The sample's derivative in alpha, summed over the sample dims the shape operand adds."""
    alpha = convert_to_tensor(op.inputs[1])
    sample = op.outputs[0]
    extra = sample.shape.rank - alpha.shape.rank
    alpha_broadcast = reshape(alpha, concat([ones([extra], 'int32'), shape_(alpha)], 0))
    partial = _gamma_partial(alpha_broadcast + zeros_like(sample), sample)
    return [None, reduce_sum(grad * partial, axis=list(range(extra)))]


@defgradient(random_more.STATELESS_GAMMA)
def _stateless_gamma_gradient(op, grad):
    return [None, None, None, None, grad * _gamma_partial(op.inputs[4], op.outputs[0])]


not_differentiable(random_more.RANDOM_POISSON,
                   random_more.STATELESS_POISSON, random_more.STATELESS_BINOMIAL,
                   random_more.STATELESS_MULTINOMIAL,
                   random_more.STATELESS_PARAMETERIZED_TRUNCATED_NORMAL)
not_differentiable(candidate_sampling.UNIFORM_CANDIDATE_SAMPLER,
                   candidate_sampling.LOG_UNIFORM_CANDIDATE_SAMPLER,
                   candidate_sampling.LEARNED_UNIGRAM_CANDIDATE_SAMPLER,
                   candidate_sampling.FIXED_UNIGRAM_CANDIDATE_SAMPLER,
                   candidate_sampling.ALL_CANDIDATE_SAMPLER)
