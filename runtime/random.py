"""`rt.random`: seeded random tensors (in a graph, each run draws anew), stateless random
numbers fixed by a seed, and `Generator`, whose state is an `rt.Variable`."""
import numpy as np

from runtime.core import dtypes
from runtime.ops import random as ops
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value
from runtime.ops.math import cast
from runtime.ops.random import (
    categorical,
    normal,
    set_seed,
    shuffle,
    stateless_normal,
    stateless_uniform,
    truncated_normal,
    uniform,
)
from runtime.ops.reduce import reduce_prod
from runtime.ops.slicing import strided_slice
from runtime.variables import Variable

__all__ = ['Generator', 'categorical', 'normal', 'set_seed', 'shuffle', 'stateless_normal',
           'stateless_uniform', 'truncated_normal', 'uniform']


class Generator:
    """A random number generator whose state (an int64 Variable of shape [3]: a Philox counter
    and key) advances with every draw, eagerly and in graphs, so the same seed gives the same
    sequence. Each draw is `RngReadAndSkip` on the state, then a stateless op on (key,
    counter), as TensorFlow builds it."""

    def __init__(self, state, alg=ops.ALG_PHILOX):
        self.algorithm = int(alg)
        self.state = Variable(np.asarray(state, dtype=np.int64).reshape(3), name='StateVar',
                              trainable=False)

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose sequence is fixed by the int `seed`."""
        key, _ = ops.key_counter_of(np.asarray([seed, 0], np.int64))
        return cls([0, 0, int(key[0])])

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        key = np.random.SeedSequence().generate_state(1, np.uint64).view(np.int64)
        return cls([0, 0, int(key[0])])

    def _key_counter(self, shape):
        known = constant_value(shape) if hasattr(shape, 'dtype') else shape
        if known is not None:
            delta = np.int64(max(int(np.prod(np.asarray(known, dtype=np.int64))), 1))
        else:
            delta = cast(reduce_prod(shape), dtypes.int64)
        old = apply(ops.RNG_READ_AND_SKIP, [self.state.handle, np.int32(self.algorithm), delta])
        return strided_slice(old, slice(2, 3)), strided_slice(old, slice(0, 2))

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Uniform numbers in [minval, maxval) (integer dtypes need `maxval`)."""
        key, counter = self._key_counter(shape)
        return ops.uniform_from_key(shape, key, counter, minval, maxval, dtype, name)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        key, counter = self._key_counter(shape)
        return ops.normal_from_key(shape, key, counter, mean, stddev, dtype, name)

    def __repr__(self):
        return f'<rt.random.Generator state={self.state.numpy().tolist()}>'
