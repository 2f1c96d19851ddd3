"""Random ops. They are stateful: in a graph every run draws new numbers.

`rt.random.set_seed(n)` makes sequences reproducible: it resets the global generator and
the generators of ops created with an op-level `seed`.
"""
import numpy as np

from runtime import dtypes
from runtime.convert import unify_operands
from runtime.ops.array import shape_from, shape_operand
from runtime.ops.dispatch import apply
from runtime.ops.registry import register

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
    unit = _run(UNIFORM, [shape], {'dtype': dtype}, seed, name)
    maxval = 1 if maxval is None else maxval
    if _is_number(minval, 0) and _is_number(maxval, 1):
        return unit
    return unit * (maxval - minval) + minval


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    out = _run(NORMAL, [shape_operand(shape)], {'dtype': dtype}, seed, name)
    if not _is_number(stddev, 1):
        out = out * stddev
    if not _is_number(mean, 0):
        out = out + mean
    return out


def _is_number(value, number):
    return isinstance(value, (int, float)) and value == number


def _as(dtype, *values):
    return [dtype.np_dtype.type(v) if isinstance(v, (int, float)) else v for v in values]
