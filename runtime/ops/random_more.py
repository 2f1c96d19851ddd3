"""More random ops of `rt.random`: gamma and Poisson numbers (stateful `RandomGamma`,
`RandomPoissonV2`; stateless `StatelessRandomGammaV3`, `StatelessRandomPoisson`), binomial
numbers (`StatelessRandomBinomial`), stateless categorical draws (`StatelessMultinomial`) and
truncated normal numbers with per-element bounds (`StatelessParameterizedTruncatedNormal`).

Seeds work as TensorFlow's: a stateful op takes (seed, seed2) from `get_seed` and continues its
Philox stream from call to call; a stateless op depends on its seed only. StatelessMultinomial
draws TensorFlow's numbers bit for bit (Multinomial's kernel from the seed's key and counter).
The other distributions are drawn from a numpy Philox generator keyed by the op's Philox key and
counter (gamma numbers by inverting the incomplete gamma function, the others by numpy's
samplers): the same seeds give the same numbers, of the right distribution, but not
TensorFlow's (its rejection samplers are not reproduced; docs/parity.md).
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.context import name_scope
from runtime.core.shapes import TensorShape
from runtime.ops import philox
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value
from runtime.ops.math import maximum
from runtime.ops.random import PhiloxStream, multinomial_bind, run_seeded
from runtime.ops.registry import register
from runtime.ops.shaping import broadcast_to, shape_from, shape_operand
from runtime.ops.stateless_random import FLOATS, INTEGERS, check_dtype, key_counter

_SEEDS = {'seed': 0, 'seed2': 0}


def numpy_generator(key, counter):
    """A numpy Generator whose Philox-4x64 stream is fixed by a Philox key (int64 [1]) and
    counter (int64 [2])."""
    k = np.asarray(key, np.int64).view(np.uint64).ravel()
    c = np.asarray(counter, np.int64).view(np.uint64).ravel()
    return np.random.Generator(np.random.Philox(
        key=np.array([k[0], 0x9E3779B97F4A7C15], np.uint64),
        counter=np.array([c[0], c[1], 0, 0], np.uint64)))


def _stream_generator(attrs, stream, n):
    if stream is None:  # a node imported from a GraphDef: its seed attrs give it one
        stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))
    return numpy_generator(*stream.reserve(max(n, 1)))


def _seed_generator(seed):
    if np.shape(seed) != (2,):
        raise errors.InvalidArgumentError(
            message=f'seed must have shape [2], not {list(np.shape(seed))}')
    return numpy_generator(*philox.key_counter_of(seed))


def _gamma(rng, alpha, dims, np_dtype):
    """Gamma(alpha, 1) numbers of shape `dims` by inversion, P^-1(alpha, u) of uniform u, so
    that a number moves smoothly with alpha at a fixed seed, at the rate the implicit gradient
    (RandomGammaGrad) gives; nan where alpha <= 0 (TensorFlow's)."""
    from runtime.ops.special_more import (  # deferred: start-up cost of the special functions
        igammainv64,
    )
    alpha = np.broadcast_to(np.asarray(alpha, np.float64), dims)
    with np.errstate(all='ignore'):
        out = igammainv64(alpha, rng.uniform(size=dims))
    tiny = np.finfo(np_dtype).tiny
    return np.where(alpha > 0, np.maximum(out, tiny), np.nan).astype(np_dtype)


def _gamma_bind(attrs, stream):
    def kernel(shape, alpha):
        dims, n = philox.sizes(shape)
        alpha = np.asarray(alpha)
        rng = _stream_generator(attrs, stream, n * max(alpha.size, 1))
        return _gamma(rng, alpha, tuple(dims) + alpha.shape, alpha.dtype)
    return kernel


def _poisson(rng, lam, dims, np_dtype):
    lam = np.broadcast_to(np.asarray(lam, np.float64), dims)
    if np.any(lam < 0) or not np.all(np.isfinite(lam)):
        return np.where(lam >= 0, 0, np.nan).astype(np.float64).astype(np_dtype)
    return rng.poisson(lam, size=dims).astype(np_dtype)


def _poisson_bind(attrs, stream):
    out_type = attrs.get('dtype', dtypes.int64).np_dtype

    def kernel(shape, rate):
        dims, n = philox.sizes(shape)
        rate = np.asarray(rate)
        rng = _stream_generator(attrs, stream, n * max(rate.size, 1))
        return _poisson(rng, rate, tuple(dims) + rate.shape, out_type)
    return kernel


def _appended_infer(dtype_of):
    def infer(inputs, attrs):
        head, tail = shape_from(inputs[0]), inputs[1].shape
        if head.rank is None or tail.rank is None:
            return [(dtype_of(inputs, attrs), TensorShape(None))]
        return [(dtype_of(inputs, attrs), TensorShape(head.as_list() + tail.as_list()))]
    return infer


RANDOM_GAMMA = register('RandomGamma', None, _appended_infer(lambda i, a: i[1].dtype),
                        inputs=('shape', 'alpha'), outputs=('output',),
                        type_attrs=(('S', 0), ('T', 1)), defaults=_SEEDS, stateful=True,
                        liftable=True, bind_kernel=_gamma_bind)
RANDOM_POISSON = register('RandomPoissonV2', None,
                          _appended_infer(lambda i, a: a.get('dtype', dtypes.int64)),
                          inputs=('shape', 'rate'), outputs=('output',),
                          type_attrs=(('S', 0), ('R', 1)),
                          defaults={**_SEEDS, 'dtype': dtypes.int64}, stateful=True,
                          liftable=True, bind_kernel=_poisson_bind)


def _gamma_grad_kernel(alpha, sample):
    """d sample / d alpha of Gamma(alpha, 1) numbers by implicit differentiation (TensorFlow's
    RandomGammaGrad): -(dP(alpha, x)/d alpha) / (dP(alpha, x)/dx), P the regularized lower
    incomplete gamma function."""
    from runtime.ops.special_more import (  # deferred: start-up cost of the special functions
        igamma_grad_a64,
        lgamma64,
    )
    a, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(sample, np.float64))
    with np.errstate(all='ignore'):
        density = np.exp(-x + (a - 1) * np.log(x) - lgamma64(a))
        out = -igamma_grad_a64(a, x) / density
    return out.astype(np.asarray(sample).dtype)


