"""Signatures as users read them: `TensorSpec(shape=(), dtype=rt.float32, name=None)`,
`Literal[1]`, `List[Literal[1], Literal[-1]]`, and the structured input signature.

Descriptions are computed once at trace time from the key and the traced arguments, so that
a ConcreteFunction keeps no reference to the objects it was traced with.
"""
import weakref

from runtime.nest import is_namedtuple, sort_key
from runtime.tensor_spec import TensorSpec
from autograph.tracing.keys import LITERALS, OBJECT, VALUE, is_tensor_leaf


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
    return TensorSpec(element[1], element[0])


def describe(element, value):
    """How the argument `value` with key `element` prints in a signature."""
    if is_tensor_leaf(element):
        if len(element) == 3:
            return f'VariableSpec(shape={spec_of(element).shape}, dtype={element[0]!r})'
        return repr(spec_of(element))
    kind, content = element
    if kind is OBJECT:
        return f'Weakref[{type(value).__name__}]'
    if kind is VALUE or kind in LITERALS:
        return f'Literal[{value!r}]'
    if issubclass(kind, dict):
        return 'Dict[' + ', '.join(f'{k!r}: {describe(child, value[k])}'
                                   for k, child in content) + ']'
    children = [describe(child, item) for child, item in zip(content, value)]
    if is_namedtuple(value):
        fields = ', '.join(f'{f}={c}' for f, c in zip(kind._fields, children))
        return f'{kind.__name__}[{fields}]'
    return f'{"List" if issubclass(kind, list) else "Tuple"}[{", ".join(children)}]'


def structured(element, value, name):
    """The argument as it appears in `structured_input_signature`: TensorSpecs for tensors,
    Python values as themselves, objects as `WeakObject`s."""
    if is_tensor_leaf(element):
        return TensorSpec(element[1], element[0], name)
    kind, content = element
    if kind is OBJECT:
        return WeakObject(value)
    if kind is VALUE or kind in LITERALS:
        return value
    if issubclass(kind, dict):
        return kind((k, structured(child, value[k], None)) for k, child in content)
    children = [structured(child, item, None) for child, item in zip(content, value)]
    return kind(*children) if is_namedtuple(value) else kind(children)


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
