"""Comparisons, logical ops and `where`."""
import operator

import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor, unify_inputs, unify_operands
from runtime.ops.dispatch import apply, binary_op_function
from runtime.ops.infer import broadcast, broadcast_bool, broadcast_shape, same_as_input
from runtime.ops.registry import ELEMENTWISE, Elementwise, register

# Equal and NotEqual use numpy's functions, which compare strings (Python bytes) elementwise
# too; `==` is the same for numeric and bool operands, which is what the `operator` tag
# promises.
_COMPARISONS = {  # public name: (TensorFlow op, kernel, Python operator)
    'equal': ('Equal', np.equal, operator.eq),
    'not_equal': ('NotEqual', np.not_equal, operator.ne),
    'greater': ('Greater', operator.gt, operator.gt),
    'greater_equal': ('GreaterEqual', operator.ge, operator.ge),
    'less': ('Less', operator.lt, operator.lt),
    'less_equal': ('LessEqual', operator.le, operator.le),
}
OPS = {name: register(op, kernel, broadcast_bool, inputs=('x', 'y'), outputs=('z',),
                      convert_inputs=unify_inputs, operator=python_operator,
                      elementwise=Elementwise.of(kernel))
       for name, (op, kernel, python_operator) in _COMPARISONS.items()}
LOGICAL_AND = register('LogicalAnd', np.logical_and, broadcast, inputs=('x', 'y'),
                       outputs=('z',), type_attrs=(), elementwise=Elementwise(np.logical_and))
LOGICAL_OR = register('LogicalOr', np.logical_or, broadcast, inputs=('x', 'y'), outputs=('z',),
                      type_attrs=(), elementwise=Elementwise(np.logical_or))
LOGICAL_NOT = register('LogicalNot', np.logical_not, same_as_input, outputs=('y',), type_attrs=(),
                       involution=True, elementwise=Elementwise(np.logical_not))


def _comparison(public_name):
    opdef = OPS[public_name]
    return binary_op_function(
        opdef, public_name, f'Elementwise `{public_name}`, a bool tensor (op `{opdef.name}`).')


equal = _comparison('equal')
not_equal = _comparison('not_equal')
greater = _comparison('greater')
greater_equal = _comparison('greater_equal')
less = _comparison('less')
less_equal = _comparison('less_equal')


def _bool_operands(op_name, *values):
    inputs, dtype = unify_operands(op_name, *values)
    if dtype is not dtypes.bool:
        raise TypeError(f'{op_name} needs bool tensors, got {dtype.name}.')
    return inputs


def logical_and(x, y, name=None):
    return apply(LOGICAL_AND, _bool_operands('LogicalAnd', x, y), name=name)


def logical_or(x, y, name=None):
    return apply(LOGICAL_OR, _bool_operands('LogicalOr', x, y), name=name)


def logical_not(x, name=None):
    return apply(LOGICAL_NOT, _bool_operands('LogicalNot', x), name=name)


def _select_infer(inputs, attrs):
    shape = broadcast_shape(inputs[0].shape, broadcast_shape(inputs[1].shape, inputs[2].shape))
    return [(inputs[1].dtype, shape)]


SELECT = register('SelectV2', np.where, _select_infer, inputs=('condition', 't', 'e'),
                  outputs=('output',), type_attrs=(('T', 1),), elementwise=ELEMENTWISE)
WHERE = register('Where', lambda x: np.argwhere(x).astype(np.int64),
                 lambda inputs, attrs: [(dtypes.int64, TensorShape([None, inputs[0].shape.rank]))],
                 inputs=('input',), outputs=('index',))


def where(condition, x=None, y=None, name=None):
    """Elementwise choice `x` where `condition` else `y` (op `SelectV2`); with only
    `condition`, the int64 coordinates of its true elements (op `Where`)."""
    condition = convert_to_tensor(condition)
    if x is None and y is None:  # Where takes any dtype: the coordinates of non-zero elements
        return apply(WHERE, [condition], name=name)
    if condition.dtype is not dtypes.bool:
        raise TypeError(f'rt.where needs a bool condition, got {condition.dtype.name}.')
    if x is None or y is None:
        raise ValueError('rt.where needs both x and y, or neither.')
    (x, y), _ = unify_operands('SelectV2', x, y)
    return apply(SELECT, [condition, x, y], name=name)
