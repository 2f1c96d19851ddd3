"""Sequences that a graph loop iterates by index: a tensor's rows, an `rt.range`, and
`enumerate`/`zip` over them. `size()` is a scalar int32 tensor, or int64 for a range of int64 or
float64 values (so `for i in rt.range(n)` with `n >= 2**31` does not wrap); `at(k)` is the item
at index k."""
import re

import runtime as rt
from runtime.core.tensor import is_symbolic

# Python's own containers (and dict views): a loop over one, or a builtin called on one, is
# Python's, with no tensor sequence to make (the converted-code fast paths)
PYTHON_ITERABLES = frozenset({list, tuple, range, str, dict, set, frozenset, bytes, bytearray,
                              type({}.items()), type({}.keys()), type({}.values())})
# The builtin types of plain Python values: never a tensor, a placeholder or a dataset; their
# instances take no attributes, so each of their methods is the builtin type's own (converted
# code calls them as they are: the plain forms of docs/performance.md). So are the compiled
# patterns and matches of `re`, whose methods text-processing loops call at every step.
PLAIN_TYPES = PYTHON_ITERABLES | {int, float, bool, complex, type(None), re.Pattern, re.Match}


class TensorSequence:
    """A sequence of graph values. It can only be iterated by a converted `for` loop."""

    def __iter__(self):
        raise TypeError(f'{type(self).__name__} of symbolic tensors can only be iterated by a '
                        '`for` loop in converted code (ag.function or ag.to_graph).')


class Rows(TensorSequence):

    def __init__(self, tensor):
        self.tensor = tensor

    def size(self):
        return rt.shape(self.tensor)[0]

    def at(self, k):
        return rt.gather(self.tensor, k)


class Range(TensorSequence):
    """The values of `rt.range(start, limit, delta)`, computed from the index: the Range op
    itself never has to run."""

    def __init__(self, start, limit, delta):
        self.start, self.limit, self.delta = start, limit, delta

    def size(self):
        span = self.limit - self.start
        if self.start.dtype.is_integer:
            count = -((-span) // self.delta)
        else:
            count = rt.ceil(span / self.delta)
        wide = self.start.dtype in (rt.int64, rt.float64)
        return rt.maximum(rt.cast(count, rt.int64 if wide else rt.int32), 0)

    def at(self, k):
        return self.start + rt.cast(k, self.start.dtype) * self.delta


class Enumerate(TensorSequence):

    def __init__(self, sequence, start):
        self.sequence, self.start = sequence, start

    def size(self):
        return self.sequence.size()

    def at(self, k):
        return k + self.start, self.sequence.at(k)


class Zip(TensorSequence):

    def __init__(self, sequences):
        self.sequences = sequences

    def size(self):
        sizes = [s.size() for s in self.sequences]
        if any(size.dtype is rt.int64 for size in sizes):
            sizes = [rt.cast(size, rt.int64) for size in sizes]
        smallest = sizes[0]
        for size in sizes[1:]:
            smallest = rt.minimum(smallest, size)
        return smallest

    def at(self, k):
        return tuple(s.at(k) for s in self.sequences)


def as_sequence(value):
    """The TensorSequence of a symbolic tensor (or the sequence itself); None otherwise."""
    if isinstance(value, TensorSequence):
        return value
    if not is_symbolic(value):
        return None
    if value.op.type == 'Range':
        return Range(*value.op.inputs[:3])
    return Rows(value)


def to_sequence(value):
    """Like as_sequence, but a Python value becomes the rows of a tensor (for `zip`)."""
    return as_sequence(value) or Rows(rt.convert_to_tensor(value))
