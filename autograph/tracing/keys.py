"""Cache keys: what about the arguments of a call decides which graph runs (docs/tracing.md).

A key is a tuple with one element per parameter. Each element is one of these NamedTuples
(the abstract value of an argument, as JAX's avals):

- `TensorKey(dtype, shape)`: a tensor, numpy value or `rt.TensorSpec`; `shape` a tuple of ints
  (`None` for an unknown dim) or `None` for an unknown rank; its value is fed to the graph;
- `VariableKey(dtype, shape)`: an `rt.Variable`; its storage is fed to the graph;
- `LiteralKey(kind, value)`: a Python bool, int, float, str, bytes or None, baked into the
  graph (every NaN is the one `NAN`, so that `f(x, nan)` traces once);
- `ContainerKey(kind, children)`: a list, tuple, namedtuple or dict, dicts as
  `((k, child), ...)` by sorted key;
- `DatasetKey(spec)`: an `rt.data.Dataset` (or an `rt.data.DatasetSpec` in a signature), by
  its `DatasetSpec`: its variant (the dataset's value) is fed to the graph, so a dataset with
  the same element structure reuses the graph and a new structure traces again;
- `ObjectKey(id)`: any other object, by identity, held weakly by the Function;
- `HashableKey(value)`: an object that cannot be weakly referenced but is hashable.

On the hot path a top-level eager tensor's element is the plain tuple `(dtype, shape)`, which
is equal to (and hashes as) its `TensorKey`: `canonical` turns such a lookup key into the key a
graph is stored under. Feeds are appended in the order of a depth-first walk (dicts by sorted
key), the same order the tracer creates placeholders in.
"""
from typing import NamedTuple

import numpy as np

from runtime.core.dtypes import DType
from runtime.core.dtypes import of_value as dtype_of_value
from runtime.core.errors import InvalidArgumentError
from runtime.core.nest import is_namedtuple, sort_key
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import Dataset, DatasetSpec
from runtime.ops.convert import to_numpy
from runtime.variables import Variable

NAN = float('nan')  # the one NaN in keys (NaN != NaN, but a tuple compares `is` first)
LITERALS = (bool, int, float, str, bytes, type(None))


class TensorKey(NamedTuple):
    dtype: DType
    shape: tuple


class VariableKey(NamedTuple):
    dtype: DType
    shape: tuple
    variable: bool = True  # a third field: never equal to the TensorKey of the same spec


class LiteralKey(NamedTuple):
    kind: type
    value: object


class ContainerKey(NamedTuple):
    kind: type
    children: tuple


class ObjectKey(NamedTuple):
    id: int


class DatasetKey(NamedTuple):
    spec: DatasetSpec


class HashableKey(NamedTuple):
    value: object


TENSOR_LEAVES = (TensorKey, VariableKey)


def make_key(values, feeds, allow_specs=False):
    """The key of canonical argument values; appends the values the graph is fed to `feeds`.

    This is the hot path of every call: the loop handles eager tensors itself, with plain
    tuples (see `canonical`)."""
    key = []
    for value in values:
        if type(value) is EagerTensor:
            array = value.value
            try:
                key.append((value.dtype, array.shape))
            except AttributeError:  # a scalar string tensor holds `bytes`
                key.append((value.dtype, ()))
            feeds.append(array)
        else:
            key.append(_key(value, feeds, allow_specs))
    return tuple(key)


def canonical(key):
    """`key` with the plain `(dtype, shape)` tuples of the hot path made TensorKeys."""
    return tuple(TensorKey(*element) if type(element) is tuple else element for element in key)


def _key(value, feeds, allow_specs):
    kind = type(value)
    if kind in LITERALS:
        return LiteralKey(kind, NAN if value != value else value)
    if kind is EagerTensor:
        array = value.value
        feeds.append(array)
        return TensorKey(value.dtype, np.shape(array))
    if kind is np.ndarray or isinstance(value, np.generic):
        feeds.append(value.copy() if kind is np.ndarray else value)  # the caller may write to it
        return TensorKey(dtype_of_value(value), value.shape)
    if isinstance(value, Variable):
        feeds.append(value.storage)
        return VariableKey(value.dtype, tuple(value.shape))
    if isinstance(value, (list, tuple)):
        return ContainerKey(kind, tuple([_key(item, feeds, allow_specs) for item in value]))
    if isinstance(value, dict):
        return ContainerKey(kind, tuple([(k, _key(value[k], feeds, allow_specs))
                                         for k in sorted(value, key=sort_key)]))
    if isinstance(value, TensorSpec):
        if not allow_specs:
            raise TypeError(f'Got {value!r} as an argument of a call. TensorSpecs describe '
                            f'arguments for get_concrete_function(); pass a tensor to call.')
        return TensorKey(value.dtype, None if value.shape.rank is None else tuple(value.shape))
    if isinstance(value, Dataset):
        feeds.append(value.variant_tensor.value)
        return DatasetKey(DatasetSpec.from_value(value))
    if isinstance(value, DatasetSpec):
        if not allow_specs:
            raise TypeError(f'Got {value!r} as an argument of a call; pass a dataset.')
        return DatasetKey(value)
    if isinstance(value, SymbolicTensor):
        raise TypeError(f'Got the symbolic tensor {value.name!r} outside the graph being built. '
                        f'Call the Function with eager tensors or Python values.')
    if kind.__weakrefoffset__:
        return ObjectKey(id(value))
    try:
        hash(value)
    except TypeError:
        raise TypeError(f'Cannot use {value!r} of type {kind.__name__} as an argument: it is '
                        f'neither a tensor, a Python value, a container of those, nor an object '
                        f'that can be referenced weakly or hashed.') from None
    return HashableKey(value)


