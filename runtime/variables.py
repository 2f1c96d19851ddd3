"""`rt.Variable`: mutable state that graphs read and assign through a resource handle."""
import inspect
import weakref

import numpy as np

from runtime.core import context, dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import (
    EagerTensor,
    Reference,
    SymbolicTensor,
    numpy_text,
    readonly_array,
)
from runtime.executor import evaluate_constant
from runtime.ops import state
from runtime.ops.convert import convert_for_write, convert_to_tensor
from runtime.ops.dispatch import apply, graph_of
from runtime.ops.slicing import slice_spec, strided_slice


def _declared_shape(value_shape, shape, validate_shape):
    """A variable's shape: `shape` when given (the initial value must fit it), unknown when
    `validate_shape` is False, else the initial value's."""
    if shape is not None:
        declared = TensorShape(shape)
        if not declared.is_compatible_with(value_shape):
            raise ValueError(f'The initial value\'s shape ({value_shape}) is not compatible with '
                             f'the explicitly supplied `shape` argument ({declared}).')
        return declared
    return value_shape if validate_shape else TensorShape(None)


class Variable:
    """A tensor-valued cell. Use it wherever a tensor is expected; it reads its current value.

    Created in eager mode (inside a function being traced it is created outside the graph, as
    in TensorFlow's `init_scope`). Assignments keep the dtype and shape. `rt.Variable(...)`
    makes a `ResourceVariable`, as `tf.Variable(...)` does (the one kind of variable here);
    `isinstance(v, rt.Variable)` holds for it and for the views assignments return.
    """

    creation_hooks = []  # tracing registers a check here (variables only on the first trace)

    def __new__(cls, *args, **kwargs):
        return object.__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, experimental_enable_variable_lifting=True):
        """TensorFlow's signature. `shape` (or `validate_shape=False`, an unknown shape) is the
        shape assignments must keep, the initial value's when None; `constraint` is kept as
        `.constraint` for optimizers that project; `caching_device`, `synchronization`,
        `aggregation`, `import_scope` and `experimental_enable_variable_lifting` change nothing
        on one CPU process (a variable's initial value is always lifted out of a function)."""
        if variable_def is not None:
            raise NotImplementedError('Variable(variable_def=...) restores a TensorFlow 1 '
                                      'VariableDef; restore variables with tf.train.Checkpoint.')
        if initial_value is None:
            raise ValueError('initial_value must be specified.')
        if constraint is not None and not callable(constraint):
            raise ValueError(f'The `constraint` argument must be a callable, got {constraint!r}.')
        for hook in Variable.creation_hooks:
            hook(self)
        scope = context.current_name_scope()  # `outer/` under rt.name_scope('outer')
        if callable(initial_value):
            with context.init_scope():
                initial_value = initial_value()
        self.trainable = True if trainable is None else trainable
        self.constraint = constraint
        if isinstance(initial_value, SymbolicTensor):
            # Lifted out of the graph when only constants feed it (TensorFlow's init_scope).
            lifted = evaluate_constant(initial_value)
            if lifted is None:
                self._initialize_in_graph(initial_value, dtype, scope + (name or 'Variable'))
                return
            initial_value = lifted
        with context.init_scope():
            value = convert_to_tensor(initial_value, dtype)
        self.storage = state.VariableStorage(
            value.value, value.dtype, _declared_shape(value.shape, shape, validate_shape),
            scope + (name or 'Variable'), weakref.ref(self))

    def _initialize_in_graph(self, initial_value, dtype, name):
        """An uninitialized variable whose initial value is assigned by the graph being traced
        (allowed on a Function's first trace: the tracer runs that graph once, then retraces)."""
        graph = initial_value.graph
        if getattr(graph, 'deferred_initializers', None) is None:
            raise ValueError(
                f'The initial value of a Variable must not depend on function inputs or stateful '
                f'ops here (got {initial_value.name!r}); only the first trace of an ag.function '
                f'may initialize a variable from its inputs. Create the variable from Python '
                f'values, constants or eager tensors, or pass a callable that builds its initial '
                f'value.')
        value = convert_to_tensor(initial_value, dtype)
        self.storage = state.VariableStorage(None, value.dtype, value.shape,
                                             name or 'Variable', weakref.ref(self))
        handle = graph.capture_resource(self.storage)
        apply(state.ASSIGN, [handle, value], name='Initializer/AssignVariableOp')
        graph.deferred_initializers.append(self.storage)

    # ---- what a tensor has ------------------------------------------------------------------

    @property
    def variable(self):
        """The variable itself (an `UnreadVariable` gives the variable it was assigned from)."""
        return self

    @property
    def dtype(self):
        return self.storage.dtype

    @property
    def shape(self):
        return self.storage.shape

    @property
    def name(self):
        return f'{self.storage.name}:0'

    device = EagerTensor.device  # variables live on the CPU

    def numpy(self):
        """The current value as a numpy array the caller owns (a copy: writing to it does not
        change the variable), or a numpy scalar for rank 0."""
        value = self.storage.value
        return value.copy() if type(value) is np.ndarray else value

    def __array__(self, dtype=None, copy=None):
        """`np.asarray(v)`: a copy of the current value, as in TensorFlow (a read-only view only
        when numpy asks for no copy)."""
        return readonly_array(self.storage.value, dtype, copy if copy is False else True)

    def read_value(self):
        graph = context.current_graph()
        handle = self.storage if graph is None else graph.capture_resource(self.storage)
        self._accessed()
        return apply(state.READ, [handle], {'dtype': self.storage.dtype}, name='ReadVariableOp')

    def _accessed(self):
        if context.active_tapes[0]:  # gradient tapes watch the trainable variables read inside
            for tape in context.state.tapes:
                accessed = getattr(tape, 'variable_accessed', None)
                if accessed is not None:
                    accessed(self.variable)

    value = read_value

    def __tf_tensor__(self, dtype=None, name=None):
        """TensorFlow's tensor-conversion protocol: the current value (`rt.convert_to_tensor`
        checks `dtype`)."""
        return self.read_value()

    # ---- writes ------------------------------------------------------------------------------

    def _write(self, opdef, value, what):
        value = self._checked_value(value, what)
        if not value.shape.is_compatible_with(self.shape):
            if what == 'assign':  # TensorFlow's words, of both kinds of error
                raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape "
                                 f"mismatch.The variable shape {self.shape}, and the assigned "
                                 f"value shape {value.shape} are incompatible.")
            raise errors.InvalidArgumentError(
                None, None, f'Cannot update variable with shape {self.shape.as_list()} using a '
                f'Tensor with shape {value.shape.as_list()}, shapes must be equal (the '
                f'variable {self.storage.name!r}: {what} a value of its shape).')
        handle = self._handle([value])
        apply(opdef, [handle, value], name=opdef.name)
        return UnreadVariable(self, None if handle is self.storage else handle.graph)

    @property
    def handle(self):
        """The resource the ops reading and writing this variable take: its storage eagerly,
        the graph's handle of it while a graph is built."""
        return self._handle(())

    def _handle(self, values):
        """The storage eagerly, else the graph's handle of it (the graph `values` go into)."""
        graph = graph_of(values)
        return self.storage if graph is None else graph.capture_resource(self.storage)

    def _checked_value(self, value, what):
        value = convert_for_write(value, self.dtype)
        if value.dtype is not self.dtype:
            raise TypeError(f'Cannot {what} a {value.dtype.name} value to the {self.dtype.name} '
                            f'variable {self.storage.name!r}; use rt.cast first.')
        return value

    def scatter_nd_update(self, indices, updates, name=None):
        """Set the elements (or slices) at the index tuples `indices` to `updates` (op
        `ResourceScatterNdUpdate`); returns the variable."""
        return self._scatter_nd(state.SCATTER_ND_UPDATE, 'scatter_nd_update', indices, updates,
                                name)

    def scatter_nd_add(self, indices, updates, name=None):
        """Add `updates` to the elements (or slices) at the index tuples `indices` (op
        `ResourceScatterNdAdd`); returns the variable."""
        return self._scatter_nd(state.SCATTER_ND_ADD, 'scatter_nd_add', indices, updates, name)

    def scatter_nd_sub(self, indices, updates, name=None):
        """Subtract `updates` from the elements (or slices) at the index tuples `indices` (op
        `ResourceScatterNdSub`); returns the variable."""
        return self._scatter_nd(state.SCATTER_ND_SUB, 'scatter_nd_sub', indices, updates, name)

    def _scatter_nd(self, opdef, method, indices, updates, name):
        indices = convert_to_tensor(indices)
        if indices.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f'{method} needs int32 or int64 indices, got {indices.dtype.name}.')
        updates = self._checked_value(updates, 'scatter')
        k = indices.shape[-1] if indices.shape.rank else None
        if k is not None and self.shape.rank is not None and indices.shape.is_fully_defined():
            expected = TensorShape(indices.shape.as_list()[:-1] + self.shape.as_list()[k:])
            if not updates.shape.is_compatible_with(expected):
                raise ValueError(f'{method} on {self.storage.name!r}: updates must have '
                                 f'shape {expected}, got {updates.shape}.')
        apply(opdef, [self._handle([indices, updates]), indices, updates],
              name=name or opdef.name)
        return self

    def sparse_read(self, indices, name=None):
        """The rows `indices` of the variable's current value (op `ResourceGather`), as
        `rt.gather(variable, indices)`."""
        indices = convert_to_tensor(indices)
        if indices.dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f'sparse_read needs int32 or int64 indices, got '
                            f'{indices.dtype.name}.')
        handle = self._handle([indices])
        self._accessed()
        return apply(state.GATHER, [handle, indices],
                     {'dtype': self.dtype}, name=name or 'ResourceGather')

    def __getitem__(self, index):
        """`v[index]`: reads as `v.read_value()[index]`; `v[index].assign(x)` writes the slice."""
        return VariableSlice(self, index)

    def assign(self, value, read_value=True):
        """Write `value` (of the variable's dtype and shape); returns an `UnreadVariable`."""
        return self._write(state.ASSIGN, value, 'assign')

    def assign_add(self, delta, read_value=True):
        """Add `delta` to the variable; returns an `UnreadVariable`."""
        return self._write(state.ASSIGN_ADD, delta, 'add')

    def assign_sub(self, delta, read_value=True):
        """Subtract `delta` from the variable; returns an `UnreadVariable`."""
        return self._write(state.ASSIGN_SUB, delta, 'subtract')

    # ---- conversions ---------------------------------------------------------------------------

    def __bool__(self):
        return bool(self.read_value())

    def __float__(self):
        return float(self.storage.value)

    def __int__(self):
        return int(self.storage.value)

    def __index__(self):
        return int(self.storage.value)

    def __len__(self):
        return len(self.read_value())

    def __iter__(self):
        return iter(self.read_value())

    def __repr__(self):
        return (f"<rt.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f'numpy={numpy_text(self.storage.value, is_repr=True)}>')

    def __hash__(self):
        # `==` is elementwise, so a variable is no dict key (as in TensorFlow): `.ref()` is one
        raise TypeError(f'Variable is unhashable. Instead, use variable.ref() as the key. '
                        f'(Variable: {self!r})')

    def ref(self):
        """A hashable reference to this variable (equal for the same variable); `.deref()`
        gives it back."""
        return Reference(self)


# TensorFlow's signature for `inspect.signature(rt.Variable)` (the class's `__new__` takes
# anything, to make a ResourceVariable)
Variable.__signature__ = inspect.signature(Variable.__init__).replace(
    parameters=list(inspect.signature(Variable.__init__).parameters.values())[1:])


class ResourceVariable(Variable):
    """What `rt.Variable(...)` makes: a variable read and written through a resource handle (its
    storage; a graph's `VarHandleOp`), TensorFlow's `ResourceVariable`, so
    `type(v).__name__` reads as there."""


class UnreadVariable(Variable):
    """What `assign`, `assign_add` and `assign_sub` return, as TensorFlow's `_UnreadVariable`:
    the assigned variable, not read yet. It shares the variable's storage, so reading it (or
    using it as a tensor) reads the variable's value at that point of the program, in graphs
    as eagerly; assigning through it assigns the variable (`v.assign(1).assign_add(2)`). Its
    name is `'UnreadVariable'`, as in TensorFlow's repr. No variable is created: the tracing
    hooks of new variables do not run."""

    def __init__(self, variable, graph=None):
        self.storage = variable.storage
        self.trainable = variable.trainable
        self.constraint = variable.constraint
        self._variable = variable.variable
        self._graph = graph  # the graph the assignment went into; None eagerly

    @property
    def variable(self):
        return self._variable

    @property
    def name(self):
        return 'UnreadVariable'

    def __repr__(self):
        if self._graph is None:
            return super().__repr__()
        # Assigned in a graph: its value is known when the graph runs (TensorFlow's repr).
        return f"<rt.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


class VariableSlice:
    """`variable[index]`: usable as the tensor `variable.read_value()[index]`, and `.assign(value)`
    writes `value` into that slice of the variable (op `ResourceStridedSliceAssign`), eagerly or
    in a graph, persisting like any assignment."""

    def __init__(self, variable, index):
        self.variable = variable
        self.index = index

    def __tf_tensor__(self, dtype=None, name=None):
        """The slice's current value (TensorFlow's tensor-conversion protocol)."""
        return strided_slice(self.variable.read_value(), self.index)

    def assign(self, value, name=None):
        """Write `value` (of the slice's shape) into the slice; returns an `UnreadVariable` of
        the whole variable, as TensorFlow does."""
        variable = self.variable
        value = variable._checked_value(value, 'assign')
        operands, attrs = slice_spec(self.index)
        handle = variable._handle([value] + operands)
        apply(state.STRIDED_SLICE_ASSIGN, [handle] + operands + [value], attrs,
              name=name or 'ResourceStridedSliceAssign')
        return UnreadVariable(variable, None if handle is variable.storage else handle.graph)

    @property
    def dtype(self):
        return self.variable.dtype

    @property
    def shape(self):
        return self.__tf_tensor__().shape

    def numpy(self):
        return self.__tf_tensor__().numpy()

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.numpy(), dtype=dtype)

    def __bool__(self):
        return bool(self.__tf_tensor__())

    def __float__(self):
        return float(self.__tf_tensor__())

    def __int__(self):
        return int(self.__tf_tensor__())

    def __index__(self):
        return self.__tf_tensor__().__index__()

    def __len__(self):
        return len(self.__tf_tensor__())

    def __iter__(self):
        return iter(self.__tf_tensor__())

    def __repr__(self):
        return repr(self.__tf_tensor__())

    def __str__(self):
        return str(self.__tf_tensor__())

    def __hash__(self):
        raise TypeError('Tensor is unhashable. Instead, use tensor.ref() as the key.')

    def ref(self):
        return Reference(self)

