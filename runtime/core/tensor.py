"""Tensor classes.

`EagerTensor` holds a numpy value, `.value` (an ndarray, or a numpy scalar for rank 0).
`SymbolicTensor` is an output of a graph `Operation`: it has a dtype and a partially known shape
but no value.
Arithmetic operators are installed on `Tensor` by `runtime.ops.operators`; the conversion of
Python values to tensors is `runtime.ops.convert`.
"""
from typing import Any, Iterator, NoReturn

import numpy as np

from runtime.core import context, errors
from runtime.core.dtypes import DType
from runtime.core.shapes import TensorShape


class Tensor:
    """The base of eager and symbolic tensors."""

    __slots__ = ()
    __array_priority__ = 100  # numpy defers `ndarray + Tensor` to our operators

    def __hash__(self) -> int:
        # `==` is elementwise, so a tensor is no dict key (as in TensorFlow): `.ref()` is one
        raise TypeError('Tensor is unhashable. Instead, use tensor.ref() as the key.')

    def ref(self) -> 'Reference':
        """A hashable reference to this tensor (equal for the same tensor), `.deref()` gives
        it back: the key to use for tensors in dicts and sets."""
        return Reference(self)


class Reference:
    """What `Tensor.ref()` and `Variable.ref()` return: hashable, equal to the references of
    the same object (by identity), and `.deref()` returns that object."""

    __slots__ = ('_wrapped',)

    def __init__(self, wrapped: Any) -> None:
        self._wrapped = wrapped

    def deref(self) -> Any:
        return self._wrapped

    def __hash__(self) -> int:
        return id(self._wrapped)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reference) and other._wrapped is self._wrapped

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        return f'<Reference wrapping {self._wrapped!r}>'


