"""`rt.experimental.numpy.random`: numpy's random functions over the runtime's random ops
(float64 by default, as TensorFlow's numpy API)."""
import numpy as np

from runtime import math as rtm
from runtime import random as rt_random
from runtime.core import dtypes
from runtime.experimental.numpy.core import rt_dtype
from runtime.ops.array import cast


def _shape(size):
    if size is None:
        return []
    return [int(size)] if np.ndim(size) == 0 else [int(d) for d in size]


def seed(s):
    """Sets the seed of the global random sequence (`rt.random.set_seed`)."""
    rt_random.set_seed(int(s))


def randn(*args):
    """Standard normal samples of shape `args` (float64)."""
    return rt_random.normal(list(args), dtype=dtypes.float64)


def standard_normal(size=None):
    """Standard normal samples of shape `size` (float64)."""
    return rt_random.normal(_shape(size), dtype=dtypes.float64)


def uniform(low=0.0, high=1.0, size=None):
    """Uniform samples in [low, high) of shape `size` (float64)."""
    return rt_random.uniform(_shape(size), low, high, dtype=dtypes.float64)


def rand(*size):
    """Uniform samples in [0, 1) of shape `size` (float64)."""
    return uniform(size=size)


def random(size=None):
    """Uniform samples in [0, 1) of shape `size` (float64)."""
    return uniform(size=size)


def randint(low, high=None, size=None, dtype=np.int64):
    """Integers in [low, high) (in [0, low) without `high`) of shape `size`."""
    if high is None:
        low, high = 0, low
    dtype = rt_dtype(dtype)
    if not dtype.is_integer:
        raise ValueError(f'randint needs an integer dtype, got {dtype.name}')
    return rt_random.uniform(_shape(size), low, high, dtype=dtype)


def poisson(lam=1.0, size=None):
    """Poisson samples of shape `size` (int64), by inverting the cumulative distribution."""
    lam = float(lam)
    shape = _shape(size)
    # inverse transform sampling over the cumulative distribution, up to a generous bound
    bound = int(lam + 12 * np.sqrt(lam) + 12)
    cumulative = np.cumsum([np.exp(-lam + k * np.log(lam) - sum(np.log(np.arange(1, k + 1))))
                            for k in range(bound)]) if lam > 0 else np.ones(1)
    draws = rt_random.uniform(shape, dtype=dtypes.float64)
    counts = rtm.reduce_sum(cast(rtm.greater_equal(
        draws[..., None], cumulative.astype(np.float64)), dtypes.int64), -1)
    return counts


__all__ = ['poisson', 'rand', 'randint', 'randn', 'random', 'seed', 'standard_normal',
           'uniform']
