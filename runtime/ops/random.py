"""Random ops seeded as TensorFlow seeds them. They are stateful: each run draws new numbers.

`rt.random.set_seed(n)` and op-level `seed=` give TensorFlow's op seeds (`get_seed`): with a
global seed, an op without its own seed takes the next number of a Python `random.Random(n)`
eagerly, as TensorFlow's eager context does, and its graph's count of such ops in a graph.
RandomUniform, RandomUniformInt, RandomStandardNormal and TruncatedNormal then draw from Philox
as TensorFlow's kernels do (runtime/ops/philox.py): the key is `seed`, the counter
`[0, seed2]`, and every run reserves 256 blocks per number. Eagerly an op with the same seeds
continues its stream (TensorFlow's kernel cache), and in a graph each node's stream continues
from run to run, so programs draw TensorFlow's numbers. RandomShuffle and Multinomial draw as
TensorFlow's do (Multinomial as TensorFlow runs a batch in one shard).
"""
import random as python_random
import weakref
from dataclasses import dataclass

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops import philox
from runtime.ops.convert import convert_to_tensor, unify_operands
from runtime.ops.dispatch import apply, graph_of
from runtime.ops.infer import constant_value
from runtime.ops.registry import register
from runtime.ops.shaping import shape_from, shape_operand

DEFAULT_GRAPH_SEED = 87654321  # TensorFlow's global seed when only an op seed is given
_MAXINT32 = 2 ** 31 - 1
_state = {'seed': None, 'op_seeds': python_random.Random(), 'kernels': {}}
_graph_op_seeds = weakref.WeakKeyDictionary()  # graph -> its random ops without a seed so far


def set_seed(seed):
    """The global seed: random ops without a seed of their own take op seeds from it, as in
    TensorFlow (`tf.random.set_seed`); the streams of seeded ops start again."""
    _state['seed'] = seed
    _state['op_seeds'] = python_random.Random(seed)
    _state['kernels'].clear()


def get_seed(op_seed, graph=None):
    """TensorFlow's (seed, seed2) for an op: (None, None) when neither a global nor an op seed
    is set (the op draws non-deterministically). Without an op seed, an eager op takes the
    next number of the global seed's `random.Random`, an op in a graph the graph's count of
    such ops so far (0, 1, ...), as TensorFlow does."""
    global_seed = _state['seed']
    if global_seed is not None:
        if op_seed is None and graph is None:
            op_seed = _state['op_seeds'].randint(0, _MAXINT32)
        elif op_seed is None:
            op_seed = _graph_op_seeds.get(graph, 0)
            _graph_op_seeds[graph] = op_seed + 1
        seeds = (global_seed % _MAXINT32, op_seed % _MAXINT32)
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, op_seed % _MAXINT32)
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


@dataclass(eq=False)
class PhiloxStream:
    """A random op's generator: a Philox key and counter; each run reserves its blocks."""
    key: np.ndarray
    counter: np.ndarray

    @classmethod
    def from_seeds(cls, seed, seed2):
        """TensorFlow's kernel generator for (seed, seed2); (0, 0) is a random one."""
        if not seed and not seed2:
            seed, seed2 = (int(w) for w in np.random.SeedSequence().generate_state(2, np.uint64))
        key = np.array([int(seed) & (2 ** 64 - 1)], np.uint64).view(np.int64)
        return cls(key, np.array([0, int(seed2) & (2 ** 64 - 1)], np.uint64).view(np.int64))

    def reserve(self, n, blocks_per_number=philox.TRUNCATED_SKIP):
        """(key, counter) for a draw of `n` numbers; the stream moves on by 256 blocks each
        (TensorFlow's reservation for its distributions)."""
        counter = self.counter
        self.counter = philox.skip(counter, n * blocks_per_number)
        return self.key, counter


def _float_bind(draw):
    """A bind_kernel drawing floats of the op's dtype from its stream (the payload)."""
    def bind_kernel(attrs, stream):
        if stream is None:  # a node imported from a GraphDef: its seed attrs give it one
            stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))
        np_dtype = attrs['dtype'].np_dtype

        def kernel(shape):
            dims, n = philox.sizes(shape)
            key, counter = stream.reserve(n)
            return draw(key, counter, n, np_dtype).reshape(dims)
        return kernel
    return bind_kernel


