"""Element structures of datasets: nested tuples, namedtuples and dicts of `rt.TensorSpec`s.

As in `tf.data`, tuples, namedtuples and dicts nest, while a Python list is one tensor
(`from_tensor_slices([1, 2, 3])` has scalar elements). A dataset's elements travel between its
stages as flat tuples of numpy values, in `rt.nest.flatten` order (dicts by sorted key); the
structure is rebuilt only for the user (iteration, the functions given to `map` and friends).
"""
import numpy as np

from runtime.core import dtypes, nest
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.core.tensor_spec import TensorSpec
from runtime.ops.convert import convert_to_tensor, to_numpy


def is_structure(value):
    """A tuple, namedtuple or dict (the containers of an element); lists are tensors."""
    return isinstance(value, (tuple, dict))


def normalize(value, what):
    """`value` with every leaf a tensor (lists and numpy arrays converted; a numpy array is not
    copied). TypeError naming `what` for a leaf that is no tensor."""
    if isinstance(value, dict):
        return type(value)((k, normalize(v, what)) for k, v in value.items())
    if isinstance(value, tuple):
        items = [normalize(v, what) for v in value]
        return type(value)(*items) if nest.is_namedtuple(value) else tuple(items)
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.ndarray) and value.dtype.kind in 'biuf':
        dtype = dtypes.NUMERIC_BY_NUMPY.get(value.dtype)
        if dtype is not None:  # viewed read-only, never copied (a 500 MB array stays one)
            view = value.view()
            view.flags.writeable = False
            return EagerTensor(view, dtype)
    if value is None or hasattr(value, '__nest_components__'):
        raise TypeError(f'{what} must be a tensor or a (nested) tuple or dict of tensors, got '
                        f'{value!r}.')
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f'{what} must be a tensor or a (nested) tuple or dict of tensors; '
                        f'{value!r} of type {type(value).__name__} does not convert: {e}') \
            from None


def flatten(structure):
    """The leaves of an element structure (tuples and dicts nest; a list is one leaf)."""
    out = []
    _flatten_into(structure, out)
    return out


def _flatten_into(x, out):
    if isinstance(x, dict):
        for k in sorted(x, key=nest.sort_key):
            _flatten_into(x[k], out)
    elif isinstance(x, tuple):
        for item in x:
            _flatten_into(item, out)
    else:
        out.append(x)


def pack(structure, flat):
    """`structure` rebuilt around the leaves `flat` (in `flatten` order)."""
    it = iter(flat)
    return _pack(structure, it)


def _pack(structure, it):
    if isinstance(structure, dict):
        built = {k: _pack(structure[k], it) for k in sorted(structure, key=nest.sort_key)}
        return type(structure)((k, built[k]) for k in structure)
    if isinstance(structure, tuple):
        items = [_pack(item, it) for item in structure]
        return type(structure)(*items) if nest.is_namedtuple(structure) else tuple(items)
    return next(it)


def map_leaves(func, structure):
    return pack(structure, [func(leaf) for leaf in flatten(structure)])


def spec_of(value):
    """The element spec of a normalized value: its structure with TensorSpec leaves."""
    return map_leaves(lambda t: TensorSpec(t.shape, t.dtype), value)


def sliced_spec(spec, what):
    """The spec of the slices along the first axis of tensors of `spec`."""
    def leaf(s):
        if s.shape.rank == 0:
            raise ValueError(f'{what}: every component must have at least one dimension to '
                             f'slice along, got a scalar of {s.dtype.name}; use from_tensors '
                             f'for one element.')
        return TensorSpec(TensorShape(None) if s.shape.rank is None else s.shape[1:], s.dtype)
    return map_leaves(leaf, spec)


def batched_spec(spec, size):
    """The spec of batches of `size` (None: unknown) elements of `spec`."""
    def leaf(s):
        shape = TensorShape(None) if s.shape.rank is None else TensorShape(
            [size] + s.shape.as_list())
        return TensorSpec(shape, s.dtype)
    return map_leaves(leaf, spec)


def flat_types(spec):
    return [s.dtype for s in flatten(spec)]


def flat_shapes(spec):
    return [s.shape for s in flatten(spec)]


def most_specific(a, b, what):
    """The spec covering elements of both `a` and `b` (shapes relaxed where they differ);
    TypeError when their structure or dtypes differ."""
    problem = structure_difference(a, b)
    if problem:
        raise TypeError(f'{what}: the datasets must have the same element structure. {problem}')
    flat_a, flat_b = flatten(a), flatten(b)
    out = []
    for x, y in zip(flat_a, flat_b):
        if x.dtype is not y.dtype:
            raise TypeError(f'{what}: the datasets must have the same element types, got '
                            f'{x.dtype.name} and {y.dtype.name}.')
        out.append(TensorSpec(x.shape.most_specific_compatible_shape(y.shape), x.dtype))
    return pack(a, out)


def structure_difference(a, b):
    """'' when `a` and `b` nest alike (lists count as leaves), else a sentence saying where."""
    shape_a = map_leaves(lambda _: 0, a)
    shape_b = map_leaves(lambda _: 0, b)
    return nest.structure_difference(shape_a, shape_b)


def numpy_leaf(value, dtype):
    """A numpy value of `dtype` for one component of an element a Python generator gave."""
    if isinstance(value, EagerTensor):
        value = value.value
    elif isinstance(value, SymbolicTensor):
        raise TypeError('A generator must yield Python or numpy values, not graph tensors.')
    return to_numpy(value, dtype)


class DatasetSpec:
    """`rt.data.DatasetSpec(element_spec)`: the type of a dataset argument (an input signature
    entry of an `ag.function`, or what `tf.type_spec_from_value` would give)."""

    __slots__ = ('element_spec', 'dataset_shape')

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.dataset_shape = TensorShape(dataset_shape)

    @classmethod
    def from_value(cls, dataset):
        return cls(dataset.element_spec)

    def is_compatible_with(self, other):
        spec = getattr(other, 'element_spec', None)
        if spec is None:
            return False
        if structure_difference(self.element_spec, spec):
            return False
        return all(a.dtype is b.dtype and a.shape.is_compatible_with(b.shape)
                   for a, b in zip(flatten(self.element_spec), flatten(spec)))

    def _key(self):
        return tuple((s.dtype, None if s.shape.rank is None else tuple(s.shape))
                     for s in flatten(self.element_spec)), repr(map_leaves(lambda _: 0,
                                                                           self.element_spec))

    def __eq__(self, other):
        return isinstance(other, DatasetSpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f'DatasetSpec({self.element_spec!r}, TensorShape([]))'


class IteratorSpec:
    """`rt.data.IteratorSpec(element_spec)`: the type of an iterator over elements of
    `element_spec` (`IteratorSpec.from_value(iter(ds))`)."""

    __slots__ = ('element_spec',)

    def __init__(self, element_spec):
        self.element_spec = element_spec

    @classmethod
    def from_value(cls, iterator):
        return cls(iterator.element_spec)

    def is_compatible_with(self, other):
        return DatasetSpec(self.element_spec).is_compatible_with(other)

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and \
            DatasetSpec(self.element_spec) == DatasetSpec(other.element_spec)

    def __hash__(self):
        return hash(DatasetSpec(self.element_spec))

    def __repr__(self):
        return f'IteratorSpec({self.element_spec!r})'
