"""Builtins called from converted code: Python's own on Python values, graph ops on tensors.

Each overload is keyed by the builtin object it stands for and calls that very object on
Python values, as the original code would: a call of `len` bound before `builtins.len` was
patched (`def size(x, len=len)`) still runs the original, and one of the patched `len` (a
different object, with no overload) runs the patch.
"""
import builtins
import warnings

import runtime as rt
from autograph.operators import frames, lists, tensor_iteration
from runtime.core import context
from runtime.core.tensor import is_symbolic

_range, _len, _enumerate, _zip, _int, _float, _abs = (
    builtins.range, builtins.len, builtins.enumerate, builtins.zip, builtins.int,
    builtins.float, builtins.abs)
# Values of these types are Python's own: no overload treats them specially, so each overload
# starts with one type check and calls the builtin (the converted-code fast path).
_PLAIN = tensor_iteration.PLAIN_TYPES


def _any_symbolic(values):
    return any(is_symbolic(v) or isinstance(v, tensor_iteration.TensorSequence) for v in values)


def range_(*args):
    if all(type(a) in _PLAIN for a in args):
        return _range(*args)
    if _any_symbolic(args):
        return rt.range(*args)
    return _range(*args)


def _graph_datasets(values):
    """Whether `values` are rt.data Datasets iterated by a graph loop (docs/datasets.md)."""
    return bool(values) and context.current_graph() is not None and all(
        isinstance(v, rt.data.Dataset) for v in values)


def len_(value):
    if type(value) in _PLAIN:
        return _len(value)
    if isinstance(value, (tensor_iteration.TensorSequence, lists.StagedList)):
        return value.size()
    if _graph_datasets([value]):  # its cardinality, which must be known and finite
        n = value.cardinality()
        with rt.control_dependencies([rt.debugging.Assert(n >= 0, [
                'len() of a dataset whose length is infinite or unknown'])]):
            return rt.identity(n)
    if is_symbolic(value):
        if value.shape.rank == 0:
            raise TypeError('len() of a scalar tensor')
        static = value.shape.as_list()[0] if value.shape.rank is not None else None
        return static if static is not None else rt.shape(value)[0]
    return _len(value)


def enumerate_(iterable, start=0):
    if type(iterable) in _PLAIN:
        return _enumerate(iterable, start)
    if _graph_datasets([iterable]):
        return iterable.enumerate(start)
    sequence = tensor_iteration.as_sequence(iterable)
    if sequence is not None:
        return tensor_iteration.Enumerate(sequence, start)
    return _enumerate(iterable, start)


def zip_(*iterables, **kwargs):
    if all(type(i) in _PLAIN for i in iterables):
        return _zip(*iterables, **kwargs)
    if _graph_datasets(iterables):
        return rt.data.Dataset.zip(iterables)
    if _any_symbolic(iterables):
        return tensor_iteration.Zip([tensor_iteration.to_sequence(i) for i in iterables])
    return _zip(*iterables, **kwargs)


def int_(value=0, *args):
    if type(value) in _PLAIN:
        return _int(value, *args)
    if is_symbolic(value):
        return rt.cast(value, rt.int32)
    return _int(value, *args)


def float_(value=0.0):
    if type(value) in _PLAIN:
        return _float(value)
    if is_symbolic(value):
        return rt.cast(value, rt.float32)
    return _float(value)


def abs_(value):
    if type(value) in _PLAIN:
        return _abs(value)
    if is_symbolic(value):
        return rt.abs(value)
    return _abs(value)


# The builtins whose overload, given arguments that are all plain Python values (`_PLAIN`),
# calls the builtin itself, by name: the plain form of a call `len(x)` tests that `len` is
# this object and `x` a plain value, and calls it (converters/speed/plain_forms; converted code
# reads them as `ag__.builtin_len`, ...). A patched `builtins.len` is another object, which
# the call then runs through `callee`.
PLAIN_BUILTINS = {'range': _range, 'len': _len, 'enumerate': _enumerate, 'zip': _zip,
                  'int': _int, 'float': _float, 'abs': _abs}

OVERLOADS = {
    _range: range_, _len: len_, _enumerate: enumerate_, _zip: zip_, _int: int_,
    _float: float_, _abs: abs_,
    rt.stack: lists.stack_, rt.concat: lists.concat_,   # also on lists staged by a tensor loop
    warnings.warn: frames.warn,   # stacklevel counts the user's frames, not autograph's
}