RANDOM_GAMMA_GRAD = register(
    'RandomGammaGrad', _gamma_grad_kernel,
    lambda inputs, attrs: [(inputs[1].dtype, inputs[1].shape)],
    inputs=('alpha', 'sample'), outputs=('output',),
    dtypes=frozenset((dtypes.float32, dtypes.float64)))


# ---- stateless ----------------------------------------------------------------------------------

def _stateless_gamma_kernel(shape, key, counter, alg, alpha):
    dims, _ = philox.sizes(shape)
    alpha = np.asarray(alpha)
    return _gamma(numpy_generator(key, counter), alpha, tuple(dims), alpha.dtype)


def _stateless_poisson_kernel(shape, seed, lam, dtype=dtypes.int64):
    dims, _ = philox.sizes(shape)
    return _poisson(_seed_generator(seed), lam, tuple(dims), dtype.np_dtype)


def _stateless_binomial_kernel(shape, seed, counts, probs, dtype=dtypes.int64):
    dims, _ = philox.sizes(shape)
    counts = np.broadcast_to(np.asarray(counts, np.float64), dims)
    probs = np.broadcast_to(np.asarray(probs, np.float64), dims)
    rng = _seed_generator(seed)
    bad = (counts < 0) | (probs < 0) | (probs > 1) | ~np.isfinite(probs)
    draws = rng.binomial(np.where(bad, 0, counts).astype(np.int64),
                         np.where(bad, 0.5, probs), size=dims)
    return np.where(bad, np.nan, draws).astype(dtype.np_dtype)


def _stateless_multinomial_kernel(logits, num_samples, seed, output_dtype=dtypes.int64):
    if np.shape(seed) != (2,):
        raise errors.InvalidArgumentError(
            message=f'seed must have shape [2], not {list(np.shape(seed))}')
    key, counter = philox.key_counter_of(seed)
    stream = PhiloxStream(key, counter)
    return multinomial_bind({'output_dtype': output_dtype}, stream)(logits, num_samples)


