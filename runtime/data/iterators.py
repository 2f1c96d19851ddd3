"""Iterators over datasets (`iter(ds)`) and optionals (`it.get_next_as_optional()`).

An iterator is an AnonymousIteratorV3 resource started by MakeIterator on the dataset's variant;
`get_next()` is IteratorGetNext. Eagerly the ops run at once and `next(it)` past the end raises
StopIteration; in a graph they are graph ops, and `get_next()` past the end raises
`rt.errors.OutOfRangeError` when the graph runs. An iterator (or optional) is a composite of one
component (its resource or variant tensor), so it can be a loop variable or cross a function
boundary.
"""
from runtime.core import context, errors
from runtime.core.tensor import EagerTensor
from runtime.data import ops, structure
from runtime.graph.scopes import control_dependencies
from runtime.ops.dispatch import apply

# `next(it)` calls on one iterator in graphs before they are taken for an endless Python loop
GRAPH_READS_LIMIT = 10000


def component_attrs(spec):
    return {'output_types': structure.flat_types(spec),
            'output_shapes': structure.flat_shapes(spec)}


def _eager(tensor):
    return type(tensor) is EagerTensor and context.current_graph() is None


class Optional:
    """An element of `element_spec`, or none (`rt.experimental.Optional` in TensorFlow)."""

    def __init__(self, variant, element_spec):
        self.variant_tensor, self.element_spec = variant, element_spec

    def has_value(self, name=None):
        return apply(ops.OPTIONAL_HAS_VALUE, [self.variant_tensor], {}, name)

    def get_value(self, name=None):
        flat = apply(ops.OPTIONAL_GET_VALUE, [self.variant_tensor],
                     component_attrs(self.element_spec), name)
        return structure.pack(self.element_spec, flat)

    def __nest_components__(self):
        return [self.variant_tensor]

    def __nest_from_components__(self, components):
        return Optional(components[0], self.element_spec)


class Iterator:
    """`iter(dataset)`: Python iteration eagerly, `get_next()` in graphs too."""

    def __init__(self, dataset=None, resource=None, element_spec=None):
        self.initializer = None  # in a graph: the MakeIterator op the reads depend on
        if resource is not None:
            self.resource, self.element_spec = resource, element_spec
        else:
            self.element_spec = dataset.element_spec
            self.resource = apply(ops.ANONYMOUS_ITERATOR, [],
                                  component_attrs(self.element_spec))
            self.initializer = apply(ops.MAKE_ITERATOR, [dataset.variant_tensor, self.resource])
        self._attrs = component_attrs(self.element_spec)
        self._graph_reads = 0
        self._last_read = None  # in a graph: the last op that read the iterator
        self._single = not structure.is_structure(self.element_spec)

    def after_initializer(self):
        """A block whose ops run after the iterator's MakeIterator, or after its last read in
        the same graph (as TensorFlow's automatic control dependencies chain the ops of one
        resource, so a graph run elsewhere reads in program order; the executor runs stateful
        ops in order anyway)."""
        last = self._last_read
        if last is None or last.graph is not context.current_graph():
            last = self.initializer
        return control_dependencies([last] if last is not None else [])

    def __iter__(self):
        return self

    def __next__(self):
        if not _eager(self.resource):
            self._graph_reads += 1
            if self._graph_reads > GRAPH_READS_LIMIT:
                raise RuntimeError(
                    f'next() was called {GRAPH_READS_LIMIT} times on one iterator while a graph '
                    f'was built: a Python loop over a dataset in a graph never ends (each call '
                    f'adds an op). Let AutoGraph convert the loop (ag.function converts '
                    f'`for x in ds:`), or use ds.reduce / ds.take.')
            return self.get_next()
        try:  # eagerly: the op runs now, no control dependencies to add
            flat = apply(ops.GET_NEXT, [self.resource], self._attrs)
        except errors.OutOfRangeError:
            raise StopIteration from None
        return flat[0] if self._single else structure.pack(self.element_spec, flat)

    next = __next__

    def get_next(self, name=None):
        with self.after_initializer():
            flat = apply(ops.GET_NEXT, [self.resource], self._attrs, name)
        if flat:
            self._last_read = getattr(flat[0], 'op', None)  # eagerly: none, ops run in order
        return structure.pack(self.element_spec, flat)

    def get_next_as_optional(self):
        with self.after_initializer():
            variant = apply(ops.GET_NEXT_AS_OPTIONAL, [self.resource], self._attrs)
        self._last_read = getattr(variant, 'op', None)
        return Optional(variant, self.element_spec)

    @property
    def output_types(self):
        return structure.map_leaves(lambda s: s.dtype, self.element_spec)

    @property
    def output_shapes(self):
        return structure.map_leaves(lambda s: s.shape, self.element_spec)

    def __nest_components__(self):
        return [self.resource]

    def __nest_from_components__(self, components):
        return Iterator(resource=components[0], element_spec=self.element_spec)

    def __repr__(self):
        return f'<rt.data.Iterator element_spec={self.element_spec!r}>'


class NumpyIterator:
    """`ds.as_numpy_iterator()`: elements as numpy values in the element's structure."""

    def __init__(self, dataset):
        self.iterator = Iterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self.iterator)
        return structure.map_leaves(lambda t: t.numpy(), element)
