"""Builtins called from converted code: Python's own on Python values, graph ops on tensors."""
import builtins

import runtime as rt
from autograph.operators import lists, tensor_iteration
from runtime.core.tensor import is_symbolic


def _any_symbolic(values):
    return any(is_symbolic(v) or isinstance(v, tensor_iteration.TensorSequence) for v in values)


def range_(*args):
    if _any_symbolic(args):
        return rt.range(*args)
    return builtins.range(*args)


def len_(value):
    if isinstance(value, (tensor_iteration.TensorSequence, lists.StagedList)):
        return value.size()
    if is_symbolic(value):
        if value.shape.rank == 0:
            raise TypeError('len() of a scalar tensor')
        static = value.shape.as_list()[0] if value.shape.rank is not None else None
        return static if static is not None else rt.shape(value)[0]
    return builtins.len(value)


def enumerate_(iterable, start=0):
    sequence = tensor_iteration.as_sequence(iterable)
    if sequence is not None:
        return tensor_iteration.Enumerate(sequence, start)
    return builtins.enumerate(iterable, start)


def zip_(*iterables, **kwargs):
    if _any_symbolic(iterables):
        return tensor_iteration.Zip([tensor_iteration.to_sequence(i) for i in iterables])
    return builtins.zip(*iterables, **kwargs)


def int_(value=0, *args):
    if is_symbolic(value):
        return rt.cast(value, rt.int32)
    return builtins.int(value, *args)


def float_(value=0.0):
    if is_symbolic(value):
        return rt.cast(value, rt.float32)
    return builtins.float(value)


def abs_(value):
    if is_symbolic(value):
        return rt.abs(value)
    return builtins.abs(value)


OVERLOADS = {
    builtins.range: range_, builtins.len: len_,
    builtins.enumerate: enumerate_, builtins.zip: zip_, builtins.int: int_,
    builtins.float: float_, builtins.abs: abs_,
    rt.stack: lists.stack_, rt.concat: lists.concat_,   # also on lists staged by a tensor loop
}
