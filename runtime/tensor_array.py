"""`rt.TensorArray`: a list of tensors of one dtype, written by index, usable as a loop variable.

It is a value, as in TensorFlow 2: `write` returns a new TensorArray (keep the result), so in a
`rt.while_loop` it travels as one `variant` loop variable.
"""
import numpy as np

from runtime import dtypes, errors
from runtime.convert import convert_for_write
from runtime.ops import list_ops
from runtime.ops.dispatch import apply
from runtime.shapes import TensorShape
from runtime.tensor import Tensor


class TensorArray:
    def __init__(self, dtype, size=0, dynamic_size=False, element_shape=None, *, handle=None):
        self.dtype = dtypes.as_dtype(dtype)
        self.dynamic_size = dynamic_size
        self.element_shape = TensorShape(element_shape)
        if handle is None:
            if not isinstance(size, Tensor):
                if size < 0:  # known now: refused at once, in a graph too
                    raise errors.InvalidArgumentError(message=list_ops.size_error(size))
                size = np.int32(size)
            handle = apply(list_ops.RESERVE, [size], {'element_dtype': self.dtype,
                                                      'element_shape': self.element_shape})
        self.handle = handle

    def _with(self, handle, element_shape=None):
        return TensorArray(self.dtype, dynamic_size=self.dynamic_size,
                           element_shape=element_shape or self.element_shape, handle=handle)

    def _to_components(self):
        return [self.handle]

    def _from_components(self, components):
        return self._with(components[0])

    def write(self, index, value, name=None):
        """A TensorArray with `value` at `index` (the receiver is unchanged)."""
        value = convert_for_write(value, self.dtype)
        if value.dtype is not self.dtype:
            raise TypeError(f'TensorArray of {self.dtype.name} cannot hold a '
                            f'{value.dtype.name} value; use rt.cast.')
        if not value.shape.is_compatible_with(self.element_shape):
            raise ValueError(f'TensorArray holds elements of shape {self.element_shape}, got a '
                             f'value of shape {value.shape}.')
        shape = self.element_shape.merge_with(value.shape)
        index = index if isinstance(index, Tensor) else np.int32(index)
        attrs = {'dynamic_size': True} if self.dynamic_size else {}
        return self._with(apply(list_ops.SET_ITEM, [self.handle, index, value], attrs, name=name),
                          shape)

    def read(self, index, name=None):
        index = index if isinstance(index, Tensor) else np.int32(index)
        return apply(list_ops.GET_ITEM, [self.handle, index],
                     {'element_dtype': self.dtype, '_element_shape': self.element_shape},
                     name=name)

    def stack(self, name=None):
        """All elements stacked along a new first dimension."""
        return apply(list_ops.STACK, [self.handle],
                     {'element_dtype': self.dtype, 'element_shape': self.element_shape},
                     name=name)

    def size(self, name=None):
        return apply(list_ops.LENGTH, [self.handle], name=name)

    def __repr__(self):
        return f'<rt.TensorArray dtype={self.dtype.name} element_shape={self.element_shape}>'