def _int_bind(attrs, stream):
    if stream is None:
        stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))

    def kernel(shape, minval, maxval):
        if not minval < maxval:
            raise errors.InvalidArgumentError(message=f'Need minval < maxval: {minval} >= '
                                                      f'{maxval}')
        dims, n = philox.sizes(shape)
        key, counter = stream.reserve(n)
        return philox.uniform_int(key, counter, n, minval, maxval).reshape(dims)
    return kernel


def _random_infer(inputs, attrs):
    return [(attrs['dtype'], shape_from(inputs[0]))]


def _int_infer(inputs, attrs):
    return [(inputs[1].dtype, shape_from(inputs[0]))]


_SEEDS = {'seed': 0, 'seed2': 0}
UNIFORM = register('RandomUniform', None, _random_infer, inputs=('shape',), outputs=('output',),
                   type_attrs=(('T', 0),), defaults=_SEEDS, stateful=True, liftable=True,
                   bind_kernel=_float_bind(philox.uniform))
UNIFORM_INT = register('RandomUniformInt', None, _int_infer,
                       inputs=('shape', 'minval', 'maxval'), outputs=('output',),
                       type_attrs=(('T', 0), ('Tout', 1)), defaults=_SEEDS,
                       stateful=True, liftable=True, bind_kernel=_int_bind)
NORMAL = register('RandomStandardNormal', None, _random_infer, inputs=('shape',),
                  outputs=('output',), type_attrs=(('T', 0),), defaults=_SEEDS,
                  stateful=True, liftable=True, bind_kernel=_float_bind(philox.normal))


def run_seeded(opdef, inputs, attrs, seed, name):
    """Apply a random op with TensorFlow's seeds. Eagerly an op given a seed continues the
    stream of the op of the same type, dtype and seeds, as TensorFlow's cached kernels do; in
    a graph each node has its own."""
    graph = graph_of(inputs)
    s1, s2 = get_seed(seed, graph)
    if s1 is not None:
        attrs['seed'], attrs['seed2'] = s1, s2
    if seed is None or graph is not None:
        # A new op seed each call (or none): TensorFlow's cache would hit only if the seeds
        # came again, so the stream is new and nothing is kept.
        payload = PhiloxStream.from_seeds(s1 or 0, s2 or 0)
    else:
        dtype = attrs.get('dtype', attrs.get('output_dtype'))  # and the inputs' (T, Tout)
        key = (opdef.name, getattr(dtype, 'name', None),
               tuple(str(getattr(t, 'dtype', type(t))) for t in inputs), s1, s2)
        payload = _state['kernels'].get(key)
        if payload is None:
            payload = _state['kernels'][key] = PhiloxStream.from_seeds(s1, s2)
    return apply(opdef, inputs, attrs, name, payload=payload)




