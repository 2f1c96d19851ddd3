"""Stateless random numbers: the same (shape, seed) always gives the same numbers, TensorFlow's
own (runtime/ops/philox.py draws them as TensorFlow's CPU kernels do).

A seed of two ints becomes a Philox (key, counter) pair (`StatelessRandomGetKeyCounter`); the
V2 ops draw from such a pair. `rt.random.Generator` keeps a pair in a Variable and moves its
counter on with `RngReadAndSkip`. TensorFlow types key and counter uint64; here they are
int64 tensors of the same bits.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.context import name_scope
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops import philox
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.math import add, multiply, subtract
from runtime.ops.registry import register
from runtime.ops.shaping import shape_from, shape_operand

ALG_PHILOX, ALG_THREEFRY, ALG_AUTO_SELECT = 1, 2, 3  # TensorFlow's algorithm ids
_ALGORITHMS = {'philox': ALG_PHILOX, 'threefry': ALG_THREEFRY, 'autoselect': ALG_AUTO_SELECT}
FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
INTEGERS = (dtypes.int32, dtypes.int64)


def algorithm_id(alg):
    """TensorFlow's id of an RNG algorithm: an int, or 'philox', 'threefry', 'auto_select'."""
    if isinstance(alg, (int, np.integer)):
        return int(alg)
    if isinstance(alg, str):
        known = _ALGORITHMS.get(alg.strip().lower().replace('-', '').replace('_', ''))
        if known is not None:
            return known
        raise ValueError(f'Argument `alg` got unsupported value {alg}. Supported values are '
                         f'philox for the Philox algorithm, threefry for the ThreeFry '
                         f'algorithm, and auto_select for auto-selection.')
    raise TypeError(f"Can't convert argument `alg` (of value {alg!r} and type "
                    f"{type(alg).__name__}) to int.")


# ---- kernels ----------------------------------------------------------------------------------

def _check_key_counter(key, counter, alg):
    if int(alg) not in (ALG_PHILOX, ALG_AUTO_SELECT):
        raise errors.UnimplementedError(
            message=f'Non-XLA devices support the Philox algorithm only (alg 1 or 3), got '
                    f'alg {int(alg)}; use alg="philox".')
    if np.size(key) != 1:
        raise errors.InvalidArgumentError(
            message=f'key must have shape [1], not {list(np.shape(key))}.')
    if np.ndim(counter) != 1 or np.size(counter) < 2:
        raise errors.InvalidArgumentError(
            message=f'counter must be a vector with length at least 2; got shape: '
                    f'{list(np.shape(counter))}.')


def _floats(draw):
    def kernel(shape, key, counter, alg, dtype=dtypes.float32):
        _check_key_counter(key, counter, alg)
        dims, n = philox.sizes(shape)
        return draw(key, counter, n, dtype.np_dtype).reshape(dims)
    return kernel


def _uniform_int_kernel(shape, key, counter, alg, minval, maxval):
    _check_key_counter(key, counter, alg)
    if np.ndim(minval) or np.ndim(maxval):
        raise errors.InvalidArgumentError(
            message=f'minval and maxval must be scalars, got shapes {list(np.shape(minval))} '
                    f'and {list(np.shape(maxval))}')
    if not minval < maxval:
        raise errors.InvalidArgumentError(message=f'Need minval < maxval, got {minval} >= '
                                                  f'{maxval}')
    dims, n = philox.sizes(shape)
    return philox.uniform_int(key, counter, n, minval, maxval).reshape(dims)


def _full_int_kernel(shape, key, counter, alg, dtype=dtypes.int64):
    _check_key_counter(key, counter, alg)
    dims, n = philox.sizes(shape)
    return philox.uniform_full_int(key, counter, n, dtype.np_dtype).reshape(dims)


def _key_counter_kernel(seed):
    if np.shape(seed) != (2,):
        raise errors.InvalidArgumentError(
            message=f'seed must have shape [2], not {list(np.shape(seed))}')
    return philox.key_counter_of(seed)


