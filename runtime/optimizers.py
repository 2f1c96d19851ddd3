"""`rt.optimizers.SGD` and `rt.optimizers.Adam`, with TensorFlow's update formulas.

`apply_gradients(zip(grads, variables))` works eagerly and inside an `ag.function`. Slot
variables (momentum, Adam's moments) are created the first time a variable is updated, so a
training step traced once creates them during that trace and never retraces for them.
"""
import numpy as np


from runtime.ops.array import cast
from runtime.ops.math import sqrt
from runtime.variables import Variable

__all__ = ['Optimizer', 'SGD', 'Adam']


class Optimizer:
    """The shared part: iterations, slot variables, `apply_gradients`."""

    def __init__(self, learning_rate, name):
        self.learning_rate = learning_rate
        self.name = name
        self._iterations = None
        self._slots = {}  # id(variable) -> {slot name: Variable}

    @property
    def iterations(self):
        """How many times `apply_gradients` ran (an int64 Variable, as in TensorFlow)."""
        if self._iterations is None:
            self._iterations = Variable(np.int64(0), name=f'{self.name}/iter', trainable=False)
        return self._iterations

    def slot(self, variable, name):
        """The slot variable `name` of `variable` (zeros like it), created on first use."""
        slots = self._slots.setdefault(id(variable), {})
        if name not in slots:
            slots[name] = Variable(np.zeros(variable.shape.as_list(),
                                            dtype=variable.dtype.np_dtype),
                                   name=f'{variable.storage.name}/{name}', trainable=False)
        return slots[name]

    def apply_gradients(self, grads_and_vars):
        """Update each variable with its gradient (pairs whose gradient is None are skipped);
        returns the `iterations` Variable."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        for g, v in pairs:
            if not isinstance(v, Variable):
                raise TypeError(f'{type(self).__name__}.apply_gradients updates rt.Variables, '
                                f'got {v!r}.')
            if not v.dtype.is_floating:
                raise TypeError(f'Cannot train the {v.dtype.name} variable {v.name!r}; only '
                                f'float variables have gradients.')
        iterations = self.iterations
        for g, v in pairs:
            self.update(g, v, iterations)
        iterations.assign_add(np.int64(1))
        return iterations

    def update(self, grad, variable, iterations):
        raise NotImplementedError


class SGD(Optimizer):
    """Gradient descent: `w -= learning_rate * g`; with momentum, TensorFlow's
    `velocity = momentum * velocity - learning_rate * g; w += velocity`."""

    def __init__(self, learning_rate=0.01, momentum=0.0, name='SGD'):
        super().__init__(learning_rate, name)
        if not 0 <= momentum <= 1:
            raise ValueError(f'SGD momentum must be in [0, 1], got {momentum}.')
        self.momentum = momentum

    def update(self, grad, variable, iterations):
        if self.momentum:
            velocity = self.slot(variable, 'momentum')
            velocity.assign(self.momentum * velocity - self.learning_rate * grad)
            variable.assign_add(velocity)
        else:
            variable.assign_sub(self.learning_rate * grad)


class Adam(Optimizer):
    """Adam, TensorFlow's formula: with t = iterations + 1,
    `alpha = lr * sqrt(1 - beta_2**t) / (1 - beta_1**t)`, `m += (g - m) * (1 - beta_1)`,
    `v += (g*g - v) * (1 - beta_2)`, `w -= alpha * m / (sqrt(v) + epsilon)`."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name='Adam'):
        super().__init__(learning_rate, name)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def update(self, grad, variable, iterations):
        m, v = self.slot(variable, 'm'), self.slot(variable, 'v')
        step = cast(iterations + np.int64(1), variable.dtype)
        alpha = self.learning_rate * sqrt(1 - self.beta_2 ** step) / (1 - self.beta_1 ** step)
        m.assign_add((grad - m) * (1 - self.beta_1))
        v.assign_add((grad * grad - v) * (1 - self.beta_2))
        variable.assign_sub(alpha * m / (sqrt(v) + self.epsilon))


