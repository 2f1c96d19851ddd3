"""The conversions and dtype rules of `rt.experimental.numpy` (TensorFlow's `tnp`).

Values become tensors as numpy makes arrays of them (Python floats float64, ints int64), and
the operands of a function meet at numpy's result type, with Python scalars weak (an int32
tensor plus 2 stays int32; plus 2.5 is float64), as `tf.experimental.numpy` does.
"""
import builtins

import numpy as np

from runtime.core import dtypes
from runtime.core.dtypes import DType
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.convert import constant, convert_to_tensor, stack


def numpy_dtype(dtype):
    """`dtype` (an `rt.DType`, numpy dtype or type, Python type or name) as a numpy dtype."""
    if isinstance(dtype, DType):
        return np.dtype(dtype.as_numpy_dtype)
    if dtype is builtins.float:
        return np.dtype(np.float64)
    if dtype is builtins.int:
        return np.dtype(np.int64)
    if dtype is builtins.complex:
        return np.dtype(np.complex128)
    if dtype in (builtins.str, builtins.bytes, np.str_, np.bytes_, 'string'):
        return np.dtype(object)
    return np.dtype(dtype)


def rt_dtype(dtype):
    """`dtype` (anything `numpy_dtype` takes) as an `rt.DType`."""
    if isinstance(dtype, DType):
        return dtype
    np_dtype = numpy_dtype(dtype)
    return dtypes.string if np_dtype.kind == 'O' else dtypes.as_dtype(np_dtype)


def is_tensor_like(x):
    """A tensor or a variable (anything with an `rt.DType`)."""
    return isinstance(x, Tensor) or isinstance(getattr(x, 'dtype', None), DType)


def asarray(a, dtype=None):
    """`a` as a tensor (numpy's conversion of values), cast to `dtype` when given."""
    if is_tensor_like(a):
        a = convert_to_tensor(a)
        return a if dtype is None or rt_dtype(dtype) == a.dtype else cast(a, rt_dtype(dtype))
    if isinstance(a, (list, tuple)) and any(is_tensor_like(e) for e in a):
        return asarray(stack([asarray(e, dtype) for e in a]), dtype)
    if dtype is not None:
        target = numpy_dtype(dtype)
        value = np.asarray(a, dtype=None if target.kind == 'O' else target)
    else:
        value = np.asarray(a)
    if value.dtype.kind in 'USO':
        return constant(value.astype(object) if value.dtype.kind != 'O' else value,
                        dtype=dtypes.string)
    return constant(value)


def operand_dtype(x):
    """What numpy's `result_type` takes for operand `x`: a dtype, or a Python scalar (weak)."""
    if is_tensor_like(x):
        return np.dtype(x.dtype.as_numpy_dtype) if x.dtype != dtypes.string else np.dtype(object)
    if isinstance(x, (builtins.bool, builtins.int, builtins.float, builtins.complex)):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, (list, tuple)):  # nested Python scalars are weak too, as TensorFlow's
        scalars = _flattened(x)       # numpy API flattens them for `result_type`
        if scalars is not None:
            return builtins.max(scalars, key=lambda v: _SCALAR_KINDS.index(type(v)),
                                default=False)
    return np.asarray(x).dtype


_SCALAR_KINDS = [builtins.bool, builtins.int, builtins.float, builtins.complex]


def _flattened(values):
    """The Python scalar of each kind found in nested lists `values` (None if anything else
    is inside), one of each kind (`max` then picks the widest)."""
    found = {}
    stack = [values]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif type(item) in _SCALAR_KINDS:
            found.setdefault(type(item), item)
        else:
            return None
    return [kind(0) for kind in found]


def result_type(*arrays_and_dtypes):
    """numpy's result type of the operands and dtypes (tensors by their dtypes), as an
    `rt.DType`, as `tnp.result_type` gives it."""
    args = [operand_dtype(a) if not _is_dtype_like(a) else numpy_dtype(a)
            for a in arrays_and_dtypes]
    return rt_dtype(np.result_type(*args))


def _is_dtype_like(a):
    return isinstance(a, (DType, np.dtype)) or isinstance(a, type) or isinstance(a, str)


def promote(*operands, inexact=False):
    """The operands as tensors of their common dtype (numpy's rule; float64 for integers when
    `inexact`)."""
    common = np.result_type(*[operand_dtype(x) for x in operands])
    if inexact and common.kind not in 'fc':
        common = np.dtype(np.float64)
    return [asarray(x, common) for x in operands]


def inexact_operand(x):
    """`x` as a tensor of a floating or complex dtype (float64 from integers and bools)."""
    t = asarray(x)
    if t.dtype.is_floating or t.dtype.is_complex:
        return t
    return cast(t, dtypes.float64)


def canonical_axis(axis, rank):
    """A negative axis counted from the end."""
    return axis + rank if axis < 0 else axis


def static_rank(t):
    """The rank of tensor `t`, which must be known when the graph is built."""
    rank = t.shape.rank
    if rank is None:
        raise ValueError('rt.experimental.numpy needs the rank of its operands to be known.')
    return rank