def _truncated_normal_kernel(shape, seed, means, stddevs, minvals, maxvals):
    """Normal numbers of mean `means` and deviation `stddevs` within [minvals, maxvals]: the
    standard normal quantile of a uniform number between the bounds' probabilities, refined
    in the tails (where the quantile of probabilities near 0 or 1 loses accuracy) by drawing
    again the few that fall out of range."""
    from runtime.ops.special_more import (  # deferred: start-up cost of the special functions
        erfc64,
        ndtri64,
    )
    dims, _ = philox.sizes(shape)
    np_dtype = np.asarray(means).dtype
    mean, std, lo, hi = (np.broadcast_to(np.asarray(v, np.float64), dims)
                         for v in (means, stddevs, minvals, maxvals))
    if np.any(std <= 0) or np.any(lo >= hi):
        raise errors.InvalidArgumentError(
            message='Invalid parameters: stddevs must be > 0 and minvals < maxvals.')
    a, b = (lo - mean) / std, (hi - mean) / std
    flip = a > 0  # sample the side nearer 0 where the probabilities are accurate
    a, b = np.where(flip, -b, a), np.where(flip, -a, b)
    pa, pb = 0.5 * erfc64(-a / np.sqrt(2)), 0.5 * erfc64(-b / np.sqrt(2))
    u = _seed_generator(seed).uniform(size=dims)
    z = np.clip(ndtri64(pa + u * (pb - pa)), a, b)
    z = np.where(flip, -z, z)
    return (mean + std * z).astype(np_dtype)


def _shape_infer(dtype_of):
    return lambda inputs, attrs: [(dtype_of(inputs, attrs), shape_from(inputs[0]))]


STATELESS_GAMMA = register(
    'StatelessRandomGammaV3', _stateless_gamma_kernel, _shape_infer(lambda i, a: i[4].dtype),
    inputs=('shape', 'key', 'counter', 'alg', 'alpha'), outputs=('output',),
    type_attrs=(('shape_dtype', 0), ('dtype', 4)))
STATELESS_POISSON = register(
    'StatelessRandomPoisson', _stateless_poisson_kernel, _shape_infer(lambda i, a: a['dtype']),
    inputs=('shape', 'seed', 'lam'), outputs=('output',),
    type_attrs=(('T', 0), ('Tseed', 1), ('Rtype', 2)))
STATELESS_BINOMIAL = register(
    'StatelessRandomBinomial', _stateless_binomial_kernel,
    _shape_infer(lambda i, a: a.get('dtype', dtypes.int64)),
    inputs=('shape', 'seed', 'counts', 'probs'), outputs=('output',),
    type_attrs=(('S', 0), ('Tseed', 1), ('T', 2)), defaults={'dtype': dtypes.int64})
STATELESS_MULTINOMIAL = register(
    'StatelessMultinomial', _stateless_multinomial_kernel,
    lambda inputs, attrs: [(attrs.get('output_dtype', dtypes.int64), TensorShape(
        [inputs[0].shape[0] if inputs[0].shape.rank else None, _known(inputs[1])]))],
    inputs=('logits', 'num_samples', 'seed'), outputs=('output',),
    type_attrs=(('T', 0), ('Tseed', 2)), defaults={'output_dtype': dtypes.int64})
STATELESS_PARAMETERIZED_TRUNCATED_NORMAL = register(
    'StatelessParameterizedTruncatedNormal', _truncated_normal_kernel,
    _shape_infer(lambda i, a: i[2].dtype),
    inputs=('shape', 'seed', 'means', 'stddevs', 'minvals', 'maxvals'), outputs=('output',),
    type_attrs=(('S', 0), ('Tseed', 1), ('dtype', 2)))


def _known(t):
    value = constant_value(t)
    return None if value is None else int(value)


# ---- the public functions ---------------------------------------------------------------------

def _tiny(dtype):
    return np.asarray(np.finfo(dtype.np_dtype).tiny, dtype.np_dtype)


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Gamma(alpha, beta) numbers of shape `shape + broadcast(alpha, beta).shape` (op
    `RandomGamma`; `beta` is the inverse scale)."""
    dtype = check_dtype(dtype, FLOATS, 'gamma')
    with name_scope(name or 'random_gamma'):
        alpha = convert_to_tensor(alpha, dtype)
        beta = convert_to_tensor(1 if beta is None else beta, dtype)
        alpha_broadcast = alpha + beta * 0
        out = run_seeded(RANDOM_GAMMA, [shape_operand(shape), alpha_broadcast], {}, seed, None)
        return maximum(_tiny(dtype), out / beta)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Poisson(lam) numbers of shape `shape + lam.shape` (op `RandomPoissonV2`)."""
    dtype = check_dtype(dtype, FLOATS + INTEGERS, 'poisson')
    lam = convert_to_tensor(lam)
    return run_seeded(RANDOM_POISSON, [shape_operand(shape), lam], {'dtype': dtype}, seed,
                      name)