def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """Uniform numbers in [minval, maxval); integer dtypes need `maxval`."""
    dtype = dtypes.as_dtype(dtype)
    shape = shape_operand(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError('rt.random.uniform with an integer dtype needs `maxval`.')
        (lo, hi), _ = unify_operands('RandomUniformInt', *_as(dtype, minval, maxval))
        return run_seeded(UNIFORM_INT, [shape, lo, hi], {}, seed, name)
    return _scaled(run_seeded(UNIFORM, [shape], {'dtype': dtype}, seed, name), minval, maxval)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    return _shifted(run_seeded(NORMAL, [shape_operand(shape)], {'dtype': dtype}, seed, name),
                    mean, stddev)


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
    """`unit * (maxval - minval) + minval`, in the numbers' dtype (as TensorFlow)."""
    maxval = 1 if maxval is None else maxval
    if _is_number(minval, 0) and _is_number(maxval, 1):
        return unit
    lo, hi = _as(unit.dtype, minval, maxval)
    return unit * (hi - lo) + lo


def _as(dtype, *values):
    return [dtype.np_dtype.type(v) if isinstance(v, (int, float)) else v for v in values]


# ---- more stateful random ops: TruncatedNormal, RandomShuffle, Multinomial -----------------

def _shuffle_bind(attrs, stream):
    """TensorFlow's RandomShuffle: Fisher-Yates from the front, slot i swapped with
    i + word % (n - i), one 32-bit word each, (n - 1) words reserved."""
    if stream is None:
        stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))

    def kernel(value):
        n = len(value) if np.ndim(value) else 0
        if n <= 1:
            return np.array(value, copy=True)
        count = -(-(n - 1) // 4)
        key, counter = stream.reserve(count, 1)
        words = philox.blocks(key, counter, count).reshape(-1)[:n - 1]
        steps = np.arange(n - 1, dtype=np.uint64)
        partners = (steps + words % (np.uint64(n) - steps)).astype(np.int64).tolist()
        order = list(range(n))
        for i, j in enumerate(partners):
            order[i], order[j] = order[j], order[i]
        return np.asarray(value)[order]
    return kernel


def multinomial_bind(attrs, stream):
    """TensorFlow's Multinomial on the CPU: per row the running sums of exp(logit - max) over
    the finite logits, each sample the first class whose sum exceeds a uniform double (two
    words) times the total, the samples of the rows in turn (TensorFlow's one shard; larger
    batches it splits across threads), 2 * batch * ceil4(num_samples) numbers reserved."""
    if stream is None:
        stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))
    out_type = attrs.get('output_dtype', dtypes.int64).np_dtype

    def kernel(logits, num_samples):
        logits = np.asarray(logits)
        if logits.ndim != 2:
            raise ValueError(f'logits should be a matrix, got shape {list(logits.shape)}')
        batch, n = logits.shape[0], int(num_samples)
        key, counter = stream.reserve(batch * (-(-n // 4) * 4) * 2)
        words = philox.blocks(key, counter, -(-batch * n // 2)).reshape(-1)
        unit = philox.unit_float64(words[0::2], words[1::2])[:batch * n].reshape(batch, n)
        finite = np.isfinite(logits)
        top = np.where(finite, logits, -np.inf).max(axis=1, initial=-np.inf, keepdims=True)
        top = np.where(np.isfinite(top), top, np.finfo(logits.dtype).min).astype(np.float64)
        cdf = np.cumsum(np.where(finite, np.exp(logits.astype(np.float64) - top), 0.0), axis=1)
        out = np.empty((batch, n), out_type)
        for b in range(batch):
            out[b] = np.searchsorted(cdf[b], unit[b] * cdf[b, -1], side='right')
        return out
    return kernel


TRUNCATED_NORMAL = register('TruncatedNormal', None, _random_infer, inputs=('shape',),
                            outputs=('output',), type_attrs=(('T', 0),), defaults=_SEEDS,
                            stateful=True, liftable=True,
                            bind_kernel=_float_bind(philox.truncated_normal))
SHUFFLE = register('RandomShuffle', None, lambda inputs, attrs: [(inputs[0].dtype,
                                                                   inputs[0].shape)],
                   inputs=('value',), outputs=('output',), defaults=_SEEDS, stateful=True,
                   liftable=True, bind_kernel=_shuffle_bind)
MULTINOMIAL = register(
    'Multinomial', None,
    lambda inputs, attrs: [(attrs.get('output_dtype', dtypes.int64), TensorShape(
        [inputs[0].shape[0] if inputs[0].shape.rank else None, _known(inputs[1])]))],
    inputs=('logits', 'num_samples'), outputs=('output',), type_attrs=(('T', 0),),
    defaults={**_SEEDS, 'output_dtype': dtypes.int64}, stateful=True, liftable=True,
    bind_kernel=multinomial_bind)


def _known(t):
    value = constant_value(t)
    return None if value is None else int(value)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """Normal numbers, those more than 2 stddevs from the mean drawn again (op
    `TruncatedNormal`)."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f'rt.random.truncated_normal needs a floating dtype, got {dtype.name}.')
    return _shifted(run_seeded(TRUNCATED_NORMAL, [shape_operand(shape)], {'dtype': dtype},
                               seed, name), mean, stddev)


def shuffle(value, seed=None, name=None):
    """`value` with its slices along the first axis in random order (op `RandomShuffle`)."""
    return run_seeded(SHUFFLE, [convert_to_tensor(value)], {}, seed, name)


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
    return run_seeded(MULTINOMIAL, [logits, num], attrs, seed, name)