def rebuild(element, value, leaf):
    """`value` with its containers rebuilt (same types, dicts in their own order) and each leaf
    replaced by `leaf(element, value)`; leaves are visited in key order (dicts by sorted key),
    the order of the feeds."""
    if type(element) is not ContainerKey:
        return leaf(element, value)
    kind = element.kind
    if issubclass(kind, dict):
        built = {k: rebuild(child, value[k], leaf) for k, child in element.children}
        return kind((k, built[k]) for k in value)
    children = [rebuild(child, item, leaf) for child, item in zip(element.children, value)]
    return kind(*children) if is_namedtuple(value) else kind(children)


def is_python_value(element):
    """Whether the argument is baked into the graph as it is (a literal or hashable value)."""
    return type(element) is LiteralKey or type(element) is HashableKey


def accepts(general, specific):
    """True if a graph traced for key `general` can run a call whose key is `specific`
    (same everything, except that `None` dims and unknown ranks accept any size)."""
    if general == specific:
        return True
    kind = type(general)
    if kind in TENSOR_LEAVES:
        return (kind is type(specific) or (kind is TensorKey and type(specific) is tuple)) and \
            general.dtype is specific[0] and shape_accepts(general.shape, specific[1])
    if kind is ContainerKey:
        return (type(specific) is ContainerKey and general.kind is specific.kind and
                len(general.children) == len(specific.children) and
                all(map(_child_accepts, general.children, specific.children)))
    if kind is tuple and type(specific) is tuple and len(general) == len(specific):
        return all(map(accepts, general, specific))  # whole keys
    return False


def _child_accepts(general, specific):
    if type(general) is tuple:  # a dict item: (k, element)
        return type(specific) is tuple and general[0] == specific[0] and accepts(general[1],
                                                                                  specific[1])
    return accepts(general, specific)


def shape_accepts(general, specific):
    if general is None:
        return True
    if specific is None or len(general) != len(specific):
        return False
    return all(g is None or g == s for g, s in zip(general, specific))


def relax(old, new):
    """The key with the dims where `old` and `new` differ set to None (an unknown rank where
    ranks differ); None when they differ in anything but shapes."""
    old, new = canonical(old), canonical(new)
    out = []
    for a, b in zip(old, new):
        relaxed = _relax(a, b)
        if relaxed is None:
            return None
        out.append(relaxed)
    return tuple(out) if len(old) == len(new) else None


def _relax(old, new):
    kind = type(old)
    if kind is not type(new):
        return None
    if kind in TENSOR_LEAVES:
        return kind(old.dtype, _relax_shape(old.shape, new.shape)) if old.dtype is new.dtype \
            else None
    if kind is ContainerKey:
        if old.kind is not new.kind or len(old.children) != len(new.children):
            return None
        children = []
        for a, b in zip(old.children, new.children):
            if type(a) is tuple:  # a dict item
                if a[0] != b[0]:
                    return None
                relaxed = _relax(a[1], b[1])
                relaxed = None if relaxed is None else (a[0], relaxed)
            else:
                relaxed = _relax(a, b)
            if relaxed is None:
                return None
            children.append(relaxed)
        return ContainerKey(old.kind, tuple(children))
    return old if old == new else None