class EagerTensor(Tensor):
    __slots__ = ('value', 'dtype')

    def __init__(self, value: Any, dtype: DType) -> None:
        self.value = value
        self.dtype = dtype

    graph = None
    device = errors.EAGER_DEVICE  # where every eager tensor lives

    @property
    def shape(self) -> TensorShape:
        return TensorShape(np.shape(self.value))

    @property
    def ndim(self) -> int:
        return getattr(self.value, 'ndim', 0)  # 0 for a string scalar (bytes)

    def get_shape(self) -> TensorShape:
        return self.shape

    def numpy(self) -> Any:
        """The value as a numpy array the caller owns (a copy, as in TensorFlow; writing to it
        changes nothing in the runtime), or a numpy scalar for rank 0."""
        value = self.value
        return value.copy() if type(value) is np.ndarray else value

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        """`np.asarray(t)`: a read-only view of the value (no copy, as in TensorFlow), or a new
        array when a dtype conversion or a copy is asked for."""
        return readonly_array(self.value, dtype, copy)

    def __bool__(self) -> bool:
        return bool(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __index__(self) -> int:
        if not self.dtype.is_integer:
            raise TypeError(f'Only integer tensors can be used as an index, not {self.dtype.name}.')
        return int(self.value)

    def __len__(self) -> int:
        if np.ndim(self.value) == 0:
            raise TypeError('Scalar tensor has no `len()`')
        return len(self.value)

    def __iter__(self) -> Iterator['EagerTensor']:
        if np.ndim(self.value) == 0:
            raise TypeError('Cannot iterate over a scalar tensor.')
        dtype = self.dtype
        return (EagerTensor(row, dtype) for row in self.value)

    def __format__(self, format_spec: str) -> str:
        """`f"{t:.2f}"`, `format(t, "d")`: the value formatted as numpy formats it (a format
        spec on a tensor of rank > 0 is numpy's TypeError, as in TensorFlow)."""
        return format(self.numpy(), format_spec)

    def __str__(self) -> str:
        return f'rt.Tensor({numpy_text(self.value)}, shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self) -> str:
        return (f'<rt.Tensor: shape={self.shape}, dtype={self.dtype.name}, '
                f'numpy={numpy_text(self.value, is_repr=True)}>')


class SymbolicTensor(Tensor):
    """An output of an Operation in a graph: dtype and (partial) shape, no value."""

    __slots__ = ('op', 'value_index', 'dtype', '_shape', '__weakref__')

    def __hash__(self) -> int:
        # As TensorFlow's: unhashable in a function's graph; a tensor of a plain `rt.Graph`
        # hashes by identity, so that it keys the feeds of `graph.run(fetches, {placeholder:
        # value})`.
        if self.op.graph.building_function:
            raise TypeError('Tensor is unhashable. Instead, use tensor.ref() as the key.')
        return id(self)

    def __init__(self, op: Any, value_index: int, dtype: DType, shape: TensorShape) -> None:
        self.op = op
        self.value_index = value_index
        self.dtype = dtype
        self._shape = shape

    @property
    def device(self) -> str:
        """The device its op asks for (`rt.device` scopes; '' outside them)."""
        return self.op.device

    @property
    def name(self) -> str:
        return f'{self.op.name}:{self.value_index}'

    @property
    def graph(self) -> Any:
        return self.op.graph

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def ndim(self) -> int | None:
        return self._shape.rank

    def get_shape(self) -> TensorShape:
        return self._shape

    def _not_allowed(self, what: str,
                     needs_value: bool = False) -> errors.OperatorNotAllowedInGraphError:
        if needs_value:
            advice = ('Inside `ag.function` compute with rt ops instead, use `rt.print` to see '
                      'the value when the graph runs, or return the tensor and call `.numpy()` '
                      'on the result.')
        else:
            advice = ('AutoGraph converts `if`/`while`/`for`, `and`/`or`/`not` and `assert` on '
                      'tensors in code that `ag.function` converts; use `rt.cond` / '
                      '`rt.while_loop` where it cannot (e.g. in functions marked '
                      '`ag.do_not_convert`), or wrap the function in `ag.function`.')
        location = errors.caller_location()
        prefix = f'{location[0]}:{location[1]}: ' if location else ''
        return errors.OperatorNotAllowedInGraphError(
            f'{prefix}{what} is not allowed on the symbolic tensor {self.name!r}: it has no value '
            f'while the graph is being built. {advice}')

    def numpy(self) -> NoReturn:
        """OperatorNotAllowedInGraphError: a graph tensor has no value while its graph is built;
        one that leaked out of its function (kept in a list or global while tracing) never
        will, and raises TensorFlow's AttributeError (also an OperatorNotAllowedInGraphError)."""
        if context.current_graph() is not self.op.graph:
            location = errors.caller_location()
            prefix = f'{location[0]}:{location[1]}: ' if location else ''
            raise errors.SymbolicNumpyError(
                f'{prefix}`.numpy()` on the graph tensor {self.name!r}, which leaked out of the '
                f'function whose trace made it (it was kept in a Python list, global or '
                f'attribute): it has no value and never will. Return it from the function and '
                f'call `.numpy()` on the result.')
        raise self._not_allowed('Calling `.numpy()`', needs_value=True)

    def __bool__(self) -> NoReturn:
        raise self._not_allowed('Using a tensor as a Python `bool`')

    def __index__(self) -> NoReturn:
        raise self._not_allowed('Using a tensor as a Python index')

    def __int__(self) -> NoReturn:
        raise self._not_allowed('Converting a tensor to a Python `int`', needs_value=True)

    def __float__(self) -> NoReturn:
        raise self._not_allowed('Converting a tensor to a Python `float`', needs_value=True)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> NoReturn:
        raise self._not_allowed('Converting a tensor to a numpy array', needs_value=True)

    def __iter__(self) -> NoReturn:
        raise self._not_allowed('Iterating over a tensor')

    def __len__(self) -> NoReturn:
        raise TypeError(f'len is not well defined for the symbolic tensor {self.name!r}; '
                        'use `rt.shape(t)[0]` or `rt.size(t)`.')

    def __repr__(self) -> str:
        return f"<rt.Tensor '{self.name}' shape={self._shape} dtype={self.dtype.name}>"

    def __str__(self) -> str:
        # What print() shows while tracing, as in TensorFlow: Tensor("x:0", shape=(), dtype=int32)
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self.dtype.name})'


def readonly_array(value: Any, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
    """`value` as an ndarray that writing to cannot change `value`: a read-only view when no
    conversion is needed, else the converted (new) array; a writable copy when `copy` is true."""
    if copy:
        return np.array(value, dtype=dtype, copy=True)
    array = np.asarray(value, dtype=dtype)
    if array is value:
        array = array.view()
        array.flags.writeable = False
    return array


def is_symbolic(x: object) -> bool:
    return isinstance(x, SymbolicTensor)


def numpy_text(value: Any, is_repr: bool = False) -> str:
    """A tensor's or Variable's value as TensorFlow shows it in `str`/`repr`: numpy's str of a
    scalar (`5.5`, `b'hi'`; in a repr a float scalar is the Python float it converts to, every
    digit shown), numpy's str (or repr) of an array, on a new line if it spans lines."""
    if is_repr and isinstance(value, np.ndarray):
        text = repr(value)
    elif is_repr and isinstance(value, np.generic) and value.dtype.kind in 'fc':
        text = repr(value.item())  # as TensorFlow: float32 27.3 shows as 27.299999237060547
    else:
        text = str(value)
    return '\n' + text if '\n' in text else text
