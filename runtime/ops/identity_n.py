"""IdentityN: its inputs, unchanged; with a `_gradient_op_type` attr (a CustomGradient) its
gradient is a user's function (`rt.custom_gradient`, runtime/custom_gradient.py), as in
TensorFlow, whose graphs hold the same op and attr."""
import itertools
from dataclasses import dataclass
from typing import Callable

from runtime.ops.dispatch import apply
from runtime.ops.registry import register

_numbers = itertools.count(1)


@dataclass(frozen=True, eq=False)
class CustomGradient:
    """The value of an IdentityN's `_gradient_op_type` attr: `gradient(op, *output_grads)`
    gives its input gradients; it prints as TensorFlow names it (`CustomGradient-3`)."""
    gradient: Callable
    number: int

    def __repr__(self):
        return f'CustomGradient-{self.number}'


def custom_gradient_attr(gradient):
    return CustomGradient(gradient, next(_numbers))


IDENTITY_N = register('IdentityN', lambda *inputs, **attrs: tuple(inputs),
                      lambda inputs, attrs: [(t.dtype, t.shape) for t in inputs],
                      inputs=('input',), outputs='output', type_attrs=())


def identity_n(values, gradient=None, name=None):
    """`values` through one IdentityN op (a list of its outputs); `gradient`, a
    CustomGradient, replaces the op's gradient."""
    attrs = {'T': [v.dtype for v in values]}
    if gradient is not None:
        attrs['_gradient_op_type'] = gradient
    return apply(IDENTITY_N, list(values), attrs, name=name)
