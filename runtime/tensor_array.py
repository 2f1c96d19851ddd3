"""`rt.TensorArray`: a list of tensors of one dtype, written by index, usable as a loop variable.

It is a value, as in TensorFlow 2: `write` returns a new TensorArray (keep the result), so in a
`rt.while_loop` it travels as one `variant` loop variable.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops import list_ops
from runtime.ops.convert import convert_for_write
from runtime.ops.dispatch import apply


class TensorArray:
    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        """TensorFlow's signature. `handle` is the list of elements of another TensorArray
        (`ta.handle`) to wrap; `flow` (TensorFlow's ordering tensor, which the handle does here),
        `clear_after_read`, `tensor_array_name`, `colocate_with_first_write_call` and `name`
        change nothing here (reads never clear an
        element, as TensorFlow 2 inside functions), and the element shape is always inferred
        from the writes."""
        self.dtype = dtypes.as_dtype(dtype)
        self.dynamic_size = bool(dynamic_size)
        self.element_shape = TensorShape(element_shape)
        if handle is None:
            if size is None:
                raise ValueError('Size must be provided if handle is not provided')
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

    def __nest_components__(self):
        return [self.handle]

    def __nest_from_components__(self, components):
        return self._with(components[0])

    def write(self, index, value, name=None):
        """A TensorArray with `value` at `index` (the receiver is unchanged)."""
        value = self._checked(value, 'write')
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

    def stack(self, name=None, num_elements=None, element_shape=None):
        """All elements stacked along a new first dimension. While tracing, `num_elements` (their
        number) and `element_shape` (what the writes are known to hold) sharpen the static
        shape of the result."""
        shape = self.element_shape if element_shape is None else \
            self.element_shape.merge_with(element_shape)
        attrs = {'element_dtype': self.dtype, 'element_shape': shape}
        if num_elements is not None:
            attrs['num_elements'] = int(num_elements)
        return apply(list_ops.STACK, [self.handle], attrs, name=name)

    def unstack(self, value, name=None):
        """A TensorArray holding the slices of `value` along its first axis (op
        `TensorListFromTensor`); its size becomes value's first dimension."""
        value = self._checked(value, 'unstack', leading=True)
        return self._with(list_ops.from_tensor(value),
                          self.element_shape.merge_with(value.shape[1:]))

    def scatter(self, indices, value, name=None):
        """A TensorArray with `value[k]` at `indices[k]` (op
        `TensorListScatterIntoExistingList`)."""
        value = self._checked(value, 'scatter', leading=True)
        indices = indices if isinstance(indices, Tensor) else np.asarray(indices, np.int32)
        attrs = {'dynamic_size': True} if self.dynamic_size else {}
        return self._with(apply(list_ops.SCATTER, [self.handle, value, indices], attrs,
                                name=name),
                          self.element_shape.merge_with(value.shape[1:]))

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked (op `TensorListGather`)."""
        indices = indices if isinstance(indices, Tensor) else np.asarray(indices, np.int32)
        return apply(list_ops.GATHER, [self.handle, indices],
                     {'element_dtype': self.dtype, 'element_shape': self.element_shape},
                     name=name)

    def concat(self, name=None):
        """All elements joined along their first axis (op `TensorListConcatV2`)."""
        if self.element_shape.rank == 0:
            raise ValueError('TensorArray.concat() needs elements of rank at least 1.')
        return apply(list_ops.CONCAT, [self.handle],
                     {'element_dtype': self.dtype, 'element_shape': self.element_shape},
                     name=name)[0]

    def _checked(self, value, what, leading=False):
        value = convert_for_write(value, self.dtype)
        if value.dtype is not self.dtype:
            raise TypeError(f'TensorArray of {self.dtype.name} cannot hold a '
                            f'{value.dtype.name} value; use rt.cast.')
        element = value.shape[1:] if leading else value.shape
        if leading and value.shape.rank == 0:
            raise ValueError(f'TensorArray.{what}() needs a value of rank at least 1.')
        if not element.is_compatible_with(self.element_shape):
            raise ValueError(f'TensorArray holds elements of shape {self.element_shape}, got '
                             f'{"values" if leading else "a value"} of shape {element}.')
        return value

    def size(self, name=None):
        return apply(list_ops.LENGTH, [self.handle], name=name)

    def __repr__(self):
        return f'<rt.TensorArray dtype={self.dtype.name} element_shape={self.element_shape}>'
