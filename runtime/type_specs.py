"""The type specs of values other than tensors (`rt.TensorArraySpec`, `rt.OptionalSpec`,
`rt.NoneTensorSpec`) and `rt.type_spec_from_value`, which gives any value's spec."""
import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.core.tensor_spec import TensorSpec, TypeSpec
from runtime.data.iterators import Optional
from runtime.data.structure import DatasetSpec
from runtime.ops.convert import convert_to_tensor
from runtime.tensor_array import TensorArray
from runtime.variables import Variable


class TensorArraySpec(TypeSpec):
    """The type of a TensorArray: its element shape and dtype, whether it grows."""
    __slots__ = ('element_shape', 'dtype', 'dynamic_size', 'infer_shape')

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self.element_shape = TensorShape(element_shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.dynamic_size = dynamic_size
        self.infer_shape = infer_shape

    @staticmethod
    def from_value(value):
        if not isinstance(value, TensorArray):
            raise ValueError(f'Expected value to be a TensorArray, but saw: {type(value)}')
        return TensorArraySpec(value.element_shape, value.dtype, value.dynamic_size)

    @property
    def value_type(self):
        return TensorArray

    def _fields(self):
        return self.element_shape, self.dtype, self.dynamic_size, self.infer_shape

    def _relaxed(self, other):
        if (other.dtype, other.dynamic_size, other.infer_shape) != \
                (self.dtype, self.dynamic_size, self.infer_shape):
            return None
        shape = TensorSpec(self.element_shape, self.dtype)._relaxed(
            TensorSpec(other.element_shape, self.dtype)).shape
        return TensorArraySpec(shape, self.dtype, self.dynamic_size, self.infer_shape)

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value
        if isinstance(other, TensorArray):
            other = TensorArraySpec.from_value(other)
        return isinstance(other, TensorArraySpec) and other.dtype is self.dtype and \
            other.dynamic_size == self.dynamic_size and \
            self.element_shape.is_compatible_with(other.element_shape)

    def __repr__(self):
        return (f'TensorArraySpec({self.element_shape!r}, {self.dtype!r}, '
                f'{self.dynamic_size}, {self.infer_shape})')


class OptionalSpec(TypeSpec):
    """The type of an optional value (`tf.experimental.Optional`): its element's spec."""
    __slots__ = ('element_spec',)

    def __init__(self, element_spec):
        self.element_spec = element_spec

    @staticmethod
    def from_value(value):
        return OptionalSpec(value.element_spec)

    @property
    def value_type(self):
        return Optional

    def _fields(self):
        return (self.element_spec,)

    def __repr__(self):
        return f'OptionalSpec({self.element_spec!r},)'


class NoneTensorSpec(TypeSpec):
    """The type of None where a structure of tensors holds it."""
    __slots__ = ()

    @staticmethod
    def from_value(value):
        if value is not None:
            raise ValueError(f'NoneTensorSpec describes None, got {value!r}.')
        return NoneTensorSpec()

    @property
    def value_type(self):
        return type(None)

    def _fields(self):
        return ()

    def is_compatible_with(self, spec_or_value):
        return spec_or_value is None or isinstance(spec_or_value, NoneTensorSpec)

    def __repr__(self):
        return 'NoneTensorSpec()'


def type_spec_from_value(value):
    """The TypeSpec of `value`: a TensorSpec for tensors and what converts to one (a
    Variable's value too), the spec of a TensorArray, optional, dataset or None; TypeError for
    anything else."""
    if value is None:
        return NoneTensorSpec()
    if isinstance(value, (Tensor, Variable)):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, TensorArray):
        return TensorArraySpec.from_value(value)
    if isinstance(value, Optional):
        return OptionalSpec.from_value(value)
    if hasattr(value, 'element_spec') and hasattr(value, 'variant_tensor'):
        return DatasetSpec.from_value(value)
    if isinstance(value, (bool, int, float, complex, str, bytes, list, tuple, np.ndarray,
                          np.generic)):
        try:
            tensor = convert_to_tensor(value)
        except (TypeError, ValueError):
            tensor = None
        if tensor is not None:
            return TensorSpec(tensor.shape, tensor.dtype)
    raise TypeError(f'Could not build a TypeSpec for {value!r} of unsupported type '
                    f'{type(value)}.')
