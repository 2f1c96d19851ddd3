"""Creating tensors: `fill`, `zeros`, `ones`, `zeros_like`, `ones_like`, `eye`, `range` (ops
`Fill`, `ZerosLike`, `OnesLike`, `Range`; constants where the values are known now)."""
import builtins

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape, as_shape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.compare import equal
from runtime.ops.convert import (
    constant,
    convert_to_tensor,
    infer_dtype,
    int_operand,
    to_numpy,
    unify_operands,
)
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value, same_as_input
from runtime.ops.registry import ELEMENTWISE, register
from runtime.ops.shaping import broadcast_to, concat, expand_dims, shape_from, shape_operand
from runtime.ops.shaping import shape as shape_


def _fill_infer(inputs, attrs):
    dims = constant_value(inputs[0])
    if dims is not None and np.any(np.asarray(dims) < 0):
        raise ValueError(f'Fill dimensions must be >= 0, got {np.asarray(dims).tolist()}')
    return [(inputs[1].dtype, shape_from(inputs[0]))]


FILL = register('Fill', lambda dims, value: np.full(tuple(dims), value), _fill_infer,
                inputs=('dims', 'value'), outputs=('output',),
                type_attrs=(('T', 1), ('index_type', 0)))
ZEROS_LIKE = register('ZerosLike', np.zeros_like, same_as_input, elementwise=ELEMENTWISE)
ONES_LIKE = register('OnesLike', np.ones_like, same_as_input, elementwise=ELEMENTWISE)


def fill(dims, value, name=None):
    value = convert_to_tensor(value) if isinstance(value, Tensor) else value
    value_in, dtype = unify_operands('Fill', value)
    return apply(FILL, [shape_operand(dims), value_in[0]], name=name)


def _filled(value, shape, dtype, name):
    dtype = dtypes.as_dtype(dtype)
    if isinstance(shape, Tensor) and shape.shape.rank == 0:  # one size, as TensorFlow takes
        shape = [shape]
    if isinstance(shape, Tensor) or (isinstance(shape, (list, tuple)) and
                                      any(isinstance(d, Tensor) for d in shape)):
        return fill(shape, dtype.np_dtype.type(value), name=name)
    return constant(np.full(tuple(as_shape(shape).as_list()), value, dtype=dtype.np_dtype),
                    dtype, name=name or ('zeros' if value == 0 else 'ones'))


def zeros(shape, dtype=dtypes.float32, name=None):
    return _filled(0, shape, dtype, name)


def ones(shape, dtype=dtypes.float32, name=None):
    return _filled(1, shape, dtype, name)


def zeros_like(input, dtype=None, name=None):
    x = convert_to_tensor(input)
    out = apply(ZEROS_LIKE, [x], name=name)
    return out if dtype is None else cast(out, dtype)


def ones_like(input, dtype=None, name=None):
    x = convert_to_tensor(input)
    out = apply(ONES_LIKE, [x], name=name)
    return out if dtype is None else cast(out, dtype)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix, or a batch of them of shape `batch_shape + [rows, columns]`: a
    constant when the sizes are known now, else built from `Range`s (sizes that are tensors,
    `rt.shape(x)[0]`, inside a function)."""
    dtype = dtypes.as_dtype(dtype)
    rows = _known_int(num_rows)
    cols = rows if num_columns is None else _known_int(num_columns)
    batch = None if batch_shape is None else _known_dims(batch_shape)
    if rows is not None and cols is not None and (batch_shape is None or batch is not None):
        matrix = np.eye(rows, cols, dtype=dtype.np_dtype)
        if batch is not None:
            matrix = np.broadcast_to(matrix, batch + list(matrix.shape)).copy()
        return constant(matrix, dtype, name=name or 'eye')
    rows = int_operand(num_rows, 'num_rows')
    cols = rows if num_columns is None else int_operand(num_columns, 'num_columns')
    same = equal(expand_dims(range(rows), 1), expand_dims(range(cols), 0))
    if batch_shape is None:
        return cast(same, dtype, name=name)
    dims = concat([int_operand(batch_shape, 'batch_shape'), shape_(same)], 0)
    return broadcast_to(cast(same, dtype), dims, name=name)


def _known_int(value):
    known = constant_value(value) if isinstance(value, Tensor) else value
    return None if known is None else int(known)


def _known_dims(value):
    known = constant_value(value) if isinstance(value, Tensor) else value
    return None if known is None else [int(d) for d in np.ravel(np.asarray(known))]


def _range_kernel(start, limit, delta):
    if delta == 0:
        raise errors.InvalidArgumentError(message='Requires delta != 0')
    return np.arange(start, limit, delta, dtype=np.result_type(start, limit, delta))


def _range_infer(inputs, attrs):
    values = [constant_value(t) for t in inputs]
    if any(v is None for v in values):
        return [(inputs[0].dtype, TensorShape([None]))]
    return [(inputs[0].dtype, TensorShape([len(builtins.range(*[int(v) for v in values]))
                                           if inputs[0].dtype.is_integer else
                                           len(np.arange(*values))]))]


RANGE = register('Range', _range_kernel, _range_infer, inputs=('start', 'limit', 'delta'),
                 outputs=('output',), type_attrs=(('Tidx', 0),))


# The dtypes rt.range takes, narrowest first: without `dtype=`, the widest operand's wins.
RANGE_DTYPES = (dtypes.int32, dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64)


def range(start, limit=None, delta=1, dtype=None, name=None):  # noqa: A001 - rt.range
    """Numbers from `start` up to (not including) `limit` by `delta` (op `Range`).

    The dtype follows TensorFlow: `dtype` when given (tensor operands are cast to it, Python
    numbers must fit it), else the widest dtype of the operands, each converted on its own, in
    the order int32 < int64 < float16 < float32 < float64 (`rt.range(2**32 + 3)` is int64).
    """
    if limit is None:
        start, limit = 0, start
    operands = [convert_to_tensor(v) if isinstance(v, Tensor) or hasattr(v, '__tf_tensor__')
                else v for v in (start, limit, delta)]
    if dtype is None:
        kinds = [v.dtype if isinstance(v, Tensor) else infer_dtype(v) for v in operands]
        for kind in kinds:
            if kind not in RANGE_DTYPES:
                raise TypeError(f'rt.range: the operands must be int32, int64, float16, float32 '
                                f'or float64 values, got a {kind.name} one; use rt.cast or '
                                f'pass dtype=.')
        dtype = max(kinds, key=RANGE_DTYPES.index)
    else:
        dtype = dtypes.as_dtype(dtype)
    inputs = [(v if v.dtype is dtype else cast(v, dtype)) if isinstance(v, Tensor) else
              to_numpy(v, dtype) for v in operands]
    return apply(RANGE, inputs, name=name)
