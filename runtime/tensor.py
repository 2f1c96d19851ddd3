"""Tensor classes and the conversion of Python values to numpy (TensorFlow's rules).

`EagerTensor` holds a numpy value (an ndarray, or a numpy scalar for rank 0). `SymbolicTensor` is
an output of a graph `Operation`: it has a dtype and a partially known shape but no value.
Arithmetic operators are installed on `Tensor` by `runtime.ops.operators`.
"""
import numpy as np

from runtime import dtypes, errors
from runtime.shapes import TensorShape

_BY_NUMPY = dtypes._BY_NUMPY


class Tensor:
    """The base of eager and symbolic tensors."""

    __slots__ = ()
    __array_priority__ = 100  # numpy defers `ndarray + Tensor` to our operators

    __hash__ = object.__hash__  # `==` is elementwise, identity is the hash


class EagerTensor(Tensor):
    __slots__ = ('_value', 'dtype')

    def __init__(self, value, dtype):
        self._value = value
        self.dtype = dtype

    graph = None

    @property
    def shape(self):
        return TensorShape(np.shape(self._value))

    @property
    def ndim(self):
        return np.ndim(self._value)

    def get_shape(self):
        return self.shape

    def numpy(self):
        return self._value

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._value, dtype=dtype)

    def __bool__(self):
        return bool(self._value)

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __index__(self):
        if not self.dtype.is_integer:
            raise TypeError(f'Only integer tensors can be used as an index, not {self.dtype.name}.')
        return int(self._value)

    def __len__(self):
        if np.ndim(self._value) == 0:
            raise TypeError('Scalar tensor has no `len()`')
        return len(self._value)

    def __iter__(self):
        if np.ndim(self._value) == 0:
            raise TypeError('Cannot iterate over a scalar tensor.')
        dtype = self.dtype
        return (EagerTensor(row, dtype) for row in self._value)

    def __str__(self):
        text = _format_value(self._value)
        if '\n' in text:
            text = '\n' + text
        return f'rt.Tensor({text}, shape={self.shape}, dtype={self.dtype.name})'

    def __repr__(self):
        text = _format_value(self._value)
        if '\n' in text:
            text = '\n' + text
        return f'<rt.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={text}>'


class SymbolicTensor(Tensor):
    """An output of an Operation in a graph: dtype and (partial) shape, no value."""

    __slots__ = ('op', 'value_index', 'dtype', '_shape', '__weakref__')

    def __init__(self, op, value_index, dtype, shape):
        self.op = op
        self.value_index = value_index
        self.dtype = dtype
        self._shape = shape

    @property
    def name(self):
        return f'{self.op.name}:{self.value_index}'

    @property
    def graph(self):
        return self.op.graph

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return self._shape.rank

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        self._shape = self._shape.merge_with(shape)

    def _not_allowed(self, what, needs_value=False):
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

    def numpy(self):
        raise self._not_allowed('Calling `.numpy()`', needs_value=True)

    def __bool__(self):
        raise self._not_allowed('Using a tensor as a Python `bool`')

    def __index__(self):
        raise self._not_allowed('Using a tensor as a Python index')

    def __int__(self):
        raise self._not_allowed('Converting a tensor to a Python `int`', needs_value=True)

    def __float__(self):
        raise self._not_allowed('Converting a tensor to a Python `float`', needs_value=True)

    def __array__(self, dtype=None, copy=None):
        raise self._not_allowed('Converting a tensor to a numpy array', needs_value=True)

    def __iter__(self):
        raise self._not_allowed('Iterating over a tensor')

    def __len__(self):
        raise TypeError(f'len is not well defined for the symbolic tensor {self.name!r}; '
                        'use `rt.shape(t)[0]` or `rt.size(t)`.')

    def __repr__(self):
        return f"<rt.Tensor '{self.name}' shape={self._shape} dtype={self.dtype.name}>"

    __str__ = __repr__


def is_symbolic(x):
    return isinstance(x, SymbolicTensor)


def _format_value(value):
    if isinstance(value, bytes):
        return _text(value)
    if isinstance(value, np.ndarray) and value.dtype == object:
        value = np.vectorize(_text, otypes=[object])(value) if value.size else value
    return str(value)


def _text(x):
    return x.decode('utf-8', 'replace') if isinstance(x, bytes) else str(x)


# ---- Python values -> numpy, with TensorFlow's conversion rules --------------------------------

