"""Shape and dtype inference helpers shared by the op modules' `infer` functions.

The values known while a graph is built (TensorFlow's `constant_value` and
`constant_value_as_shape`): `constant_value` gives a tensor's value when it is fully known,
`partial_value` as far as it is known (an object array, None for an unknown element), and
`constant_value_as_shape` the partial shape a shape operand stands for. A value is worked out
from constants through small integer subgraphs, through `Shape`, `Size` and `Rank` of tensors of
known static shape, and through the ops that only move elements (`Pack` of `rt.shape(x)[0]` and
Python ints, `ConcatV2`, `StridedSlice`, `Cast`): each OpDef's `partial` says how.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.ops.registry import CONST, IDENTITY, check_nonzero

_DEPTH = 16            # how many ops back a value is looked for
_MAX_ELEMENTS = 1024   # the largest value worked out while a graph is built
# what a kernel raises on values it refuses: the value is then unknown (it fails when it runs)
_REFUSED = (ValueError, TypeError, IndexError, ArithmeticError, errors.OpError)


def constant_value(t):
    """The value of `t` if it is known without running anything (eager, a Const, or worked out
    from them while the graph is built), else None."""
    if type(t) is EagerTensor:
        return t.value
    if type(t) is SymbolicTensor:
        op = t.op
        if op.opdef is CONST:
            return op.attrs['value']
        value = _partial(t, 0)
        return None if value is None or value.dtype == object else value
    if isinstance(t, (np.ndarray, np.generic)):
        return t
    return None


def partial_value(t):
    """`t`'s value as far as it is known while the graph is built: a numpy array (of dtype object,
    with None for each unknown element, when some are unknown), or None when nothing is known."""
    return _partial(t, 0)


def known_elements(t):
    """`partial_value(t)` as (nested) Python lists of ints, None for each unknown element, or
    None when nothing is known."""
    value = _partial(t, 0)
    if value is None:
        return None
    return np.vectorize(lambda v: v if v is None else int(v), otypes=[object])(value).tolist() \
        if value.dtype == object else value.tolist()


def constant_value_as_shape(t):
    """The partial shape a shape operand `t` stands for (TensorFlow's
    `constant_value_as_shape`): its known elements, None for the others (and for -1); unknown
    dims of its length when no element is known, an unknown rank when that is unknown too."""
    value = _partial(t, 0)
    if value is not None and value.ndim == 1:
        return TensorShape([None if d is None or d < 0 else int(d) for d in value.tolist()])
    shape = getattr(t, 'shape', None)
    rank = shape[0] if shape is not None and shape.rank == 1 else None
    return TensorShape(None if rank is None else [None] * rank)


def _partial(t, depth):
    if type(t) is EagerTensor:
        return np.asarray(t.value)
    if type(t) is not SymbolicTensor:
        return np.asarray(t) if isinstance(t, (np.ndarray, np.generic)) else None
    op = t.op
    opdef = op.opdef
    if opdef is CONST:
        return np.asarray(op.attrs['value'])
    if depth >= _DEPTH or not t.dtype.is_integer:
        return None
    n = t.shape.num_elements()
    if n is None or n > _MAX_ELEMENTS:
        return None
    values = [_partial(x, depth + 1) for x in op.inputs]
    try:
        with np.errstate(all='raise'):
            if opdef.partial is not None:
                out = None if t.value_index else opdef.partial(op, values)
            elif (not opdef.foldable or opdef.kernel is None or opdef.bind_kernel is not None or
                  opdef.control_flow is not None or
                  any(v is None or v.dtype == object for v in values)):
                return None
            else:
                for i in opdef.nonzero:
                    check_nonzero(values[i])
                out = opdef.kernel(*values, **opdef.kernel_attrs(op.attrs))
                if isinstance(out, tuple):
                    out = out[t.value_index]
    except _REFUSED + (FloatingPointError,):
        return None
    if out is None:
        return None
    out = np.asarray(out)
    if out.dtype == object:
        if any(v is None for v in out.flat):
            return out
        return out.astype(t.dtype.np_dtype)
    return out


def moves_elements(op, values):
    """`OpDef.partial` of an op that only moves its inputs' elements (Pack, ConcatV2,
    StridedSlice): its kernel, run on the partly known values."""
    known = []
    for t, v in zip(op.inputs, values):
        if v is None:  # each element unknown, where the shape is known
            shape = t.shape
            if not shape.is_fully_defined():
                return None
            v = np.full(shape.as_list(), None, dtype=object)
        known.append(v)
    opdef = op.opdef
    return np.asarray(opdef.kernel(*known, **opdef.kernel_attrs(op.attrs)), dtype=object)


def passes_through(op, values):
    """`OpDef.partial` of Cast (between integer dtypes, as a shape is cast) and Identity."""
    return values[0]


def shape_value(op, values):
    """`OpDef.partial` of Shape: the input's static shape, None for its unknown dims."""
    shape = op.inputs[0].shape
    return None if shape.rank is None else np.array(shape.as_list(), dtype=object)


def size_value(op, values):
    """`OpDef.partial` of Size: the input's number of elements, when its shape is known."""
    return op.inputs[0].shape.num_elements()


def rank_value(op, values):
    """`OpDef.partial` of Rank: the input's static rank."""
    return op.inputs[0].shape.rank


IDENTITY.partial = passes_through  # declared with the structural ops, in the registry


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
