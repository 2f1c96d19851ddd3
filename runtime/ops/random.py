"""Random ops. They are stateful: in a graph every run draws new numbers.

`rt.random.set_seed(n)` makes sequences reproducible: it resets the global generator and
the generators of ops created with an op-level `seed`.
"""
import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor, unify_operands
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value
from runtime.ops.registry import register
from runtime.ops.shaping import shape_from, shape_operand

_global = {'seed': None, 'generator': np.random.default_rng()}


def set_seed(seed):
    _global['seed'] = seed
    _global['generator'] = np.random.default_rng(seed)


def _generator(seed):
    if seed is None:
        return _global['generator']
    return np.random.default_rng([_global['seed'] or 0, seed])


def _uniform(shape, dtype, generator):
    return generator.random(tuple(shape), dtype=np.float64).astype(dtype.np_dtype)


def _uniform_int(shape, minval, maxval, generator):
    return generator.integers(minval, maxval, size=tuple(shape)).astype(np.asarray(minval).dtype)


def _normal(shape, dtype, generator):
    return generator.standard_normal(tuple(shape)).astype(dtype.np_dtype)


def _random_infer(inputs, attrs):
    return [(attrs['dtype'], shape_from(inputs[0]))]


def _int_infer(inputs, attrs):
    return [(inputs[1].dtype, shape_from(inputs[0]))]


def _kernel_with_generator(kernel):
    """A bind_kernel: the op's generator travels in its payload."""
    def bind_kernel(attrs, generator):
        if generator is None:  # a node imported from a GraphDef: the seed attr gives it one
            generator = _generator(attrs.get('seed2') or None)
        if 'dtype' in attrs:
            return lambda shape: kernel(shape, attrs['dtype'], generator)
        return lambda shape, minval, maxval: kernel(shape, minval, maxval, generator)
    return bind_kernel


UNIFORM = register('RandomUniform', None, _random_infer, inputs=('shape',), outputs=('output',),
                   type_attrs=(('T', 0),), defaults={'seed': 0, 'seed2': 0}, stateful=True,
                   bind_kernel=_kernel_with_generator(_uniform))
UNIFORM_INT = register('RandomUniformInt', None, _int_infer,
                       inputs=('shape', 'minval', 'maxval'), outputs=('output',),
                       type_attrs=(('T', 0), ('Tout', 1)), defaults={'seed': 0, 'seed2': 0},
                       stateful=True, bind_kernel=_kernel_with_generator(_uniform_int))
NORMAL = register('RandomStandardNormal', None, _random_infer, inputs=('shape',),
                  outputs=('output',), type_attrs=(('T', 0),), defaults={'seed': 0, 'seed2': 0},
                  stateful=True, bind_kernel=_kernel_with_generator(_normal))