def _rng_read_and_skip(resource, alg, delta):
    """The generator state before; its counter moves on by 256 blocks per number asked for,
    as TensorFlow reserves them (the same skip as any draw of `delta` numbers)."""
    if int(alg) not in (ALG_PHILOX, ALG_AUTO_SELECT):
        raise errors.UnimplementedError(
            message="Non-XLA devices don't support the ThreeFry algorithm.")
    state = np.array(resource.value, dtype=np.int64, copy=True)
    new = state.copy()
    new[:2] = philox.skip(state[:2], (int(delta) * philox.TRUNCATED_SKIP) % 2 ** 64)
    resource.value = new
    return state


def _stateless_infer(inputs, attrs):
    return [(attrs.get('dtype', dtypes.float32), shape_from(inputs[0]))]


_STATELESS = dict(inputs=('shape', 'key', 'counter', 'alg'), outputs=('output',),
                  type_attrs=(('Tshape', 0),))
GET_KEY_COUNTER = register(
    'StatelessRandomGetKeyCounter', _key_counter_kernel,
    lambda inputs, attrs: [(dtypes.int64, TensorShape([1])), (dtypes.int64, TensorShape([2]))],
    inputs=('seed',), outputs=('key', 'counter'), type_attrs=(('Tseed', 0),),
    dtypes=frozenset(INTEGERS))
STATELESS_UNIFORM = register('StatelessRandomUniformV2', _floats(philox.uniform),
                             _stateless_infer, defaults={'dtype': dtypes.float32}, **_STATELESS)
STATELESS_NORMAL = register('StatelessRandomNormalV2', _floats(philox.normal), _stateless_infer,
                            defaults={'dtype': dtypes.float32}, **_STATELESS)
STATELESS_TRUNCATED_NORMAL = register(
    'StatelessTruncatedNormalV2', _floats(philox.truncated_normal), _stateless_infer,
    defaults={'dtype': dtypes.float32}, **_STATELESS)
STATELESS_UNIFORM_FULL_INT = register(
    'StatelessRandomUniformFullIntV2', _full_int_kernel, _stateless_infer,
    defaults={'dtype': dtypes.int64}, **_STATELESS)
STATELESS_UNIFORM_INT = register(
    'StatelessRandomUniformIntV2', _uniform_int_kernel,
    lambda inputs, attrs: [(inputs[4].dtype, shape_from(inputs[0]))],
    inputs=('shape', 'key', 'counter', 'alg', 'minval', 'maxval'), outputs=('output',),
    type_attrs=(('dtype', 4), ('Tshape', 0)))
RNG_READ_AND_SKIP = register(
    'RngReadAndSkip', _rng_read_and_skip,
    lambda inputs, attrs: [(dtypes.int64, TensorShape([3]))],
    inputs=('resource', 'alg', 'delta'), outputs=('value',), type_attrs=(), stateful=True)


# ---- drawing from a (key, counter) pair: what stateless ops and Generator share ---------------

def check_dtype(dtype, allowed, what):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        raise ValueError(f'Argument `dtype` got invalid value {dtype.name} for {what}. '
                         f'Accepted dtypes are {", ".join(d.name for d in allowed)}.')
    return dtype


def _operand(value, dtype, what):
    """`value` as a tensor of `dtype` (TensorFlow converts minval, mean, ... to the dtype)."""
    if isinstance(value, Tensor):
        if value.dtype is not dtype:
            raise TypeError(f'{what} has dtype {value.dtype.name}, but the numbers are '
                            f'{dtype.name}; use rt.cast first.')
        return value
    if dtype.is_integer and isinstance(value, float) and not value.is_integer():
        raise TypeError(f'Cannot convert {value} to EagerTensor of dtype {dtype.name}')
    return convert_to_tensor(value, dtype)


def draw_uniform(shape, key, counter, alg, minval, maxval, dtype):
    """Uniform numbers from a (key, counter) pair: floats as `rnd * (maxval - minval) +
    minval` (StatelessRandomUniformV2, Sub, Mul, AddV2), integers in [minval, maxval)
    (StatelessRandomUniformIntV2), or, with both None, over the whole integer range
    (StatelessRandomUniformFullIntV2)."""
    shape = shape_operand(shape)
    if dtype.is_integer:
        if minval is None:
            return apply(STATELESS_UNIFORM_FULL_INT, [shape, key, counter, alg],
                         {'dtype': dtype})
        lo, hi = _operand(minval, dtype, 'minval'), _operand(maxval, dtype, 'maxval')
        return apply(STATELESS_UNIFORM_INT, [shape, key, counter, alg, lo, hi])
    lo, hi = _operand(minval, dtype, 'minval'), _operand(maxval, dtype, 'maxval')
    rnd = apply(STATELESS_UNIFORM, [shape, key, counter, alg], _dtype_attrs(dtype))
    return add(multiply(rnd, subtract(hi, lo)), lo)


