"""TensorShape: a possibly partial shape (`None` for an unknown dim, or an unknown rank)."""


class TensorShape:
    """`TensorShape([2, None])`; `TensorShape(None)` has unknown rank. Immutable and hashable."""

    __slots__ = ('_dims',)

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        elif dims is not None:
            if isinstance(dims, int):
                dims = (dims,)
            dims = tuple(None if d is None else _dim(d) for d in dims)
        self._dims = dims

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self):
        if self._dims is None:
            raise ValueError('as_list() is not defined on a shape of unknown rank.')
        return list(self._dims)

    def is_fully_defined(self):
        return self._dims is not None and None not in self._dims

    def is_compatible_with(self, other):
        """True if some fully defined shape could match both (unknown dims match anything)."""
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def most_specific_compatible_shape(self, other):
        """The most specific shape compatible with both: dims that differ become `None`."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def merge_with(self, other):
        """The shape that has the known dims of both; ValueError if they disagree."""
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f'Shapes {self} and {other} are not compatible')
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def __len__(self):
        if self._dims is None:
            raise ValueError('Cannot take the length of a shape with unknown rank.')
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError('Cannot iterate over a shape with unknown rank.')
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self):
        return hash(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __str__(self):
        if self._dims is None:
            return '<unknown>'
        if len(self._dims) == 1:
            return f'({self._dims[0]},)'
        return '(' + ', '.join(str(d) for d in self._dims) + ')'

    def __repr__(self):
        return 'TensorShape(None)' if self._dims is None else f'TensorShape({list(self._dims)})'


def _dim(d):
    if hasattr(d, '__index__'):
        d = d.__index__()
        if d < 0:
            raise ValueError(f'Dimension {d} must be >= 0.')
        return d
    raise TypeError(f'A shape dimension must be an int or None, got {d!r}.')


def as_shape(value):
    return value if isinstance(value, TensorShape) else TensorShape(value)
