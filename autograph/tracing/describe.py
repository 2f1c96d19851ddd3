"""Signatures as users read them: `TensorSpec(shape=(), dtype=rt.float32, name=None)`,
`Literal[1]`, `List[Literal[1], Literal[-1]]`, and the structured input signature.

Descriptions are computed once at trace time from the key and the traced arguments, so that
a ConcreteFunction keeps no reference to the objects it was traced with.
"""
import weakref

from autograph.tracing.keys import (
    TENSOR_LEAVES,
    ContainerKey,
    DatasetKey,
    ObjectKey,
    TensorKey,
    VariableKey,
    rebuild,
)
from runtime.core.nest import is_namedtuple, sort_key
from runtime.core.tensor_spec import TensorSpec


class WeakObject:
    """Stands for an object argument in a structured input signature, without keeping it alive."""

    __slots__ = ('type_name', 'ref')

    def __init__(self, value):
        self.type_name = type(value).__name__
        self.ref = weakref.ref(value)

    def __repr__(self):
        return f'Weakref[{self.type_name}]'


def spec_of(element):
    """The TensorSpec of a tensor or Variable key element."""
    return TensorSpec(element.shape, element.dtype)


def describe(element, value):
    """How the argument `value` with key `element` prints in a signature."""
    kind = type(element)
    if kind is TensorKey:
        return repr(spec_of(element))
    if kind is VariableKey:
        return f'VariableSpec(shape={spec_of(element).shape}, dtype={element.dtype!r})'
    if kind is ObjectKey:
        return f'Weakref[{type(value).__name__}]'
    if kind is DatasetKey:
        return repr(element.spec)
    if kind is not ContainerKey:
        return f'Literal[{value!r}]'
    if issubclass(element.kind, dict):
        return 'Dict[' + ', '.join(f'{k!r}: {describe(child, value[k])}'
                                   for k, child in element.children) + ']'
    children = [describe(child, item) for child, item in zip(element.children, value)]
    if is_namedtuple(value):
        fields = ', '.join(f'{f}={c}' for f, c in zip(element.kind._fields, children))
        return f'{element.kind.__name__}[{fields}]'
    return f'{"List" if issubclass(element.kind, list) else "Tuple"}[{", ".join(children)}]'


def structured(element, value, name):
    """The argument as it appears in `structured_input_signature`: TensorSpecs for tensors
    (named `name` at the top level), Python values as themselves, objects as `WeakObject`s."""
    def leaf(leaf_element, leaf_value):
        kind = type(leaf_element)
        if kind in TENSOR_LEAVES:
            return TensorSpec(leaf_element.shape, leaf_element.dtype,
                              name if leaf_element is element else None)
        if kind is DatasetKey:
            return leaf_element.spec
        return WeakObject(leaf_value) if kind is ObjectKey else leaf_value

    return rebuild(element, value, leaf)


def describe_output(value):
    """How a traced function's structured output prints: its tensors as TensorSpecs."""
    if value is None:
        return 'Literal[None]'
    if isinstance(value, dict):
        return 'Dict[' + ', '.join(f'{k!r}: {describe_output(value[k])}'
                                   for k in sorted(value, key=sort_key)) + ']'
    if isinstance(value, (list, tuple)):
        children = [describe_output(v) for v in value]
        if is_namedtuple(value):
            fields = ', '.join(f'{f}={c}' for f, c in zip(type(value)._fields, children))
            return f'{type(value).__name__}[{fields}]'
        return f'{"List" if isinstance(value, list) else "Tuple"}[{", ".join(children)}]'
    if hasattr(value, 'dtype') and hasattr(value, 'shape'):
        return repr(TensorSpec(value.shape, value.dtype))
    return type(value).__name__
