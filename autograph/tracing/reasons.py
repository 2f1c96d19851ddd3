"""Why a Function traced again: the argument whose cache key no earlier graph matched, and what
about it changed (`Function.experimental_get_tracing_reasons()`, the RetracingWarning).

Computed on a cache miss only, from the new key and the keys of the graphs traced before; the
earlier key compared with is the one that differs from the new one in the fewest arguments
(the most recent among equals).
"""
from autograph.tracing.keys import (
    ContainerKey,
    DatasetKey,
    HashableKey,
    LiteralKey,
    ObjectKey,
    TensorKey,
    VariableKey,
)

FIRST = 'first trace'
AFTER_INITIALIZING = ('the graph that created and initialized the variables ran once; this one '
                      'reuses them')
DROPPED = ('the graphs traced before were dropped: an object they were traced for was '
           'garbage-collected')


def reason(key, values, names, earlier_keys):
    """The reason for tracing `key` (the canonical values `values` of the parameters `names`),
    given the keys of the graphs traced before, oldest first."""
    if not earlier_keys:
        return FIRST
    best = None
    for earlier in reversed(earlier_keys):
        differing = [i for i, (a, b) in enumerate(zip(key, earlier)) if a != b]
        if best is None or len(differing) < len(best[1]):
            best = earlier, differing
    earlier, differing = best
    if not differing:
        return 'the arguments match a graph traced before, which does not accept them'
    i = differing[0]
    return change(f'argument {names[i]!r}', key[i], earlier[i], values[i])


def change(label, new, old, value):
    """How the key element `new` (of `value`) differs from `old`, for the argument `label`."""
    kind = type(new)
    if kind is not type(old):
        return f'{label}: {describe(new, value)}, traced before with {describe(old, None)}'
    if kind in (TensorKey, VariableKey):
        if new.dtype != old.dtype:
            return f'{label}: dtype {new.dtype.name}, traced before with {old.dtype.name}'
        return f'{label}: shape {_shape(new.shape)} does not match {_shape(old.shape)}'
    if kind is LiteralKey or kind is HashableKey:
        return f'{label}: Python value {new.value!r}, traced before with {old.value!r}'
    if kind is ObjectKey:
        return (f'{label}: a new object of class {type(value).__name__} (graphs are kept per '
                f'object), traced before with another object')
    if kind is ContainerKey and new.kind is old.kind and _labels(new) == _labels(old):
        for (name, a), (_, b), item in zip(_children(new), _children(old),
                                           _items(new, value)):
            if a != b:
                return change(f'{label}{name}', a, b, item)
    if kind is DatasetKey:
        return (f'{label}: a dataset of {new.spec.element_spec}, traced before with '
                f'{old.spec.element_spec}')
    return (f'{label}: a different input structure, {describe(new, value)}, traced before '
            f'with {describe(old, None)}')


def describe(element, value):
    """A key element (`value` the argument it is the key of, or None) in a few words."""
    kind = type(element)
    if kind is TensorKey:
        return f'a tensor of dtype {element.dtype.name} and shape {_shape(element.shape)}'
    if kind is VariableKey:
        return f'a Variable of dtype {element.dtype.name} and shape {_shape(element.shape)}'
    if kind is LiteralKey or kind is HashableKey:
        return f'Python value {element.value!r}'
    if kind is ContainerKey:
        if issubclass(element.kind, dict):
            return f'a {element.kind.__name__} with keys {[k for k, _ in element.children]}'
        count = len(element.children)
        return f'a {element.kind.__name__} of {count} item{"s" if count != 1 else ""}'
    if kind is DatasetKey:
        return 'a dataset'
    if value is not None:
        return f'an object of class {type(value).__name__}'
    return 'an object'


def _shape(shape):
    return 'of unknown rank' if shape is None else repr(tuple(shape))


def _labels(element):
    return [name for name, _ in _children(element)]


def _children(element):
    """[(label suffix, child key)] of a ContainerKey."""
    if issubclass(element.kind, dict):
        return [(f'[{k!r}]', child) for k, child in element.children]
    return [(f'[{i}]', child) for i, child in enumerate(element.children)]


def _items(element, value):
    """The argument's items, in the order of the key's children."""
    if issubclass(element.kind, dict):
        return [value[k] for k, _ in element.children]
    return list(value)
