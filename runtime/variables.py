"""`rt.Variable`: mutable state that graphs read and assign through a resource handle."""
import numpy as np

from runtime import context
from runtime.convert import convert_for_write, convert_to_tensor
from runtime.executor import evaluate_constant
from runtime.ops import state
from runtime.ops.dispatch import apply, graph_of
from runtime.tensor import SymbolicTensor, readonly_array

_names = {}


def _unique(name):
    n = _names.get(name, 0)
    _names[name] = n + 1
    return name if n == 0 else f'{name}_{n}'




class Variable:
    """A tensor-valued cell. Use it wherever a tensor is expected; it reads its current value.

    Created in eager mode (inside a function being traced it is created outside the graph, as
    in TensorFlow's `init_scope`). Assignments keep the dtype and shape.
    """

    creation_hooks = []  # tracing registers a check here (variables only on the first trace)

    def __init__(self, initial_value, dtype=None, name=None, trainable=True):
        for hook in Variable.creation_hooks:
            hook(self)
        if callable(initial_value):
            with context.init_scope():
                initial_value = initial_value()
        self.trainable = trainable
        if isinstance(initial_value, SymbolicTensor):
            # Lifted out of the graph when only constants feed it (TensorFlow's init_scope).
            lifted = evaluate_constant(initial_value)
            if lifted is None:
                self._initialize_in_graph(initial_value, dtype, name)
                return
            initial_value = lifted
        with context.init_scope():
            value = convert_to_tensor(initial_value, dtype)
        self.storage = state.VariableStorage(value.value, value.dtype, value.shape,
                                             _unique(name or 'Variable'))

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
                                             _unique(name or 'Variable'))
        handle = graph.capture_resource(self.storage)
        apply(state.ASSIGN, [handle, value], name='Initializer/AssignVariableOp')
        graph.deferred_initializers.append(self.storage)

    # ---- what a tensor has ------------------------------------------------------------------

    @property
    def dtype(self):
        return self.storage.dtype

    @property
    def shape(self):
        return self.storage.shape

    @property
    def name(self):
        return f'{self.storage.name}:0'

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
        return apply(state.READ, [handle], {'dtype': self.storage.dtype}, name='ReadVariableOp')

    value = read_value

    def _as_tensor(self):
        return self.read_value()

    # ---- writes ------------------------------------------------------------------------------

    def _write(self, opdef, value, what):
        value = convert_for_write(value, self.dtype)
        if value.dtype is not self.dtype:
            raise TypeError(f'Cannot {what} a {value.dtype.name} value to the {self.dtype.name} '
                            f'variable {self.storage.name!r}; use rt.cast first.')
        if not value.shape.is_compatible_with(self.shape):
            raise ValueError(f'Cannot {what} a value of shape {value.shape} to the variable '
                             f'{self.storage.name!r} of shape {self.shape}.')
        graph = graph_of([value])
        handle = self.storage if graph is None else graph.capture_resource(self.storage)
        apply(opdef, [handle, value], name=opdef.name)
        return self

    def assign(self, value, read_value=True):
        return self._write(state.ASSIGN, value, 'assign')

    def assign_add(self, delta, read_value=True):
        return self._write(state.ASSIGN_ADD, delta, 'add')

    def assign_sub(self, delta, read_value=True):
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
                f'numpy={self.storage.value!r}>')

    __hash__ = object.__hash__