def infer_dtype(value):
    """The dtype a Python or numpy value converts to when no dtype is requested."""
    if isinstance(value, (np.ndarray, np.generic)):
        return dtypes.from_numpy(value.dtype)
    if isinstance(value, bool):
        return dtypes.bool
    if isinstance(value, int):
        return dtypes.int32 if -2**31 <= value < 2**31 else dtypes.int64
    if isinstance(value, float):
        return dtypes.float32
    if isinstance(value, (str, bytes)):
        return dtypes.string
    if isinstance(value, (list, tuple)):
        kinds = set()
        _leaf_dtypes(value, kinds)
        if not kinds:
            return dtypes.float32
        if dtypes.string in kinds:
            return dtypes.string
        if dtypes.bool in kinds:
            if len(kinds) > 1:
                raise TypeError(f'Cannot convert {value!r} to a tensor: it mixes bools and numbers.')
            return dtypes.bool
        floats = [k for k in kinds if k.is_floating]
        if floats:
            return max(floats, key=lambda d: d.np_dtype.itemsize)
        return max(kinds, key=lambda d: d.np_dtype.itemsize)
    raise TypeError(f'Cannot convert {value!r} of type {type(value).__name__} to a tensor.')


def _leaf_dtypes(value, kinds):
    for item in value:
        if isinstance(item, (list, tuple)):
            _leaf_dtypes(item, kinds)
        elif isinstance(item, EagerTensor):
            kinds.add(item.dtype)
        else:
            kinds.add(infer_dtype(item))


def to_numpy(value, dtype=None):
    """A numpy value of `dtype` (inferred when None) for a Python/numpy value, checked to fit.

    Python floats do not convert to integer or bool dtypes, and numbers out of a dtype's range
    raise TypeError, as in TensorFlow.
    """
    if dtype is None:
        dtype = infer_dtype(value)
    else:
        _check_fits(value, dtype)
    if dtype is dtypes.string:
        arr = np.array(_encode(value), dtype=object)
    else:
        arr = np.array(_unwrap(value), dtype=dtype.np_dtype)
    return arr[()] if arr.ndim == 0 else arr


def _unwrap(value):
    if isinstance(value, (list, tuple)):
        return [_unwrap(v) for v in value]
    if isinstance(value, EagerTensor):
        return value._value
    return value


def _encode(value):
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, str):
        return value.encode('utf-8')
    if isinstance(value, np.ndarray):
        return [_encode(v) for v in value.tolist()]
    return value


def _check_fits(value, dtype):
    if isinstance(value, (list, tuple)):
        for v in value:
            _check_fits(v, dtype)
        return
    if isinstance(value, EagerTensor):
        if value.dtype is not dtype:
            raise TypeError(f'Cannot convert a {value.dtype.name} tensor to {dtype.name}; '
                            f'use rt.cast.')
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind in 'biuf' and dtype.is_numeric or dtype.is_bool:
            source = dtypes.from_numpy(value.dtype)
            if source.is_floating and not dtype.is_floating or source.is_bool != dtype.is_bool:
                raise TypeError(f'Cannot convert a numpy array of {value.dtype} to {dtype.name}.')
        return
    if dtype is dtypes.string:
        if not isinstance(value, (str, bytes, np.str_, np.bytes_)):
            raise TypeError(f'Expected a string for dtype string, got {value!r}.')
        return
    if isinstance(value, (bool, np.bool_)):
        if not dtype.is_bool:
            raise TypeError(f'Cannot convert {value!r} of type bool to {dtype.name}.')
        return
    if dtype.is_bool:
        raise TypeError(f'Cannot convert {value!r} of type {type(value).__name__} to bool.')
    if isinstance(value, (float, np.floating)):
        if not dtype.is_floating:
            raise TypeError(f'Cannot convert {value!r} to {dtype.name}: a float does not fit an '
                            f'integer dtype. Use a float tensor or rt.cast.')
        return
    if isinstance(value, (int, np.integer)):
        if dtype.is_integer and not dtype.min <= value <= dtype.max:
            raise TypeError(f'Cannot convert {value!r} to {dtype.name}: out of range '
                            f'[{dtype.min}, {dtype.max}].')
        return
    raise TypeError(f'Cannot convert {value!r} of type {type(value).__name__} to a tensor of '
                    f'{dtype.name}.')
