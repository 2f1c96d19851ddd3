"""`rt.TensorSpec`: the dtype and (partial) shape a tensor argument must have, and
`rt.TypeSpec`, the base of the specs of values (tensors, TensorArrays, optionals, None)."""
from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor


class TypeSpec:
    """The type of a value: what `tf.function` input signatures and `tf.type_spec_from_value`
    hold. A subclass says how two of its specs compare (`_fields`: what makes them equal;
    `_relaxed(other)`: the most specific spec both are, or None)."""
    __slots__ = ()

    def _fields(self):
        raise NotImplementedError(f'{type(self).__name__} must define _fields().')

    def _relaxed(self, other):
        return self if self == other else None

    @property
    def value_type(self):
        raise NotImplementedError(f'{type(self).__name__} must define value_type.')

    def is_compatible_with(self, spec_or_value):
        """Whether `spec_or_value` (a spec, or a value of this kind) fits this spec."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else \
            _spec_of(spec_or_value)
        return other is not None and type(other) is type(self) and \
            self._relaxed(other) is not None

    def most_specific_common_supertype(self, others):
        """The most specific spec this and each of `others` are instances of, or None."""
        out = self
        for other in others:
            if type(other) is not type(self):
                return None
            out = out._relaxed(other)
            if out is None:
                return None
        return out

    def most_specific_compatible_type(self, other):
        found = self.most_specific_common_supertype([other])
        if found is None:
            raise ValueError(f'No TypeSpec is compatible with both {self} and {other}')
        return found

    def is_subtype_of(self, other):
        """Whether every value of this spec is a value of `other`."""
        return type(other) is type(self) and self._relaxed(other) == other

    def __eq__(self, other):
        return type(other) is type(self) and self._fields() == other._fields()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, self._fields()))


def _spec_of(value):
    """The TensorSpec of a tensor-like value (None for anything else)."""
    shape, dtype = getattr(value, 'shape', None), getattr(value, 'dtype', None)
    if shape is None or dtype is None:
        return None
    try:
        return TensorSpec(shape, dtype)
    except (TypeError, ValueError):
        return None


class TensorSpec(TypeSpec):
    __slots__ = ('shape', 'dtype', 'name')

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def value_type(self):
        return Tensor

    def is_compatible_with(self, value):
        """True for a spec or tensor of the same dtype and a compatible shape."""
        return value.dtype is self.dtype and self.shape.is_compatible_with(value.shape)

    def _fields(self):
        return self.shape, self.dtype, self.name

    def _relaxed(self, other):
        if other.dtype is not self.dtype:
            return None
        if self.shape.rank != other.shape.rank:
            return TensorSpec(None, self.dtype, self.name if self.name == other.name else None)
        dims = None if self.shape.rank is None else [
            a if a == b else None for a, b in zip(self.shape.as_list(), other.shape.as_list())]
        return TensorSpec(dims, self.dtype, self.name if self.name == other.name else None)

    def is_subtype_of(self, other):
        if type(other) is not TensorSpec or other.dtype is not self.dtype:
            return False
        if other.shape.rank is None:
            return True
        return self.shape.rank == other.shape.rank and all(
            b is None or a == b for a, b in zip(self.shape.as_list(), other.shape.as_list()))

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape and
                self.dtype is other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name))

    def __repr__(self):
        name = 'None' if self.name is None else repr(self.name)
        return f'TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={name})'
