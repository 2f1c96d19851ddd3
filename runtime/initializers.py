"""TensorFlow 2's initializers (`rt.zeros_initializer`, `ones_initializer`,
`constant_initializer`, `random_normal_initializer`, `random_uniform_initializer`): objects
made once with their parameters and called with `(shape, dtype)` for a tensor, as
`tf.Variable(init(shape=[3, 4], dtype=tf.float32))` uses them.

A seeded random initializer draws TensorFlow's stateless numbers for the seed `[seed, 0]`
(so one seed gives the same tensor on every call, as there); an unseeded one draws from the
global seed like `rt.random.normal`.
"""
import numpy as np

from runtime.core import dtypes
from runtime.ops.convert import constant
from runtime.ops.creation import ones, zeros
from runtime.ops.random import normal, uniform
from runtime.ops.stateless_random import stateless_normal, stateless_uniform

PARTITION_ARGS = ('partition_shape', 'partition_offset')


class Initializer:
    """The base of the initializers: `init(shape, dtype=None, **kwargs)` gives a tensor;
    `get_config()` / `from_config(config)` rebuild one."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError(f'{type(self).__name__} must define __call__(shape, dtype).')

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop('dtype', None)
        return cls(**config)

    def _shape(self, shape, kwargs, support_partition=True):
        """`shape`, or the `partition_shape` kwarg (one shard of a partitioned variable)."""
        for kwarg in kwargs:
            if kwarg not in PARTITION_ARGS:
                raise TypeError(f'Keyword argument should be one of {list(PARTITION_ARGS)}. '
                                f'Received: {kwarg}')
            if not support_partition:
                raise ValueError(f"{type(self).__name__} initializer doesn't support "
                                 f'partition-related arguments')
        return kwargs.get('partition_shape', shape)


def _numeric_or_bool(dtype):
    dtype = dtypes.as_dtype(dtype)
    if dtype is dtypes.string or dtype is dtypes.variant:
        raise ValueError(f'Argument `dtype` expected to be numeric or boolean. Received '
                         f'{dtype}.')
    return dtype


class zeros_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Tensors of zeros."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return zeros(self._shape(shape, kwargs), _numeric_or_bool(dtype))


class ones_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Tensors of ones."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return ones(self._shape(shape, kwargs), _numeric_or_bool(dtype))


class constant_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Tensors of `value`: a scalar fills the shape; a list or array must have exactly as
    many elements as the shape (TypeError otherwise)."""

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f'Invalid type for initial value: {type(value).__name__}. Expected '
                            f'Python scalar, list or tuple of values, or numpy.ndarray.')
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        self._shape(shape, kwargs, self.support_partition)
        if 'partition_shape' in kwargs and np.ndim(self.value):
            offset = kwargs.get('partition_offset') or [0] * len(kwargs['partition_shape'])
            whole = np.reshape(np.asarray(self.value), shape)
            index = tuple(slice(o, o + n) for o, n in zip(offset, kwargs['partition_shape']))
            return constant(whole[index], dtype)
        return constant(self.value, dtype, shape=kwargs.get('partition_shape', shape))

    def get_config(self):
        return {'value': self.value}


class random_normal_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Normal random tensors of mean `mean` and standard deviation `stddev`."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f'Argument `dtype` is expected to be floating point. Received: '
                             f'{dtype}.')
        if self.seed is not None:
            return stateless_normal(shape, [self.seed, 0], self.mean, self.stddev, dtype)
        return normal(shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {'mean': self.mean, 'stddev': self.stddev, 'seed': self.seed}


class random_uniform_initializer(Initializer):  # noqa: N801 - TensorFlow's name
    """Uniform random tensors in [minval, maxval) (floats or integers)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError(f'Argument `dtype` expected to be numeric or boolean. Received '
                             f'{dtype}.')
        if self.seed is not None:
            return stateless_uniform(shape, [self.seed, 0], self.minval, self.maxval, dtype)
        return uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self):
        return {'minval': self.minval, 'maxval': self.maxval, 'seed': self.seed}
