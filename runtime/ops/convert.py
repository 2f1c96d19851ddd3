"""Python and numpy values to tensors, with TensorFlow's rules (docs/runtime.md).

`infer_dtype` picks the dtype a value converts to, `to_numpy` makes the numpy value and
`check_fits` refuses what TensorFlow refuses (a float into an int dtype, an out-of-range int).
`convert_to_tensor` and `constant` make tensors; `unify_operands` gives the operands of an
elementwise op one dtype (Python numbers take the dtype of the tensor operands); a list that
holds symbolic tensors converts by packing them (op `Pack`, declared here).
"""
import numpy as np

from runtime.core import context, dtypes
from runtime.core.shapes import TensorShape, as_shape
from runtime.core.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.ops.dispatch import apply, build
from runtime.ops.infer import moves_elements
from runtime.ops.registry import CONST, register


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
    if isinstance(value, complex):
        return dtypes.complex128
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
                raise TypeError(f'Cannot convert {value!r} to a tensor: it mixes bools and '
                                f'numbers.')
            return dtypes.bool
        floats = [k for k in kinds if k.is_complex] or [k for k in kinds if k.is_floating]
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
        check_fits(value, dtype)
    if dtype is dtypes.string:
        arr = np.array(_encode(value), dtype=object)
    else:
        arr = np.array(_unwrap(value), dtype=dtype.np_dtype)
    return arr[()] if arr.ndim == 0 else arr


def _unwrap(value):
    if isinstance(value, (list, tuple)):
        return [_unwrap(v) for v in value]
    if isinstance(value, EagerTensor):
        return value.value
    return value


def _encode(value):
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, str):
        return value.encode('utf-8')
    if isinstance(value, np.ndarray):
        return _encode(value.tolist())   # a 0-d array's tolist() is its one element
    return value


def check_fits(value, dtype):
    if isinstance(value, (list, tuple)):
        for v in value:
            check_fits(v, dtype)
        return
    if isinstance(value, EagerTensor):
        if value.dtype is not dtype:
            raise TypeError(f'Cannot convert a {value.dtype.name} tensor to {dtype.name}; '
                            f'use rt.cast.')
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind in 'biufc' and (dtype.is_numeric or dtype.is_complex) or \
                dtype.is_bool:
            source = dtypes.from_numpy(value.dtype)
            if (source.is_floating and not (dtype.is_floating or dtype.is_complex) or
                    source.is_complex and not dtype.is_complex or source.is_bool != dtype.is_bool):
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
    if isinstance(value, (complex, np.complexfloating)):
        if not dtype.is_complex:
            raise TypeError(f'Cannot convert {value!r} to {dtype.name}: a complex number fits '
                            f'only complex64 or complex128. Use rt.math.real or rt.cast.')
        return
    if isinstance(value, (float, np.floating)):
        if not (dtype.is_floating or dtype.is_complex):
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


_PLAIN = (np.ndarray, np.generic, list, tuple, str, bytes, int, float, complex)


def from_array_protocol(value):
    """An object with `__array__` (a pandas DataFrame or Series, an xarray, ...) as numpy's
    `np.asarray` of it; any other value unchanged."""
    if not isinstance(value, _PLAIN) and hasattr(type(value), '__array__'):
        return np.asarray(value)
    return value