def draw_normal(opdef, shape, key, counter, alg, mean, stddev, dtype):
    """Normal numbers from a (key, counter) pair as `rnd * stddev + mean` (StatelessRandom
    NormalV2 or StatelessTruncatedNormalV2, Mul, AddV2)."""
    mean, stddev = _operand(mean, dtype, 'mean'), _operand(stddev, dtype, 'stddev')
    rnd = apply(opdef, [shape_operand(shape), key, counter, alg], _dtype_attrs(dtype))
    return add(multiply(rnd, stddev), mean)


def _dtype_attrs(dtype):
    return None if dtype is dtypes.float32 else {'dtype': dtype}


def check_int_bounds(dtype, minval, maxval):
    if dtype.is_integer and (minval is None) != (maxval is None):
        raise ValueError(f'For integer `dtype` argument {dtype.name}, argument `minval` and '
                         f'`maxval` must be both None or not None. Got `minval`={minval} and '
                         f'`maxval`={maxval}.')


# ---- the public stateless functions -----------------------------------------------------------

def key_counter(seed, alg):
    """The (key, counter, alg) a stateless op draws with (StatelessRandomGetKeyCounter)."""
    alg = algorithm_id(alg)
    if alg not in (ALG_PHILOX, ALG_AUTO_SELECT):
        raise errors.UnimplementedError(
            message='The ThreeFry algorithm runs on XLA devices only; use alg="philox" or '
                    '"auto_select" (both Philox on the CPU).')
    if not hasattr(seed, 'dtype'):
        seed = convert_to_tensor(seed)
    if seed.dtype not in INTEGERS:
        raise errors.InvalidArgumentError(
            message=f"Value for attr 'Tseed' of {seed.dtype.name} is not in the list of "
                    f"allowed values: int32, int64 [Op:StatelessRandomGetKeyCounter]")
    if seed.shape.rank is not None and seed.shape.as_list() not in ([2], [None]):
        raise errors.InvalidArgumentError(
            message=f'seed must have shape [2], not {seed.shape.as_list()} '
                    f'[Op:StatelessRandomGetKeyCounter]')
    key, counter = apply(GET_KEY_COUNTER, [seed])
    return key, counter, np.int32(alg)


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg='auto_select'):
    """Uniform numbers fixed by `seed` (two ints), TensorFlow's numbers for the same seed:
    floats in [minval, maxval) (maxval 1 by default), integers in [minval, maxval), or with
    `minval=None, maxval=None` over the integer dtype's whole range."""
    dtype = check_dtype(dtype, FLOATS + INTEGERS, 'stateless_uniform')
    check_int_bounds(dtype, minval, maxval)
    if not dtype.is_integer and maxval is None:
        maxval = 1
    with name_scope(name or 'stateless_random_uniform'):
        key, counter, alg = key_counter(seed, alg)
        return draw_uniform(shape, key, counter, alg, minval, maxval, dtype)


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                     alg='auto_select'):
    """Normal numbers fixed by `seed` (two ints), TensorFlow's for the same seed."""
    dtype = float_dtype(dtype)
    with name_scope(name or 'stateless_random_normal'):
        key, counter, alg = key_counter(seed, alg)
        return draw_normal(STATELESS_NORMAL, shape, key, counter, alg, mean, stddev, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg='auto_select'):
    """Normal numbers within 2 standard deviations of `mean`, fixed by `seed` (two ints),
    TensorFlow's for the same seed."""
    dtype = float_dtype(dtype)
    with name_scope(name or 'stateless_truncated_normal'):
        key, counter, alg = key_counter(seed, alg)
        return draw_normal(STATELESS_TRUNCATED_NORMAL, shape, key, counter, alg, mean, stddev,
                           dtype)


def float_dtype(dtype):
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        raise TypeError(f'Cannot convert 0.0 to EagerTensor of dtype {dtype.name}: normal '
                        f'numbers need a floating dtype.')
    return check_dtype(dtype, FLOATS, 'normal numbers')
