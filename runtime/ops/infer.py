"""Shape and dtype inference helpers shared by the op modules' `infer` functions."""
import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.ops.registry import CONST


def constant_value(t):
    """The value of `t` if it is known without running anything (eager or a Const), else None."""
    if type(t) is EagerTensor:
        return t.value
    if type(t) is SymbolicTensor:
        op = t.op
        return op.attrs['value'] if op.opdef is CONST else None
    if isinstance(t, (np.ndarray, np.generic)):
        return t
    return None


def known_shape(t):
    """`t`'s shape as a tuple of ints when fully known, else None (cheap for eager tensors)."""
    if type(t) is EagerTensor:
        try:
            return t.value.shape  # an ndarray or numpy scalar
        except AttributeError:
            return np.shape(t.value)
    shape = t.shape
    return tuple(shape.as_list()) if shape.is_fully_defined() else None


def broadcast_shape(a, b):
    """numpy broadcasting on partial shapes; ValueError naming both shapes if incompatible."""
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    da, db = a.as_list(), b.as_list()
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None:
            out.append(y)
        elif y is None or x == y:
            out.append(x)
        else:
            raise ValueError(f'Shapes {a} and {b} are incompatible for broadcasting')
    return TensorShape(out)


def same_as_input(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


def broadcast(inputs, attrs):
    return [(inputs[0].dtype, broadcast_shape(inputs[0].shape, inputs[1].shape))]


def broadcast_bool(inputs, attrs):
    return [(dtypes.bool, broadcast_shape(inputs[0].shape, inputs[1].shape))]


def no_outputs(inputs, attrs):
    return []
