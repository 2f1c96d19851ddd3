"""`rt.optimizers.SGD` and `rt.optimizers.Adam`, with TensorFlow's update formulas.

`apply_gradients(zip(grads, variables))` works eagerly and inside an `ag.function`. Slot
variables (momentum, Adam's moments) are created the first time a variable is updated, so a
training step traced once creates them during that trace and never retraces for them.
"""
import numpy as np

from runtime.core import context
from runtime.module import Module, notify_new_children
from runtime.ops import training
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply, graph_of
from runtime.variables import Variable

__all__ = ['Optimizer', 'SGD', 'Adam']


def _handle(variable, graph):
    """What ops in `graph` (None: eagerly) reach `variable`'s storage through."""
    return variable.storage if graph is None else graph.capture_resource(variable.storage)


class Optimizer(Module):
    """The shared part: iterations, slot variables, `apply_gradients`.

    An `rt.Module`: its `variables` are `iterations` and the slot variables, so a Module that
    holds an optimizer saves them too. A subclass gives `prepare(dtype, iterations)` (values
    shared by every variable of one step, computed once) and `update(grad, variable, graph,
    shared)`, which adds the one training op (`runtime.ops.training`) that updates the variable.
    """

    def __init__(self, learning_rate, name):
        super().__init__(name)
        self._rate_variable = None  # made when a checkpoint needs it (trackable_children)
        self.learning_rate = learning_rate
        # How many times `apply_gradients` ran (an int64 Variable, as in TensorFlow).
        self.iterations = Variable(np.int64(0), name=f'{name}/iter', trainable=False)
        self.slot_variables = []  # in order of creation
        self._slots = {}  # id(variable) -> {slot name: Variable}
        self._trained = []  # the variables with slots, in order of their first update

    def slot(self, variable, name):
        """The slot variable `name` of `variable` (zeros like it), created on first use."""
        if id(variable) not in self._slots:
            self._trained.append(variable)
        slots = self._slots.setdefault(id(variable), {})
        if name not in slots:
            slots[name] = Variable(np.zeros(variable.shape.as_list(),
                                            dtype=variable.dtype.np_dtype),
                                   name=f'{variable.storage.name}/{name}', trainable=False)
            self.slot_variables.append(slots[name])
            notify_new_children(self)  # a checkpoint restored before this slot existed
        return slots[name]

    @property
    def learning_rate(self):
        """The step size (a restored checkpoint's, once one is restored)."""
        if self._rate_variable is not None:
            return float(self._rate_variable.storage.value)
        return self._rate

    @learning_rate.setter
    def learning_rate(self, value):
        self._rate = value
        if self._rate_variable is not None:
            self._rate_variable.storage.value = np.float32(value)

    SLOT_LISTS = ()  # (Keras's list name, slot name) for each kind of slot

    def trackable_children(self):
        """The optimizer's objects under the names Keras 3's optimizers give them in a
        checkpoint, so that tf.train.Checkpoint and rt.train.Checkpoint exchange slots:
        `_iterations`, `_learning_rate`, one list per kind of slot (by variable, in order of
        their first update) and `_variables` (all of them: iterations, learning rate, then
        each variable's slots in turn)."""
        rate = self._rate_variable
        if rate is None:
            rate = Variable(np.float32(self._rate), name=f'{self.name}/learning_rate',
                            trainable=False)
            self._rate_variable = rate
        lists = {key: [self._slots[id(v)][slot] for v in self._trained
                       if slot in self._slots[id(v)]] for key, slot in self.SLOT_LISTS}
        every = [self.iterations, rate]
        for v in self._trained:
            every.extend(self._slots[id(v)][slot] for _, slot in self.SLOT_LISTS
                         if slot in self._slots[id(v)])
        return [('_variables', every), ('_iterations', self.iterations),
                ('_learning_rate', rate)] + list(lists.items())

    def apply_gradients(self, grads_and_vars):
        """Update each variable with its gradient (pairs whose gradient is None are skipped);
        returns the `iterations` Variable."""
        pairs = []
        for g, v in grads_and_vars:
            if g is None:
                continue
            if not isinstance(v, Variable):
                raise TypeError(f'{type(self).__name__}.apply_gradients updates rt.Variables, '
                                f'got {v!r}.')
            if not v.dtype.is_floating:
                raise TypeError(f'Cannot train the {v.dtype.name} variable {v.name!r}; only '
                                f'float variables have gradients.')
            g = convert_to_tensor(g)
            if g.dtype is not v.dtype:
                raise TypeError(f'The gradient of {v.name!r} is {g.dtype.name} but the variable '
                                f'is {v.dtype.name}.')
            pairs.append((g, v))
        iterations = self.iterations
        shared = {}
        for g, v in pairs:
            if v.dtype not in shared:
                shared[v.dtype] = self.prepare(v.dtype, iterations)
            graph = context.current_graph() or graph_of([g])
            self.update(g, v, graph, shared[v.dtype])
        iterations.assign_add(np.int64(1))
        return iterations

    def prepare(self, dtype, iterations):
        return None

    def update(self, grad, variable, graph, shared):
        raise NotImplementedError


class SGD(Optimizer):
    """Gradient descent: `w -= learning_rate * g`; with momentum, TensorFlow's
    `velocity = momentum * velocity - learning_rate * g; w += velocity` (ops
    `ResourceApplyGradientDescent` / `ResourceApplyKerasMomentum`)."""

    SLOT_LISTS = (('_momentums', 'momentum'),)

    def __init__(self, learning_rate=0.01, momentum=0.0, name='SGD'):
        super().__init__(learning_rate, name)
        if not 0 <= momentum <= 1:
            raise ValueError(f'SGD momentum must be in [0, 1], got {momentum}.')
        self.momentum = momentum

    def update(self, grad, variable, graph, shared):
        lr = variable.dtype.np_dtype.type(self.learning_rate)
        if self.momentum:
            velocity = self.slot(variable, 'momentum')
            apply(training.APPLY_KERAS_MOMENTUM,
                  [_handle(variable, graph), _handle(velocity, graph), lr, grad,
                   variable.dtype.np_dtype.type(self.momentum)])
        else:
            apply(training.APPLY_GRADIENT_DESCENT, [_handle(variable, graph), lr, grad])


class Adam(Optimizer):
    """Adam, TensorFlow's formula (op `ResourceApplyAdam`): with t = iterations + 1,
    `alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)`, `m += (g - m) * (1 - beta_1)`,
    `v += (g*g - v) * (1 - beta_2)`, `w -= alpha * m / (sqrt(v) + epsilon)`."""

    SLOT_LISTS = (('_momentums', 'm'), ('_velocities', 'v'))

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name='Adam'):
        super().__init__(learning_rate, name)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def prepare(self, dtype, iterations):
        """beta_1**t and beta_2**t, once per step (numpy scalars eagerly, ops in a graph)."""
        kind = dtype.np_dtype.type
        # The step's constants of this dtype, made once for all its variables.
        constants = (kind(self.learning_rate), kind(self.beta_1), kind(self.beta_2),
                     kind(self.epsilon))
        if context.current_graph() is None:
            step = kind(iterations.numpy() + 1)
            return (kind(self.beta_1) ** step, kind(self.beta_2) ** step) + constants
        step = cast(iterations + np.int64(1), dtype)
        return (kind(self.beta_1) ** step, kind(self.beta_2) ** step) + constants

    def update(self, grad, variable, graph, shared):
        apply(training.APPLY_ADAM,
              [_handle(variable, graph), _handle(self.slot(variable, 'm'), graph),
               _handle(self.slot(variable, 'v'), graph), *shared, grad])
