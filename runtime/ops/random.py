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


# ---- stateless random numbers: the same (shape, seed) always gives the same numbers ---------
# A seed becomes a (key, counter) pair for a Philox generator; rt.random.Generator keeps such a
# pair in a Variable. (TensorFlow types key and counter uint64; here they are int64.)

ALG_PHILOX = 1


def key_counter_of(seed):
    """The Philox (key [1], counter [2]) pair, int64, for a seed of two ints."""
    words = [int(s) & 0xFFFFFFFF for s in np.ravel(seed)]
    key = np.random.SeedSequence(words).generate_state(1, np.uint64).view(np.int64)
    return key, np.zeros(2, np.int64)


def philox(key, counter):
    """The numpy Generator for a (key [1], counter [2]) pair, as int64 values."""
    bits = np.random.Philox(counter=np.concatenate([np.asarray(counter, np.int64),
                                                    np.zeros(2, np.int64)]).view(np.uint64),
                            key=np.concatenate([np.asarray(key, np.int64),
                                                np.zeros(1, np.int64)]).view(np.uint64))
    return np.random.Generator(bits)


def _stateless_uniform(shape, key, counter, alg, dtype=dtypes.float32):
    return philox(key, counter).random(tuple(shape)).astype(dtype.np_dtype)


def _stateless_normal(shape, key, counter, alg, dtype=dtypes.float32):
    return philox(key, counter).standard_normal(tuple(shape)).astype(dtype.np_dtype)


def _stateless_uniform_int(shape, key, counter, alg, minval, maxval):
    if not maxval > minval:
        raise ValueError(f'Need minval < maxval, got {minval} >= {maxval}')
    return philox(key, counter).integers(minval, maxval, size=tuple(shape)).astype(
        np.asarray(minval).dtype)


def _stateless_infer(inputs, attrs):
    return [(attrs.get('dtype', dtypes.float32), shape_from(inputs[0]))]


def _rng_read_and_skip(resource, alg, delta):
    """The generator state before, then its counter moved on by `delta`."""
    state = np.array(resource.value, copy=True)
    new = state.copy()
    new[0] = np.int64((int(state[0]) + int(delta)) & 0x7FFFFFFFFFFFFFFF)
    resource.value = new
    return state


_STATELESS = dict(inputs=('shape', 'key', 'counter', 'alg'), outputs=('output',),
                  type_attrs=(('Tshape', 0),))
GET_KEY_COUNTER = register(
    'StatelessRandomGetKeyCounter', key_counter_of,
    lambda inputs, attrs: [(dtypes.int64, TensorShape([1])), (dtypes.int64, TensorShape([2]))],
    inputs=('seed',), outputs=('key', 'counter'), type_attrs=(('Tseed', 0),))
STATELESS_UNIFORM = register('StatelessRandomUniformV2', _stateless_uniform, _stateless_infer,
                             defaults={'dtype': dtypes.float32}, **_STATELESS)
STATELESS_NORMAL = register('StatelessRandomNormalV2', _stateless_normal, _stateless_infer,
                            defaults={'dtype': dtypes.float32}, **_STATELESS)
STATELESS_UNIFORM_INT = register(
    'StatelessRandomUniformIntV2', _stateless_uniform_int,
    lambda inputs, attrs: [(inputs[4].dtype, shape_from(inputs[0]))],
    inputs=('shape', 'key', 'counter', 'alg', 'minval', 'maxval'), outputs=('output',),
    type_attrs=(('dtype', 4), ('Tshape', 0)))
RNG_READ_AND_SKIP = register(
    'RngReadAndSkip', _rng_read_and_skip,
    lambda inputs, attrs: [(dtypes.int64, TensorShape([3]))],
    inputs=('resource', 'alg', 'delta'), outputs=('value',), type_attrs=(), stateful=True)


def _scaled(unit, minval, maxval):
    maxval = 1 if maxval is None else maxval
    if _is_number(minval, 0) and _is_number(maxval, 1):
        return unit
    return unit * (maxval - minval) + minval


def uniform_from_key(shape, key, counter, minval=0, maxval=None, dtype=dtypes.float32,
                     name=None):
    """Uniform numbers from a Philox (key, counter) pair (StatelessRandomUniformV2, or
    StatelessRandomUniformIntV2 for integer dtypes, which need `maxval`)."""
    dtype = dtypes.as_dtype(dtype)
    shape = shape_operand(shape)
    alg = np.int32(ALG_PHILOX)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f'A uniform {dtype.name} tensor needs `maxval`.')
        (lo, hi), _ = unify_operands('StatelessRandomUniformIntV2', *_as(dtype, minval, maxval))
        return apply(STATELESS_UNIFORM_INT, [shape, key, counter, alg, lo, hi], name=name)
    if not dtype.is_floating:
        raise ValueError(f'Uniform numbers need a floating or integer dtype, got {dtype.name}.')
    attrs = {} if dtype is dtypes.float32 else {'dtype': dtype}
    return _scaled(apply(STATELESS_UNIFORM, [shape, key, counter, alg], attrs, name=name),
                   minval, maxval)


def normal_from_key(shape, key, counter, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
    """Normal numbers from a Philox (key, counter) pair (StatelessRandomNormalV2)."""
    dtype = dtypes.as_dtype(dtype)
    attrs = {} if dtype is dtypes.float32 else {'dtype': dtype}
    return _shifted(apply(STATELESS_NORMAL, [shape_operand(shape), key, counter,
                          np.int32(ALG_PHILOX)], attrs, name=name), mean, stddev)


def _seed_operand(seed):
    seed = convert_to_tensor(seed) if not hasattr(seed, 'dtype') else seed
    if seed.dtype not in (dtypes.int32, dtypes.int64) or seed.shape.as_list() != [2]:
        raise ValueError(f'seed must be an int32 or int64 tensor of shape [2], got '
                         f'{seed.dtype.name} of shape {seed.shape}.')
    return seed


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg='auto_select'):
    """Uniform numbers fixed by `seed` (two ints): the same arguments always give the same
    numbers (StatelessRandomGetKeyCounter, then StatelessRandomUniformV2)."""
    key, counter = apply(GET_KEY_COUNTER, [_seed_operand(seed)])
    return uniform_from_key(shape, key, counter, minval, maxval, dtype, name)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg='auto_select'):
    """Normal numbers fixed by `seed` (two ints) (StatelessRandomNormalV2)."""
    key, counter = apply(GET_KEY_COUNTER, [_seed_operand(seed)])
    return normal_from_key(shape, key, counter, mean, stddev, dtype, name)
