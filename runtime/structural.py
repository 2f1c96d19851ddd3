"""TensorFlow's top-level helpers built from other ops and the runtime's own state: what a
value is (`is_tensor`, `get_static_value`), shapes (`shape_n`, `broadcast_static_shape`,
`broadcast_dynamic_shape`, `sequence_mask`), `case`, `tuple`, `identity_n`, `scalar_mul`,
`realdiv`, `saturate_cast`, the current name scope and TensorFlow's logger.

Each builds the ops TensorFlow builds for it (`sequence_mask` is Range, ExpandDims, Less and
Cast; `case` nested conds), so gradients, graphs and the executors need nothing new.
"""
import logging

import numpy as np

from runtime.control_flow import cond
from runtime.core import context, dtypes
from runtime.core.shapes import as_shape
from runtime.core.tensor import SymbolicTensor, Tensor
from runtime.graph.scopes import control_dependencies
from runtime.ops.array import cast, identity
from runtime.ops.compare import less
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import range as range_
from runtime.ops.creation import zeros
from runtime.ops.identity_n import identity_n as identity_n_op
from runtime.ops.infer import broadcast_shape, constant_value
from runtime.ops.io import Assert
from runtime.ops.math import clip_by_value, divide, maximum, multiply
from runtime.ops.reduce import reduce_max, reduce_sum
from runtime.ops.shaping import expand_dims, shape
from runtime.variables import Variable


def is_tensor(x):
    """Whether `x` is a tensor or a Variable (TensorFlow's tensor-like values)."""
    return isinstance(x, (Tensor, Variable))


def is_symbolic_tensor(tensor):
    """Whether `tensor` is a graph tensor (not an eager one)."""
    return isinstance(tensor, SymbolicTensor)


def get_static_value(tensor, partial=False):
    """The value of `tensor` as a numpy array when it is known without running a graph (an
    eager tensor, or a graph tensor computed from constants), else None; a value that is not
    a tensor comes back as it is."""
    if isinstance(tensor, Variable):
        return None
    if not isinstance(tensor, Tensor):
        return tensor
    if not isinstance(tensor, SymbolicTensor):
        return tensor.numpy()
    value = constant_value(tensor)
    return None if value is None else np.asarray(value)


def identity_n(input, name=None):
    """Each tensor of `input` unchanged, as one op (`IdentityN`)."""
    return identity_n_op(input, name=name)


def tuple(tensors, control_inputs=None, name=None):  # noqa: A001 - TensorFlow's name
    """`tensors`, each through an Identity that runs only after all of them (and
    `control_inputs`) are computed: a barrier."""
    tensors = list(tensors)
    gates = [t for t in tensors if t is not None] + list(control_inputs or ())
    with control_dependencies(gates):
        return [None if t is None else identity(t) for t in tensors]


def shape_n(input, out_type=dtypes.int32, name=None):
    """The shape of each tensor of `input` (a list of int32 or int64 vectors)."""
    return [shape(t, out_type=out_type) for t in input]


