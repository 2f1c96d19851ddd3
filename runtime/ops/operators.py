"""Python operators on tensors and variables: `+ - * / // % ** @`, comparisons, `[]`, `abs`.

Installed here, in one place, so that `runtime.core.tensor` does not import the op modules.
`==` and `!=` are elementwise, as in TensorFlow 2.
"""
from runtime.core.tensor import Tensor
from runtime.ops import compare, math, slicing
from runtime.variables import Variable, VariableSlice


def _reflected(fn):
    def reflected(self, other):
        return fn(other, self)
    return reflected


_COMPARE = {
    'lt': compare.less, 'le': compare.less_equal, 'gt': compare.greater,
    'ge': compare.greater_equal,
}


def install(cls):
    # The op functions are the methods themselves (functions are descriptors: `x + y` calls
    # `add(x, y)`), which saves a call on the eager hot path.
    for name, fn in math.OPERATORS.items():
        setattr(cls, f'__{name}__', fn)
        setattr(cls, f'__r{name}__', _reflected(fn))
    for name, fn in _COMPARE.items():
        setattr(cls, f'__{name}__', fn)
    # `t == None` is False and `t != None` True, as in TensorFlow 2 (no None tensor exists).
    cls.__eq__ = lambda self, other: False if other is None else compare.equal(self, other)
    cls.__ne__ = lambda self, other: True if other is None else compare.not_equal(self, other)
    cls.__and__ = compare.logical_and
    cls.__rand__ = _reflected(compare.logical_and)
    cls.__or__ = compare.logical_or
    cls.__ror__ = _reflected(compare.logical_or)
    cls.__invert__ = compare.logical_not
    cls.__neg__ = math.negative
    cls.__pos__ = lambda self: self
    cls.__abs__ = math.abs
    if '__getitem__' not in cls.__dict__:  # a Variable's slices can also be assigned
        cls.__getitem__ = slicing.strided_slice
    # `__hash__` stays the class's own: tensors and variables are unhashable (`.ref()` is)


install(Tensor)
install(Variable)
install(VariableSlice)