def constant(value, dtype=None, shape=None, name=None):
    """A tensor holding `value`: eager, or a Const node when a graph is being built."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    value = from_array_protocol(value)
    if isinstance(value, EagerTensor):
        value = value.value if dtype is None or dtype is value.dtype else value.value.astype(
            dtype.np_dtype)
    if dtype is None:
        dtype = infer_dtype(value)
    arr = to_numpy(value, dtype)
    if shape is not None:
        arr = _reshape_constant(arr, list(as_shape(shape)))
    graph = context.current_graph()
    if graph is None:
        return EagerTensor(arr, dtype)
    return build(graph, CONST, [], {'dtype': dtype, 'value': arr}, name or 'Const')


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


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """A Tensor for `value`: tensors pass through (dtype checked), Variables are read, Python
    and numpy values follow TensorFlow's conversion rules (see docs/runtime.md). `dtype_hint`:
    the dtype a Python or numpy value takes when `dtype` is None and it converts to it (else
    its own)."""
    if dtype is None and dtype_hint is not None and not isinstance(value, Tensor) and \
            not hasattr(value, '__tf_tensor__'):
        try:
            return convert_to_tensor(value, dtype_hint, name=name)
        except (TypeError, ValueError):
            pass  # TensorFlow too falls back to the value's own dtype
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not dtypes.as_dtype(dtype):
            raise TypeError(f'Expected a {dtypes.as_dtype(dtype).name} tensor, got '
                            f'{value.dtype.name}; use rt.cast to convert it.')
        return value
    as_tensor = getattr(value, '__tf_tensor__', None)
    if as_tensor is not None:
        return convert_to_tensor(as_tensor(dtype, name), dtype)
    if isinstance(value, (list, tuple)) and _holds_symbolic(value):
        return stack([convert_to_tensor(v, dtype) for v in value])
    return constant(value, dtype, name=name)


def convert_for_write(value, dtype):
    """The tensor to store in a cell of `dtype` (a variable, a TensorArray element, a loop
    variable): tensors and variables as they are, Python and numpy values converted to `dtype`.
    The caller checks the dtype and shape, naming what is written to."""
    if isinstance(value, Tensor) or hasattr(value, '__tf_tensor__'):
        return convert_to_tensor(value)
    return convert_to_tensor(value, dtype)


def int_operand(value, what='shape'):
    """A shape-like argument (a shape, dims, sizes, multiples, paddings, begin, perm, an axis) as
    an op operand: an integer tensor as it is; Python and numpy ints as an int32 numpy value
    (int64 where one does not fit); a (nested) list mixing tensors and Python ints, the way
    TensorFlow code writes `[rt.shape(x)[0], 8]`, as one tensor of the first tensor's dtype
    (int32 or int64) -- a `Pack` when one is symbolic, whose known elements the static shapes
    keep (`runtime.ops.infer.constant_value_as_shape`). `what` names the argument in errors."""
    if isinstance(value, Tensor):
        if not value.dtype.is_integer:
            raise TypeError(f'{what} must be an integer tensor, got {value.dtype.name}.')
        return value
    as_tensor = getattr(value, '__tf_tensor__', None)
    if as_tensor is not None:
        return int_operand(as_tensor(), what)
    if isinstance(value, TensorShape):
        value = value.as_list()
    if isinstance(value, (list, tuple)):
        dtype = _tensor_dtype(value, what)
        if dtype is not None:
            if _holds_symbolic(value):
                return _pack_ints(value, dtype, what)
            return to_numpy(value, dtype)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype in (np.int32, np.int64):
        return value
    try:
        return np.asarray(value, dtype=np.int32)
    except OverflowError:
        return np.asarray(value, dtype=np.int64)


def _tensor_dtype(value, what):
    """The dtype of the tensors in a nested list (TypeError if they differ or are not
    integers), or None when it holds none."""
    found = None
    for item in value:
        if isinstance(item, (list, tuple)):
            dtype = _tensor_dtype(item, what)
        elif isinstance(item, Tensor):
            dtype = item.dtype
            if not dtype.is_integer:
                raise TypeError(f'{what} must hold integers, got a {dtype.name} tensor.')
        else:
            continue
        if found is None:
            found = dtype
        elif dtype is not None and dtype is not found:
            raise TypeError(f'{what} mixes {found.name} and {dtype.name} tensors; use rt.cast '
                            f'to give them one dtype.')
    return found


def _pack_ints(value, dtype, what):
    items = [_pack_ints(v, dtype, what) if isinstance(v, (list, tuple)) else
             v if isinstance(v, Tensor) else to_numpy(v, dtype) for v in value]
    return stack(items)


def _holds_symbolic(value):
    return any(isinstance(v, SymbolicTensor) or
               (isinstance(v, (list, tuple)) and _holds_symbolic(v)) for v in value)


def unify_operands(op_name, *values):
    """Tensors and numpy values of one common dtype for an elementwise op, and that dtype.

    Python and numpy operands take the dtype of the tensor operands (`x + 1`,
    `rt.maximum(0., x)`); tensors of different dtypes are a TypeError naming both.
    """
    dtype = None
    out = list(values)
    for i, v in enumerate(values):
        if not isinstance(v, Tensor):
            as_tensor = getattr(v, '__tf_tensor__', None)
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


def unify_inputs(op_name, inputs):
    """`OpDef.convert_inputs` for ops whose inputs all share one dtype."""
    return unify_operands(op_name, *inputs)[0]


# ---- Pack: a list of tensors as one tensor ------------------------------------------------------

def _pack_kernel(*values, axis=0, N=None):
    return np.stack(values, axis=axis)


def _pack_infer(inputs, attrs):
    shape = inputs[0].shape
    for t in inputs[1:]:
        shape = shape.merge_with(t.shape)
    if shape.rank is None:
        return [(inputs[0].dtype, TensorShape(None))]
    dims = shape.as_list()
    axis = attrs.get('axis', 0)
    dims.insert(axis if axis >= 0 else len(dims) + 1 + axis, len(inputs))
    return [(inputs[0].dtype, TensorShape(dims))]


PACK = register('Pack', _pack_kernel, _pack_infer, inputs=('values',), outputs=('output',),
                defaults={'axis': 0}, convert_inputs=unify_inputs, partial=moves_elements)


def stack(values, axis=0, name=None):
    """Stack tensors of one shape along a new `axis` (op `Pack`)."""
    attrs = {'N': len(values)}
    if axis:
        attrs['axis'] = axis
    return apply(PACK, list(values), attrs, name=name)
