"""`rt.TensorSpec`: the dtype and (partial) shape a tensor argument must have."""
from runtime.core import dtypes
from runtime.core.shapes import TensorShape


class TensorSpec:
    __slots__ = ('shape', 'dtype', 'name')

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, value):
        """True for a spec or tensor of the same dtype and a compatible shape."""
        return value.dtype is self.dtype and self.shape.is_compatible_with(value.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape and
                self.dtype is other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name))

    def __repr__(self):
        name = 'None' if self.name is None else repr(self.name)
        return f'TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={name})'
