"""Python operators on tensors and variables: `+ - * / // % ** @`, comparisons, `[]`, `abs`.

Installed here, in one place, so that `runtime.tensor` does not import the op modules.
`==` and `!=` are elementwise, as in TensorFlow 2.
"""
from runtime.ops import array, compare, math
from runtime.tensor import Tensor
from runtime.variables import Variable


def _reflected(fn):
    def reflected(self, other):
        return fn(other, self)
    return reflected


_BINARY = {
    'add': math.add, 'sub': math.subtract, 'mul': math.multiply, 'truediv': math.divide,
    'floordiv': math.floordiv, 'mod': math.mod, 'pow': math.pow, 'matmul': math.matmul,
}
_COMPARE = {
    'lt': compare.less, 'le': compare.less_equal, 'gt': compare.greater,
    'ge': compare.greater_equal,
}


def install(cls):
    for name, fn in _BINARY.items():
        setattr(cls, f'__{name}__', lambda self, other, fn=fn: fn(self, other))
        setattr(cls, f'__r{name}__', _reflected(fn))
    for name, fn in _COMPARE.items():
        setattr(cls, f'__{name}__', lambda self, other, fn=fn: fn(self, other))
    # `t == None` is False and `t != None` True, as in TensorFlow 2 (no None tensor exists).
    cls.__eq__ = lambda self, other: False if other is None else compare.equal(self, other)
    cls.__ne__ = lambda self, other: True if other is None else compare.not_equal(self, other)
    cls.__and__ = compare.logical_and
    cls.__rand__ = _reflected(compare.logical_and)
    cls.__or__ = compare.logical_or
    cls.__ror__ = _reflected(compare.logical_or)
    cls.__invert__ = lambda self: compare.logical_not(self)
    cls.__neg__ = lambda self: math.negative(self)
    cls.__pos__ = lambda self: self
    cls.__abs__ = lambda self: math.abs(self)
    cls.__getitem__ = lambda self, index: array.strided_slice(self, index)
    cls.__hash__ = object.__hash__


install(Tensor)
install(Variable)
