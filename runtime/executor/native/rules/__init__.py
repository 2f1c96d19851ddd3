"""Per-op lowering rules of the native backend, registered with `@lowers(opdef, ...)` as numba
registers its implementations with `Registry.lower`.

A rule is `rule(lowering, node, inputs, depth) -> [output names]`: it writes the lines that
compute `node` (through `lowering.line`, `lowering.assign`...) with its operands held by the
locals `inputs`, or raises `Unsupported` for operands it has no form for; the emitter
(native/emitter.py) then calls the op's numpy kernel instead (native/rules/kernel.py). The
modules here group the rules by domain: reduce, array, lists (TensorArrays), state
(variables); elementwise ops are written from their forms (forms.py) by elementwise.py.
This package also holds the rendering helpers the rules share. It does not import numba.
"""
import numpy as np

from runtime.core import dtypes
from runtime.ops import registry

RULES = {}  # OpDef -> its rule


class Unsupported(Exception):
    """A node native code has no form for; `.node` is it and `.reason` says why."""

    def __init__(self, node, reason):
        super().__init__(reason)
        self.node = node
        self.reason = reason


class Restart(Exception):
    """Lowering starts again with the TensorLists of these Values boxed: a kernel call needs
    one as the runtime's TensorList."""

    def __init__(self, values):
        super().__init__('box these TensorLists')
        self.values = values


def lowers(*opdefs):
    """Register the decorated function as the rule of `opdefs`."""
    def register(rule):
        for opdef in opdefs:
            if opdef in RULES:
                raise ValueError(f'{opdef.name} has two native rules')
            RULES[opdef] = rule
        return rule
    return register


def spec(value):
    """(dtype, shape) of a Value."""
    return value.dtype, value.shape


def constant_value(ref):
    """The value of `ref` when a Const computes it, else None."""
    return ref.constant


def literal(value):
    """The source of an attr value."""
    if isinstance(value, dtypes.DType):
        return f'np.{value.np_dtype.name}'
    if isinstance(value, (bool, int, float, str, type(None))):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return repr(tuple(value))
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return repr(value.item())
    raise TypeError(f'attr value {value!r} has no literal form')


def np_name(dtype):
    """numpy's name of `dtype` when native code holds it (bool, integers, float32/64), else
    None."""
    if not (dtype.is_numeric or dtype.is_bool) or dtype.np_dtype.kind not in 'biuf' or \
            dtype.np_dtype.itemsize < 4 and dtype.np_dtype.kind == 'f':
        return None
    return dtype.np_dtype.name


def holds(value):
    """Whether native code holds `value` as a scalar or array local (known rank, a dtype it
    has); TensorLists and variables have their own forms."""
    return value.shape.rank is not None and np_name(value.dtype) is not None


def scalar_literal(value, dtype):
    """Source for a scalar constant of `dtype` (part of the source, so a cache key)."""
    value = dtype.np_dtype.type(value)
    if dtype.is_bool:
        return repr(bool(value))
    if dtype.is_integer:
        return f'np.{dtype.np_dtype.name}({int(value)})'
    number = float(value)
    if np.isnan(number):
        text = 'np.nan'
    elif np.isinf(number):
        text = 'np.inf' if number > 0 else '-np.inf'
    else:
        text = repr(number)
    return f'np.{dtype.np_dtype.name}({text})'


def cast(node, expr, value_spec, same=False):
    """`expr` converted to the dtype of `value_spec`: a scalar for rank 0 (numpy's scalar
    types, which numba types without compiling anything), else an array (`same`: `expr` is
    known to be an array of that dtype already)."""
    dtype, shape = value_spec
    name = np_name(dtype)
    if name is None:
        raise Unsupported(node, f'its output has dtype {dtype.name}, which native code cannot '
                                f'hold')
    if shape.rank is None:
        raise Unsupported(node, 'its output has an unknown rank')
    if shape.rank == 0:
        return f'bool({expr})' if dtype.is_bool else f'np.{name}({expr})'
    if same:
        return expr
    return f'(({expr}) != 0)' if dtype.is_bool else f'({expr}).astype(np.{name})'


def is_structural(opdef):
    """Const and Placeholder, which the emitter writes itself."""
    return opdef in (registry.CONST, registry.PLACEHOLDER)
