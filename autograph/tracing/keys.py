"""Cache keys: what about the arguments of a call decides which graph runs (SPEC §3).

A key is a tuple with one element per parameter. The elements are hashable tuples:

- a tensor, numpy value or `rt.TensorSpec`: `(dtype, shape)`, `shape` a tuple of ints (`None`
  for an unknown dim) or `None` for an unknown rank; its value is fed to the graph;
- an `rt.Variable`: `(dtype, shape, VARIABLE)`; its storage is fed to the graph;
- a Python bool, int, float, str, bytes or None: `(type, value)`, baked into the graph;
- a list, tuple, namedtuple or dict: `(type, children)`, dicts as `((k, child), ...)` by key;
- any other object: `(OBJECT, id(obj))`, its identity, held weakly by the Function; an object
  that cannot be weakly referenced but is hashable: `(VALUE, obj)`.

Tensor leaves are the only elements whose first item is a DType, which is how `accepts`,
`relax` and `feed` tell them apart. Feeds are appended in the order of a depth-first walk
(dicts by sorted key), the same order the tracer creates placeholders in.
"""
import numpy as np

from runtime.dtypes import DType
from runtime.errors import InvalidArgumentError
from runtime.nest import _sort_key
from runtime.ops.registry import dtype_of_value
from runtime.tensor import EagerTensor, SymbolicTensor, to_numpy
from runtime.tensor_spec import TensorSpec
from runtime.variables import Variable

NAN = float('nan')  # the one NaN in keys (NaN != NaN, but a tuple compares `is` first)
VARIABLE = 'Variable'
OBJECT = 'Object'
VALUE = 'Value'
LITERALS = (bool, int, float, str, bytes, type(None))


def make_key(values, feeds, allow_specs=False):
    """The key of canonical argument values; appends the values the graph is fed to `feeds`.

    This is the hot path of every call: the loop handles eager tensors itself."""
    key = []
    for value in values:
        if type(value) is EagerTensor:
            array = value._value
            try:
                key.append((value.dtype, array.shape))
            except AttributeError:  # a scalar string tensor holds `bytes`
                key.append((value.dtype, ()))
            feeds.append(array)
        else:
            key.append(_key(value, feeds, allow_specs))
    return tuple(key)


def _key(value, feeds, allow_specs):
    kind = type(value)
    if kind in LITERALS:
        if value != value:  # NaN: one key for every NaN, so that f(x, nan) traces once
            return kind, NAN
        return kind, value
    if kind is EagerTensor:
        array = value._value
        feeds.append(array)
        return value.dtype, np.shape(array)
    if kind is np.ndarray or isinstance(value, np.generic):
        feeds.append(value)
        return dtype_of_value(value), value.shape
    if isinstance(value, Variable):
        feeds.append(value._storage)
        return value.dtype, tuple(value.shape), VARIABLE
    if isinstance(value, (list, tuple)):
        return kind, tuple([_key(item, feeds, allow_specs) for item in value])
    if isinstance(value, dict):
        return kind, tuple([(k, _key(value[k], feeds, allow_specs))
                            for k in sorted(value, key=_sort_key)])
    if isinstance(value, TensorSpec):
        if not allow_specs:
            raise TypeError(f'Got {value!r} as an argument of a call. TensorSpecs describe '
                            f'arguments for get_concrete_function(); pass a tensor to call.')
        return value.dtype, None if value.shape.rank is None else tuple(value.shape)
    if isinstance(value, SymbolicTensor):
        raise TypeError(f'Got the symbolic tensor {value.name!r} outside the graph being built. '
                        f'Call the Function with eager tensors or Python values.')
    if kind.__weakrefoffset__:
        return OBJECT, id(value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f'Cannot use {value!r} of type {kind.__name__} as an argument: it is '
                        f'neither a tensor, a Python value, a container of those, nor an object '
                        f'that can be referenced weakly or hashed.') from None
    return VALUE, value


def is_tensor_leaf(element):
    return type(element) is tuple and element and isinstance(element[0], DType)


def accepts(general, specific):
    """True if a graph traced for key `general` can run a call whose key is `specific`
    (same everything, except that `None` dims and unknown ranks accept any size)."""
    if general == specific:
        return True
    if type(general) is not tuple or type(specific) is not tuple or len(general) != len(specific):
        return False
    if general and isinstance(general[0], DType):
        return (general[0] is specific[0] and shape_accepts(general[1], specific[1]) and
                general[2:] == specific[2:])
    return all(map(accepts, general, specific))


