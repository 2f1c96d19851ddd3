"""`rt.random.split` and `fold_in`: new stateless seeds drawn from a seed (TensorFlow's
compositions of the stateless full-range integer op), and `rt.random.Algorithm`."""
import enum

from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.stateless_random import stateless_uniform


class Algorithm(enum.Enum):
    """The random number generation algorithms TensorFlow names (Philox is the one the
    runtime's stateless ops and Generator use; AUTO_SELECT picks it)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def split(seed, num=2, alg='auto_select'):
    """`num` new seeds (a [num, 2] tensor of the seed's dtype) drawn from `seed`."""
    seed = convert_to_tensor(seed)
    return stateless_uniform([num, 2], seed=seed, minval=None, maxval=None, dtype=seed.dtype,
                             alg=alg)


def fold_in(seed, data, alg='auto_select'):
    """A new seed from `seed` and the integer `data`: [a number drawn from `seed`, data]."""
    data = convert_to_tensor(data)
    first = stateless_uniform([], seed=seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return stack([first, data])
