"""The types of loop and branch variables while control flow is staged: a list element's
(dtype, shape), the shape a loop variable keeps, shape invariants, and the (shape, dtype)
structure one traced iteration gives a variable unset before the loop, with zeros of it."""
from dataclasses import dataclass

import runtime as rt
from autograph.operators import located
from autograph.operators.variables import Undefined, UndefinedReturnValue


def element_type(value):
    """(dtype, shape) of a list element; None for a value no tensor can hold (the list then
    stays a Python list, appended to once while the loop is traced)."""
    try:
        value = rt.convert_to_tensor(value)
    except (TypeError, ValueError):
        return None
    return value.dtype, value.shape


def shape_invariants(pairs, initial):
    """The user's `(value, shape)` pairs, as one shape (or None) per state value."""
    invariants = [None] * len(initial)
    for value, shape in pairs or ():
        for i, current in enumerate(initial):
            if current is value:
                invariants[i] = rt.TensorShape(shape)
    return invariants


def shape_of(value):
    """The shape a loop variable keeps: per part for a tuple, namedtuple or dict."""
    return rt.nest.map_structure(lambda part: rt.convert_to_tensor(part).shape, value)


def types_of(value, name):
    """(shape, dtype) of a value, or a tuple/namedtuple/dict of them."""
    if isinstance(value, tuple):
        parts = [types_of(v, name) for v in value]
        return type(value)(*parts) if hasattr(value, '_fields') else tuple(parts)
    if isinstance(value, dict):
        return {k: types_of(v, name) for k, v in value.items()}
    return shape_and_dtype(value, name)


def flat_types(structure):
    if isinstance(structure, dict):
        return [t for v in structure.values() for t in flat_types(v)]
    if isinstance(structure, tuple):
        return [t for v in structure for t in flat_types(v)]
    return [structure]


def zeros_like(structure):
    if isinstance(structure, dict):
        return {k: zeros_like(v) for k, v in structure.items()}
    if isinstance(structure, tuple):
        parts = [zeros_like(v) for v in structure]
        return type(structure)(*parts) if hasattr(structure, '_fields') else tuple(parts)
    shape, dtype = structure.shape, structure.dtype
    if shape.rank is None:   # a scalar stands in; the invariant is the unknown shape
        return rt.zeros([], dtype=dtype)
    return rt.zeros([d if d is not None else 0 for d in shape.as_list()], dtype=dtype)


@dataclass(frozen=True, slots=True)
class ShapeDtype:
    shape: object
    dtype: object


def shape_and_dtype(value, name):
    if not isinstance(value, (Undefined, UndefinedReturnValue, type(None))):
        try:
            tensor = rt.convert_to_tensor(value)
        except (TypeError, ValueError):
            tensor = None
        if tensor is not None:
            return ShapeDtype(tensor.shape, tensor.dtype)
    raise located.error(ValueError, (
        f"'{name}' must be defined before the loop: it is used after the loop (or in the next "
        f'iteration), and its type cannot be inferred from one iteration ({value!r})'))