def shape_accepts(general, specific):
    if general is None:
        return True
    if specific is None or len(general) != len(specific):
        return False
    return all(g is None or g == s for g, s in zip(general, specific))


def relax(old, new):
    """The key with the dims where `old` and `new` differ set to None (an unknown rank where
    ranks differ); None when they differ in anything but shapes."""
    if type(old) is not tuple or type(new) is not tuple or len(old) != len(new):
        return old if old == new else None
    if old and isinstance(old[0], DType):
        if old[0] is not new[0] or old[2:] != new[2:]:
            return None
        return (old[0], _relax_shape(old[1], new[1])) + old[2:]
    out = []
    for a, b in zip(old, new):
        relaxed = relax(a, b)
        if relaxed is None and not (a is None and b is None):
            return None
        out.append(relaxed)
    return tuple(out)


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
        if type(value) is EagerTensor and type(element) is tuple and len(element) == 2 and \
                value.dtype is element[0] and getattr(value._value, 'shape', ()) == element[1]:
            feeds.append(value._value)
        else:
            _feed(element, value, label, function_name, feeds, allow_specs, tensor_error)
    return feeds


def _feed(element, value, label, function_name, feeds, allow_specs, tensor_error):
    if is_tensor_leaf(element):
        if len(element) == 3:
            _feed_variable(element, value, label, function_name, feeds, tensor_error)
        else:
            feeds.append(_tensor_value(element, value, label, function_name, allow_specs,
                                       tensor_error))
        return
    kind = element[0]
    if kind is OBJECT or kind is VALUE or kind in LITERALS:
        if kind is OBJECT:
            matches = id(value) == element[1]
        else:
            matches = (kind is VALUE or type(value) is kind) and (
                value == element[1] or (value != value and element[1] != element[1]))
        if not matches:
            raise TypeError(f'{function_name}(): argument {label!r} is {value!r}, but this graph '
                            f'was traced for {_expected(element)}. Python values are baked into '
                            f'the graph; call the Function (not the ConcreteFunction) to trace '
                            f'a graph for a new value.')
        return
    if isinstance(kind, type) and issubclass(kind, dict):
        if not isinstance(value, dict) or sorted(value, key=_sort_key) != [k for k, _ in
                                                                           element[1]]:
            raise TypeError(f'{function_name}(): argument {label!r} must be a dict with keys '
                            f'{[k for k, _ in element[1]]}, got {value!r}.')
        for k, child in element[1]:
            _feed(child, value[k], f'{label}[{k!r}]', function_name, feeds, allow_specs,
                  tensor_error)
        return
    if not isinstance(value, (list, tuple)) or len(value) != len(element[1]):
        raise TypeError(f'{function_name}(): argument {label!r} must be a {kind.__name__} of '
                        f'{len(element[1])} elements, got {value!r}.')
    for i, (child, item) in enumerate(zip(element[1], value)):
        _feed(child, item, f'{label}[{i}]', function_name, feeds, allow_specs, tensor_error)


def _expected(element):
    kind, value = element
    if kind is OBJECT:
        return f'another object (id {value})'
    return repr(value)


def _mismatch(error_type, message):
    if error_type is InvalidArgumentError:
        return InvalidArgumentError(message=message)
    return error_type(message)


def _tensor_value(element, value, label, function_name, allow_specs, tensor_error):
    dtype, shape = element
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, EagerTensor):
        got_dtype, array = value.dtype, value._value
    elif isinstance(value, (np.ndarray, np.generic)):
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
    return repr(TensorSpec(element[1], element[0]))


def _feed_variable(element, value, label, function_name, feeds, tensor_error):
    dtype, shape, _ = element
    if not isinstance(value, Variable) or value.dtype is not dtype or not shape_accepts(
            shape, tuple(value.shape)):
        raise _mismatch(tensor_error, f'{function_name}(): argument {label!r} must be an '
                                      f'rt.Variable of dtype {dtype.name} and shape {shape}, '
                                      f'got {value!r}.')
    feeds.append(value._storage)