def _seed(seed):
    seed = convert_to_tensor(seed)
    if seed.dtype not in INTEGERS:
        raise TypeError(f'seed must be int32 or int64, got {seed.dtype.name}.')
    return seed


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, beta) numbers of shape `shape` fixed by `seed` (op
    `StatelessRandomGammaV3`; alpha and beta broadcast to `shape`)."""
    dtype = check_dtype(dtype, FLOATS, 'stateless_gamma')
    with name_scope(name or 'stateless_random_gamma'):
        shape = shape_operand(shape)
        alpha = convert_to_tensor(alpha, dtype)
        beta = convert_to_tensor(1 if beta is None else beta, dtype)
        alpha = broadcast_to(alpha + beta * 0, shape)
        key, counter, alg = key_counter(seed, 'auto_select')
        out = apply(STATELESS_GAMMA, [shape, key, counter, alg, alpha])
        return maximum(_tiny(dtype), out / beta)


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson(lam) numbers of shape `shape` fixed by `seed` (op `StatelessRandomPoisson`)."""
    dtype = check_dtype(dtype, FLOATS + INTEGERS, 'stateless_poisson')
    lam = convert_to_tensor(lam)
    if not lam.dtype.is_floating and lam.dtype not in INTEGERS:
        raise TypeError(f'lam must be a number tensor, got {lam.dtype.name}.')
    return apply(STATELESS_POISSON, [shape_operand(shape), _seed(seed), lam],
                 {'dtype': dtype}, name=name or 'stateless_random_poisson')


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) numbers of shape `shape` fixed by `seed` (op
    `StatelessRandomBinomial`; counts and probs broadcast to `shape`)."""
    output_dtype = check_dtype(output_dtype, FLOATS + INTEGERS, 'stateless_binomial')
    with name_scope(name or 'stateless_random_binomial'):
        probs = convert_to_tensor(probs)
        if not probs.dtype.is_floating:
            probs = convert_to_tensor(probs, dtypes.float32)
        counts = convert_to_tensor(counts, probs.dtype)
        return apply(STATELESS_BINOMIAL, [shape_operand(shape), _seed(seed), counts, probs],
                     {'dtype': output_dtype})


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """`num_samples` class indices per row of `logits`, drawn with probabilities
    softmax(logits) and fixed by `seed`: TensorFlow's numbers (op `StatelessMultinomial`)."""
    logits = convert_to_tensor(logits)
    if not logits.dtype.is_floating:
        raise TypeError(f'logits must be floating, got {logits.dtype.name}.')
    if logits.shape.rank not in (2, None):
        raise ValueError(f'logits should be a matrix [batch, classes], got shape '
                         f'{logits.shape}.')
    num = num_samples if hasattr(num_samples, 'dtype') else np.int32(num_samples)
    return apply(STATELESS_MULTINOMIAL, [logits, num, _seed(seed)],
                 {'output_dtype': dtypes.as_dtype(dtype)},
                 name=name or 'stateless_categorical')


def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None):
    """Normal numbers of mean `means` and deviation `stddevs` in [minvals, maxvals] (each
    broadcast to `shape`), fixed by `seed` (op `StatelessParameterizedTruncatedNormal`)."""
    with name_scope(name or 'stateless_parameterized_truncated_normal'):
        means = convert_to_tensor(means)
        if not means.dtype.is_floating:
            means = convert_to_tensor(means, dtypes.float32)
        dtype = means.dtype
        stddevs, minvals, maxvals = (convert_to_tensor(v, dtype)
                                     for v in (stddevs, minvals, maxvals))
        return apply(STATELESS_PARAMETERIZED_TRUNCATED_NORMAL,
                     [shape_operand(shape), _seed(seed), means, stddevs, minvals, maxvals])