def _run(opdef, inputs, attrs, seed, name):
    if seed is not None:
        attrs['seed2'] = int(seed)
    return apply(opdef, inputs, attrs, name, payload=_generator(seed))


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform numbers in [minval, maxval); integer dtypes need `maxval`."""
    dtype = dtypes.as_dtype(dtype)
    shape = shape_operand(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError('rt.random.uniform with an integer dtype needs `maxval`.')
        (lo, hi), _ = unify_operands('RandomUniformInt', *_as(dtype, minval, maxval))
        return _run(UNIFORM_INT, [shape, lo, hi], {}, seed, name)
    return _scaled(_run(UNIFORM, [shape], {'dtype': dtype}, seed, name), minval, maxval)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    return _shifted(_run(NORMAL, [shape_operand(shape)], {'dtype': dtype}, seed, name), mean,
                    stddev)


def _is_number(value, number):
    return isinstance(value, (int, float)) and value == number


def _shifted(standard, mean, stddev):
    """Standard normal numbers as `standard * stddev + mean` (no op for 1 and 0)."""
    if not _is_number(stddev, 1):
        standard = standard * stddev
    if not _is_number(mean, 0):
        standard = standard + mean
    return standard


def _scaled(unit, minval, maxval):
    maxval = 1 if maxval is None else maxval
    if _is_number(minval, 0) and _is_number(maxval, 1):
        return unit
    return unit * (maxval - minval) + minval


def _as(dtype, *values):
    return [dtype.np_dtype.type(v) if isinstance(v, (int, float)) else v for v in values]


# ---- more stateful random ops: TruncatedNormal, RandomShuffle, Multinomial -----------------

def _truncated_normal(shape, dtype, generator):
    """Standard normal numbers more than 2 standard deviations out are drawn again."""
    out = generator.standard_normal(tuple(shape))
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = generator.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out.astype(dtype.np_dtype)


def _shuffle_bind(attrs, generator):
    return lambda value: generator.permutation(value) if np.ndim(value) else value


def _multinomial_bind(attrs, generator):
    out_type = attrs.get('output_dtype', dtypes.int64).np_dtype

    def kernel(logits, num_samples):
        logits = np.asarray(logits, np.float64)
        if logits.ndim != 2:
            raise ValueError(f'logits should be a matrix, got shape {list(logits.shape)}')
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        return np.stack([generator.choice(len(row), int(num_samples), p=row) for row in p]
                        ).astype(out_type).reshape(len(p), int(num_samples))
    return kernel


_SEEDS = {'seed': 0, 'seed2': 0}
TRUNCATED_NORMAL = register('TruncatedNormal', None, _random_infer, inputs=('shape',),
                            outputs=('output',), type_attrs=(('T', 0),), defaults=_SEEDS,
                            stateful=True, bind_kernel=_kernel_with_generator(_truncated_normal))
SHUFFLE = register('RandomShuffle', None, lambda inputs, attrs: [(inputs[0].dtype,
                                                                   inputs[0].shape)],
                   inputs=('value',), outputs=('output',), defaults=_SEEDS, stateful=True,
                   bind_kernel=_shuffle_bind)
MULTINOMIAL = register(
    'Multinomial', None,
    lambda inputs, attrs: [(attrs.get('output_dtype', dtypes.int64), TensorShape(
        [inputs[0].shape[0] if inputs[0].shape.rank else None, _known(inputs[1])]))],
    inputs=('logits', 'num_samples'), outputs=('output',), type_attrs=(('T', 0),),
    defaults={**_SEEDS, 'output_dtype': dtypes.int64}, stateful=True,
    bind_kernel=_multinomial_bind)


def _known(t):
    value = constant_value(t)
    return None if value is None else int(value)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal numbers, those more than 2 stddevs from the mean drawn again (op
    `TruncatedNormal`)."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f'rt.random.truncated_normal needs a floating dtype, got {dtype.name}.')
    return _shifted(_run(TRUNCATED_NORMAL, [shape_operand(shape)], {'dtype': dtype}, seed, name),
                    mean, stddev)


def shuffle(value, seed=None, name=None):
    """`value` with its slices along the first axis in random order (op `RandomShuffle`)."""
    return _run(SHUFFLE, [convert_to_tensor(value)], {}, seed, name)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class indices per row of `logits` [batch, classes], drawn with the
    probabilities softmax(logits) (op `Multinomial`; int64 unless `dtype`)."""
    logits = convert_to_tensor(logits)
    if not logits.dtype.is_floating:
        raise TypeError(f'rt.random.categorical needs floating logits, got {logits.dtype.name}.')
    if logits.shape.rank not in (2, None):
        raise ValueError(f'logits should be a matrix [batch, classes], got shape {logits.shape}.')
    attrs = {} if dtype is None else {'output_dtype': dtypes.as_dtype(dtype)}
    num = num_samples if hasattr(num_samples, 'dtype') else np.int32(num_samples)
    return _run(MULTINOMIAL, [logits, num], attrs, seed, name)
