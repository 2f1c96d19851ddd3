"""`rt.random.Generator`: a Philox generator whose state is an int64 Variable [counter (2),
key], drawing TensorFlow's numbers for the same state, eagerly and in graphs.

Each draw is `RngReadAndSkip` on the state (the counter moves on by 256 blocks per number),
then a stateless V2 op on the (key, counter) it read, as TensorFlow builds it; so a Generator
made `from_seed(s)` here and in TensorFlow gives the same sequence.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.context import name_scope
from runtime.core.tensor import Tensor
from runtime.graph.scopes import init_scope
from runtime.ops import stateless_random as sr
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.manipulation import unstack
from runtime.ops.reduce import reduce_prod
from runtime.ops.shaping import shape_operand
from runtime.ops.slicing import strided_slice
from runtime.variables import Variable

STATE_SIZE = 3  # Philox: a 128-bit counter and a 64-bit key, in int64 words
_MASK64 = (1 << 64) - 1


def _signed(word):
    word &= _MASK64
    return word - (1 << 64) if word >= 1 << 63 else word


def create_rng_state(seed, alg):
    """TensorFlow's Philox state for a seed, an int64 tensor [3] (`tf.random.create_rng_state`;
    see `rng_state`)."""
    return convert_to_tensor(rng_state(seed, alg))


def rng_state(seed, alg='philox'):
    """TensorFlow's Philox state for a seed, as numpy: an int is cut into 64-bit words, lowest
    first; a list of ints is taken as words; either is padded with zeros on the left to 3
    words (`from_seed(1)` has state [1, 0, 0], `from_seed([1, 2])` [0, 1, 2])."""
    _check_algorithm(sr.algorithm_id(alg))
    if isinstance(seed, Tensor):
        seed = seed.numpy()
    if isinstance(seed, (int, np.integer)):
        seed = int(seed)
        words = []
        for _ in range(STATE_SIZE):
            words.append(seed & _MASK64)
            seed >>= 64
    else:
        words = [int(w) for w in np.ravel(np.asarray(seed, dtype=object))]
    words = [_signed(w) for w in words][:STATE_SIZE]
    return np.asarray([0] * (STATE_SIZE - len(words)) + words, dtype=np.int64)


def _check_algorithm(alg):
    if alg not in (sr.ALG_PHILOX, sr.ALG_AUTO_SELECT):
        raise errors.UnimplementedError(
            message="Non-XLA devices don't support the ThreeFry algorithm; use "
                    "alg='philox'.")
    return alg


def _state_array(state):
    value = np.asarray(state.numpy() if isinstance(state, Tensor) else state, dtype=np.int64)
    if value.shape != (STATE_SIZE,):
        raise ValueError(f'Shapes {value.shape} and [{STATE_SIZE}] are incompatible: a Philox '
                         f'state is 3 int64 words (counter, counter, key).')
    return value


class Generator:
    """TensorFlow's `tf.random.Generator`: `from_seed`, `from_state`,
    `from_non_deterministic_state`, `from_key_counter`; `uniform`, `normal`,
    `truncated_normal`, `uniform_full_int`, `make_seeds`, `split`; `reset`,
    `reset_from_seed`, `reset_from_key_counter`, `skip`; `state`, `algorithm`, `key`."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            if state is not None or alg is not None:
                raise AssertionError('Generator(copy_from=...) takes no state or alg.')
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        elif state is None or alg is None:
            raise AssertionError('Generator needs `state` and `alg` (or `copy_from`); use '
                                 'rt.random.Generator.from_seed(seed) to make one from a seed.')
        self._alg = _check_algorithm(sr.algorithm_id(alg))
        if isinstance(state, Variable):
            _state_array(state.numpy())
            self._state_var = state
        else:
            with init_scope():
                self._state_var = Variable(_state_array(state), name='StateVar',
                                           trainable=False)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose sequence is fixed by `seed` (an int or a list of ints), the
        sequence TensorFlow's `Generator.from_seed(seed)` draws."""
        alg = sr.ALG_PHILOX if alg is None else alg
        return cls(state=rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        words = np.random.SeedSequence().generate_state(STATE_SIZE, np.uint64).view(np.int64)
        return cls(state=words, alg=sr.ALG_PHILOX if alg is None else alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator with the given key (an int) and counter (two ints)."""
        return cls(state=_key_counter_state(key, counter), alg=alg)

    @property
    def state(self):
        """The state Variable (int64 [3]: counter words, then the key)."""
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return self._state_var[-1]

    def reset(self, state):
        self._state_var.assign(_state_array(state))

    def reset_from_seed(self, seed):
        """Start the sequence of `from_seed(seed)` again."""
        self._state_var.assign(rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        self._state_var.assign(_key_counter_state(key, counter))

    def skip(self, delta):
        """Move the state on as a draw of `delta` numbers would; returns the state before
        (op `RngReadAndSkip`)."""
        delta = delta if isinstance(delta, Tensor) else np.int64(delta)
        if isinstance(delta, Tensor) and delta.dtype is not dtypes.int64:
            delta = cast(delta, dtypes.int64)
        return apply(sr.RNG_READ_AND_SKIP, [self._state_var.handle, np.int32(self._alg),
                                               delta])

    def _key_counter(self, shape):
        old = self.skip(cast(reduce_prod(shape), dtypes.int64))
        return strided_slice(old, slice(2, 3)), strided_slice(old, slice(0, 2))

    def _alg_operand(self):
        return np.int32(self._alg)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform numbers in [minval, maxval) (maxval 1 for floats; integers need both, or
        neither for the dtype's whole range)."""
        dtype = sr.check_dtype(dtype, sr.FLOATS + sr.INTEGERS, 'Generator.uniform')
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f'For integer dtype {dtype.name}, minval and maxval must be '
                                 f'both `None` or both non-`None`; got minval={minval} and '
                                 f'maxval={maxval}')
        elif maxval is None:
            maxval = 1
        with name_scope(name or 'stateful_uniform'):
            shape = shape_operand(shape)
            key, counter = self._key_counter(shape)
            return sr.draw_uniform(shape, key, counter, self._alg_operand(), minval, maxval,
                                   dtype)

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):
        """Integers over the dtype's whole range (int64 by default: TensorFlow's default,
        uint64, is not a dtype here)."""
        dtype = sr.check_dtype(dtype, sr.INTEGERS, 'Generator.uniform_full_int')
        with name_scope(name or 'stateful_uniform_full_int'):
            shape = shape_operand(shape)
            key, counter = self._key_counter(shape)
            return sr.draw_uniform(shape, key, counter, self._alg_operand(), None, None, dtype)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal numbers (StatelessRandomNormalV2 on the state's key and counter)."""
        return self._normal(sr.STATELESS_NORMAL, 'stateful_normal', shape, mean, stddev,
                            dtype, name)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        """Normal numbers within 2 standard deviations of `mean`."""
        return self._normal(sr.STATELESS_TRUNCATED_NORMAL, 'truncated_normal', shape, mean,
                            stddev, dtype, name)

    def _normal(self, opdef, scope, shape, mean, stddev, dtype, name):
        dtype = sr.float_dtype(dtype)
        with name_scope(name or scope):
            shape = shape_operand(shape)
            key, counter = self._key_counter(shape)
            return sr.draw_normal(opdef, shape, key, counter, self._alg_operand(), mean, stddev,
                                  dtype)

    def make_seeds(self, count=1):
        """`count` seeds for the stateless ops: an int64 [2, count] tensor (keys, zeros)."""
        keys = self.uniform_full_int([count], dtypes.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each keyed by a number this one draws (the counters of
        the new ones start at zero), as TensorFlow splits."""
        keys = self.uniform_full_int([count], dtypes.int64)
        return [Generator(state=_key_counter_state(k, [0, 0]), alg=self._alg)
                for k in unstack(keys, num=count)]

    def __repr__(self):
        return f'<rt.random.Generator state={self._state_var.numpy().tolist()}>'


def _key_counter_state(key, counter):
    key = key.numpy() if isinstance(key, Tensor) else key
    counter = counter.numpy() if isinstance(counter, Tensor) else counter
    counter = [int(c) for c in np.ravel(counter)]
    if len(counter) != STATE_SIZE - 1 or np.ndim(key) != 0:
        raise ValueError(f'A Philox key is one int and its counter two ints, got key {key!r} '
                         f'and counter {counter!r}.')
    return np.asarray([_signed(c) for c in counter] + [_signed(int(key))], np.int64)


_global = {'generator': None}


def get_global_generator():
    """The generator `rt.random` functions of TensorFlow's Generator API share (made from
    non-deterministic state on first use, unless `set_global_generator` set one)."""
    if _global['generator'] is None:
        _global['generator'] = Generator.from_non_deterministic_state()
    return _global['generator']


def set_global_generator(generator):
    """Make `generator` the global generator. Functions already traced keep the one they
    captured."""
    _global['generator'] = generator