def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape two shapes broadcast to; ValueError when they cannot."""
    return broadcast_shape(as_shape(shape_x), as_shape(shape_y))


def broadcast_dynamic_shape(shape_x, shape_y):
    """The shape (a vector) two shape vectors broadcast to, computed when it runs."""
    x, y = convert_to_tensor(shape_x), convert_to_tensor(shape_y)
    if x.dtype is not y.dtype:
        raise TypeError(f'broadcast_dynamic_shape: shape_x is {x.dtype.name}, shape_y '
                        f'{y.dtype.name}.')
    return shape(zeros(x, dtypes.bool) | zeros(y, dtypes.bool), out_type=x.dtype)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """`mask[i, ..., j] = j < lengths[i, ...]` for j in [0, maxlen) (maxlen: the largest
    length), of `dtype`."""
    lengths = convert_to_tensor(lengths)
    if not lengths.dtype.is_integer:
        raise TypeError(f'sequence_mask needs integer lengths, got {lengths.dtype.name}.')
    if maxlen is None:
        maxlen = maximum(reduce_max(lengths), 0)
    maxlen = convert_to_tensor(maxlen, lengths.dtype) if not isinstance(maxlen, Tensor) else \
        cast(maxlen, lengths.dtype)
    if maxlen.shape.rank not in (None, 0):
        raise ValueError(f'maxlen must be scalar for sequence_mask, got shape {maxlen.shape}')
    result = less(range_(0, maxlen, 1, dtype=lengths.dtype), expand_dims(lengths, -1))
    dtype = dtypes.as_dtype(dtype)
    return result if dtype is dtypes.bool else cast(result, dtype, name=name)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name='case'):
    """The result of the function of the first true predicate of `pred_fn_pairs` (a list of
    (bool tensor, callable) pairs, or a dict), else of `default`: nested `cond`s in a graph, as
    TensorFlow builds them. `exclusive=True` asserts that at most one predicate is true."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else \
        list(pred_fn_pairs)
    for pred, fn in pairs:
        if not callable(fn):
            raise TypeError(f'fn for pred {pred} must be callable.')
    if default is None:
        if not pairs:
            raise ValueError('case needs at least one (pred, fn) pair or a default.')
        *pairs, (_, default) = pairs
    preds = [convert_to_tensor(p) for p, _ in pairs]
    if exclusive and preds:
        count = reduce_sum(cast(stack(preds), dtypes.int32))
        Assert(less(count, 2), ['More than one condition evaluated as True in case'],
               name='case_exclusive')
    result = default
    for pred, (_, fn) in reversed(list(zip(preds, pairs))):
        result = _cond_of(pred, fn, result)
    return result() if callable(result) else result


def _cond_of(pred, fn, otherwise):
    return lambda: cond(pred, fn, otherwise)


def get_current_name_scope():
    """The name scope ops are created in now ('' at the top; 'outer/inner' inside scopes)."""
    return context.current_name_scope().rstrip('/')


def get_logger():
    """TensorFlow's logger (the `logging` logger named 'tensorflow')."""
    return logging.getLogger('tensorflow')


def scalar_mul(scalar, x, name=None):
    """`scalar * x` for a scalar `scalar` (op `Mul`); ValueError when it is not a scalar."""
    x = convert_to_tensor(x)
    scalar = convert_to_tensor(scalar, x.dtype) if not isinstance(scalar, Tensor) else scalar
    if scalar.shape.rank not in (None, 0):
        raise ValueError(f'Only scalar multiply works, got shape {scalar.shape}')
    return multiply(scalar, x, name=name)


def realdiv(x, y, name=None):
    """`x / y` for floating-point or complex operands (op `RealDiv`)."""
    x = convert_to_tensor(x)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f'realdiv needs floating-point or complex operands, got {x.dtype.name};'
                        f' use divide for integers.')
    return divide(x, y, name=name)


def saturate_cast(value, dtype, name=None):
    """`value` cast to `dtype`, first clipped to the range `dtype` holds (no wrap-around)."""
    value = convert_to_tensor(value)
    dtype = dtypes.as_dtype(dtype)
    if value.dtype.is_complex and not dtype.is_complex:
        raise TypeError(f'saturate_cast from {value.dtype.name} to {dtype.name} drops the '
                        f'imaginary part; take rt.math.real first.')
    if (value.dtype.is_integer or value.dtype.is_floating) and (
            dtype.is_integer or dtype.is_floating):
        low, high = value.dtype.min, value.dtype.max
        if dtype.min > low or dtype.max < high:
            lo = np.asarray(max(dtype.min, low)).astype(value.dtype.np_dtype)
            hi = np.asarray(min(dtype.max, high)).astype(value.dtype.np_dtype)
            if value.dtype.is_floating and dtype.is_integer:
                # the largest float of the input dtype not above the integer maximum
                hi = np.nextafter(hi, 0).astype(value.dtype.np_dtype) if hi > dtype.max else hi
            value = clip_by_value(value, lo, hi)
    return cast(value, dtype, name=name)
