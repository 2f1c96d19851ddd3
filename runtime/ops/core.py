"""Const, Placeholder and Identity, and the conversion of Python values to tensors."""
import numpy as np

from runtime import context, dtypes
from runtime.ops.registry import apply, build, register, same_as_input
from runtime.shapes import TensorShape, as_shape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, infer_dtype, to_numpy

CONST = register('Const', infer=lambda inputs, attrs: [(attrs['dtype'], TensorShape(
    np.shape(attrs['value'])))], inputs=(), outputs=('output',), type_attrs=())
PLACEHOLDER = register('Placeholder', infer=lambda inputs, attrs: [(attrs['dtype'],
                       attrs['shape'])], inputs=(), outputs=('output',), type_attrs=())
IDENTITY = register('Identity', lambda x: x, same_as_input, inputs=('input',),
                    outputs=('output',), native='{0}')


def const_node(graph, value, dtype, name):
    """A Const op in `graph` holding `value` (a numpy value of `dtype`)."""
    return build(graph, CONST, [], {'dtype': dtype, 'value': value}, name)


def placeholder_node(graph, dtype, shape, name):
    return build(graph, PLACEHOLDER, [], {'dtype': dtype, 'shape': shape}, name)


def placeholder(dtype, shape=None, name=None):
    """A graph input to feed when the graph runs. Only inside `with graph.as_default():`."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError('rt.placeholder() needs a graph: use it inside '
                           '`with rt.Graph().as_default():`.')
    return placeholder_node(graph, dtypes.as_dtype(dtype), as_shape(shape), name or 'Placeholder')


def constant(value, dtype=None, shape=None, name=None):
    """A tensor holding `value`: eager, or a Const node when a graph is being built."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    if isinstance(value, EagerTensor):
        value = value._value if dtype is None or dtype is value.dtype else value._value.astype(
            dtype.np_dtype)
    if dtype is None:
        dtype = infer_dtype(value)
    arr = to_numpy(value, dtype)
    if shape is not None:
        arr = _reshape_constant(arr, list(as_shape(shape)))
    graph = context.current_graph()
    if graph is None:
        return EagerTensor(arr, dtype)
    return const_node(graph, arr, dtype, name or 'Const')


def _reshape_constant(arr, shape):
    size = int(np.prod(shape, dtype=np.int64))
    if np.size(arr) == 1:
        out = np.full(shape, arr, dtype=np.asarray(arr).dtype)
    elif np.size(arr) == size:
        out = np.reshape(arr, shape)
    else:
        raise TypeError(f'Cannot make a constant of shape {tuple(shape)} from {np.size(arr)} '
                        f'values; give one value or exactly {size}.')
    return out[()] if out.ndim == 0 else out


def convert_to_tensor(value, dtype=None, name=None):
    """A Tensor for `value`: tensors pass through (dtype checked), Variables are read, Python
    and numpy values follow TensorFlow's conversion rules (see docs/runtime.md)."""
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not dtypes.as_dtype(dtype):
            raise TypeError(f'Expected a {dtypes.as_dtype(dtype).name} tensor, got '
                            f'{value.dtype.name}; use rt.cast to convert it.')
        return value
    as_tensor = getattr(value, '_as_tensor', None)
    if as_tensor is not None:
        return convert_to_tensor(as_tensor(), dtype)
    if isinstance(value, (list, tuple)) and _holds_symbolic(value):
        from runtime.ops.array import stack
        return stack([convert_to_tensor(v, dtype) for v in value])
    return constant(value, dtype, name=name)


def _holds_symbolic(value):
    return any(isinstance(v, SymbolicTensor) or
               (isinstance(v, (list, tuple)) and _holds_symbolic(v)) for v in value)


def operands(op_name, *values):
    """Tensors and numpy values of one common dtype for an elementwise op.

    Python and numpy operands take the dtype of the tensor operands (`x + 1`,
    `rt.maximum(0., x)`); tensors of different dtypes are a TypeError naming both.
    """
    dtype = None
    out = list(values)
    for i, v in enumerate(values):
        if not isinstance(v, Tensor):
            as_tensor = getattr(v, '_as_tensor', None)
            if as_tensor is None:
                continue
            v = out[i] = as_tensor()
        if dtype is None:
            dtype = v.dtype
        elif v.dtype is not dtype:
            raise TypeError(f'{op_name}: the operands must have the same dtype, got '
                            f'{dtype.name} and {v.dtype.name}; use rt.cast to convert one of '
                            f'them (there is no implicit promotion).')
    if dtype is None:
        dtype = infer_dtype(list(values))
    for i, v in enumerate(out):
        if not isinstance(v, Tensor):
            if isinstance(v, (list, tuple)) and _holds_symbolic(v):
                out[i] = convert_to_tensor(v, dtype)
            else:
                out[i] = to_numpy(v, dtype)
    return out, dtype


def identity(input, name=None):
    return apply(IDENTITY, [convert_to_tensor(input)], name=name)