def _relax_shape(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def feed(key, values, labels, function_name, allow_specs=False, tensor_error=TypeError):
    """The feeds of a call checked against a traced key: tensors are converted and checked,
    Python values must equal the traced ones. `labels` names each top-level value for error
    messages. With `allow_specs`, TensorSpecs are checked like tensors (for
    get_concrete_function) and feed nothing.

    Errors follow TensorFlow: a structure or Python value that does not match is a TypeError;
    a tensor of another dtype or shape raises `tensor_error` (TypeError for a Function's
    input_signature, `rt.errors.InvalidArgumentError` for a ConcreteFunction)."""
    feeds = []
    for element, value, label in zip(key, values, labels):
        if type(value) is EagerTensor and type(element) is TensorKey and value.dtype is \
                element.dtype and getattr(value.value, 'shape', ()) == element.shape:
            feeds.append(value.value)
        else:
            _feed(element, value, label, function_name, feeds, allow_specs, tensor_error)
    return feeds


def _feed(element, value, label, function_name, feeds, allow_specs, tensor_error):
    kind = type(element)
    if kind is TensorKey:
        feeds.append(_tensor_value(element, value, label, function_name, allow_specs,
                                   tensor_error))
    elif kind is VariableKey:
        _feed_variable(element, value, label, function_name, feeds, tensor_error)
    elif kind is DatasetKey:
        if not (isinstance(value, Dataset) and element.spec.is_compatible_with(value)) and \
                not (allow_specs and value == element.spec):
            raise TypeError(f'{function_name}(): argument {label!r} must be a dataset of '
                            f'{element.spec!r}, got {value!r}.')
        if isinstance(value, Dataset):
            feeds.append(value.variant_tensor.value)
    elif kind is ObjectKey:
        if id(value) != element.id:
            _value_mismatch(function_name, label, value, f'another object (id {element.id})')
    elif kind is LiteralKey or kind is HashableKey:
        expected = element[-1]
        if (kind is LiteralKey and type(value) is not element.kind) or not (
                value == expected or (value != value and expected != expected)):
            _value_mismatch(function_name, label, value, repr(expected))
    elif issubclass(element.kind, dict):
        names = [k for k, _ in element.children]
        if not isinstance(value, dict) or sorted(value, key=sort_key) != names:
            raise TypeError(f'{function_name}(): argument {label!r} must be a dict with keys '
                            f'{names}, got {value!r}.')
        for k, child in element.children:
            _feed(child, value[k], f'{label}[{k!r}]', function_name, feeds, allow_specs,
                  tensor_error)
    else:
        if not isinstance(value, (list, tuple)) or len(value) != len(element.children):
            raise TypeError(f'{function_name}(): argument {label!r} must be a '
                            f'{element.kind.__name__} of {len(element.children)} elements, got '
                            f'{value!r}.')
        for i, (child, item) in enumerate(zip(element.children, value)):
            _feed(child, item, f'{label}[{i}]', function_name, feeds, allow_specs, tensor_error)


def _value_mismatch(function_name, label, value, expected):
    raise TypeError(f'{function_name}(): argument {label!r} is {value!r}, but this graph was '
                    f'traced for {expected}. Python values are baked into the graph; call the '
                    f'Function (not the ConcreteFunction) to trace a graph for a new value.')


def _mismatch(error_type, message):
    if error_type is InvalidArgumentError:
        return InvalidArgumentError(message=message)
    return error_type(message)


def _tensor_value(element, value, label, function_name, allow_specs, tensor_error):
    dtype, shape = element
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, EagerTensor):
        got_dtype, array = value.dtype, value.value
    elif isinstance(value, np.ndarray):  # copied: the caller may write to it after the call
        got_dtype, array = dtype_of_value(value), value.copy()
    elif isinstance(value, np.generic):
        got_dtype, array = dtype_of_value(value), value
    elif isinstance(value, TensorSpec) and allow_specs:
        got_dtype, array = value.dtype, None
    else:
        try:
            array = to_numpy(value, dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f'{function_name}(): argument {label!r} must be a tensor matching '
                            f'{_spec(element)}; {value!r} does not convert: {e}') from None
        got_dtype = dtype
    if got_dtype is not dtype:
        raise _mismatch(tensor_error if array is not None else TypeError,
                        f'{function_name}(): argument {label!r} has dtype {got_dtype.name}, but '
                        f'{_spec(element)} is expected. Convert it with rt.cast(..., {dtype!r}).')
    if array is not None:
        got_shape = np.shape(array)
    else:
        got_shape = None if value.shape.rank is None else tuple(value.shape)
    if not shape_accepts(shape, got_shape):
        raise _mismatch(tensor_error if array is not None else TypeError,
                        f'{function_name}(): argument {label!r} has shape {got_shape}, which '
                        f'does not match {_spec(element)} (a None dim accepts any size).')
    return array


def _spec(element):
    return repr(TensorSpec(element.shape, element.dtype))


def _feed_variable(element, value, label, function_name, feeds, tensor_error):
    dtype, shape, _ = element
    if not isinstance(value, Variable) or value.dtype is not dtype or not shape_accepts(
            shape, tuple(value.shape)):
        raise _mismatch(tensor_error, f'{function_name}(): argument {label!r} must be an '
                                      f'rt.Variable of dtype {dtype.name} and shape {shape}, '
                                      f'got {value!r}.')
    feeds.append(value.storage)
