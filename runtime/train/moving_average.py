"""`rt.train.ExponentialMovingAverage`: shadow variables that follow variables' moving averages,
updated with TensorFlow's rule (`shadow -= (1 - decay) * (shadow - variable)`)."""
from runtime.core.context import init_scope
from runtime.graph.scopes import group
from runtime.ops.array import cast, identity
from runtime.ops.math import minimum
from runtime.variables import Variable


class ExponentialMovingAverage:
    """Moving averages of variables. `apply(var_list)` creates a shadow variable per variable
    (on the first call, holding its value) and moves each shadow toward its variable:
    `shadow -= (1 - decay) * (shadow - variable)`; with `num_updates` the decay used is
    `min(decay, (1 + num_updates) / (10 + num_updates))`. `average(var)` is the shadow,
    `average_name(var)` the name a checkpoint keeps it under. `zero_debias` (TensorFlow's bias
    correction for averages started at zero) is not supported: shadows start at the values."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name='ExponentialMovingAverage'):
        if zero_debias:
            raise NotImplementedError('ExponentialMovingAverage(zero_debias=True) is not '
                                      'supported: shadows start at the variables\' values.')
        self._decay = decay
        self._num_updates = num_updates
        self._name = name
        self._averages = {}  # id(variable) -> (variable, its shadow Variable)

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Create the shadows of `var_list` not made yet, then update every shadow of it."""
        var_list = list(var_list or ())
        for var in var_list:
            if not var.dtype.is_floating:
                raise TypeError(f'The variables must be half, float, or double: {var.name}')
            if id(var) not in self._averages:
                with init_scope():
                    self._averages[id(var)] = (var, Variable(
                        identity(var), name=self.average_name(var), trainable=False))
        decay = cast(self._decay, var_list[0].dtype) if var_list else None
        if self._num_updates is not None and var_list:
            steps = cast(self._num_updates, var_list[0].dtype)
            decay = minimum(decay, (1.0 + steps) / (10.0 + steps))
        updates = []
        for var in var_list:
            shadow = self._averages[id(var)][1]
            rate = 1.0 - cast(decay, var.dtype)
            updates.append(shadow.assign_sub((shadow - var) * rate))
        return group(*updates)

    def average(self, var):
        """The shadow of `var`, or None when `apply` has not seen it."""
        return self._averages.get(id(var), (None, None))[1]

    def average_name(self, var):
        """The name of `var`'s shadow: `<variable name>/<this name>`."""
        base = var.name[:-2] if var.name.endswith(':0') else var.name
        return f'{base}/{self._name}'

    def variables_to_restore(self, moving_avg_variables=None):
        """{name: variable} that restores each averaged variable from its shadow's name (the
        variables `apply` has seen, or `moving_avg_variables`)."""
        if moving_avg_variables is None:
            moving_avg_variables = [var for var, _ in self._averages.values()]
        return {self.average_name(var): var for var in moving_avg_variables}
