"""`rt.custom_gradient`: a function that gives its own gradient, eagerly and in graphs, as
TensorFlow's decorator.

The decorated `f(*args)` returns `(y, grad_fn)`. Its results pass through one IdentityN op
(with the arguments and the variables `f` read as further inputs) whose gradient calls
`grad_fn(*upstream)`; if `f` read variables other than its arguments,
`grad_fn(*upstream, variables=[...])` returns `(input gradients, variable gradients)`. A
Variable argument is an input, as in TensorFlow: its gradient is among the input gradients.
"""
import functools
import inspect

from runtime.core import context, nest
from runtime.core.tensor import Tensor
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import zeros_like
from runtime.ops.identity_n import custom_gradient_attr, identity_n
from runtime.variables import Variable


class _VariableWatcher:
    """Records nothing; collects the variables read while it is active."""

    def __init__(self):
        self.variables = {}

    def record(self, opdef, inputs, attrs, outputs):
        pass  # the watcher only sees reads (variable_accessed); it records no ops

    def variable_accessed(self, variable):
        self.variables.setdefault(id(variable), variable)


class _WatchingVariables:
    """A watcher collects the variables read inside. The tapes keep recording (as
    TensorFlow's): the first-order gradient flows only through the IdentityN's rule, but what
    `f` computed and `grad_fn` uses stays connected to the arguments, so a tape around the
    gradient computation differentiates it again (second derivatives, Hessian-vector
    products)."""

    def __init__(self):
        self.watcher = _VariableWatcher()

    def __enter__(self):
        self._recording = context.recording(self.watcher)
        self._recording.__enter__()
        return self.watcher

    def __exit__(self, *exc):
        self._recording.__exit__(*exc)
        return False


def _takes_variables(grad_fn):
    try:
        parameters = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == 'variables' or p.kind is p.VAR_KEYWORD for p in parameters)


def custom_gradient(f=None):
    """Decorate `f(*args) -> (y, grad_fn)`: `y` is the result and `grad_fn(*upstream)` the
    gradients of the arguments (a tensor, or one per argument); with variables read in `f`,
    `grad_fn(*upstream, variables=None)` returns `(argument gradients, variable
    gradients)`. Works eagerly and inside `ag.function`, with any `rt.GradientTape`."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call(f, args, kwargs)
    return decorated


def _call(f, args, kwargs):
    args = [a if isinstance(a, (Tensor, Variable)) else convert_to_tensor(a) for a in args]
    with _WatchingVariables() as watcher:
        out = f(*args, **kwargs)
    name = getattr(f, '__name__', 'f')
    if not (isinstance(out, tuple) and len(out) == 2 and callable(out[1])):
        raise TypeError(f'A function decorated with rt.custom_gradient must return a pair '
                        f'(result, grad_fn); {name} returned {type(out).__name__}.')
    result, grad_fn = out
    # As TensorFlow: a Variable argument is an input (its gradient is among the input
    # gradients); `variables` are the others `f` read.
    arg_variables = [a for a in args if isinstance(a, Variable)]
    variables = [v for v in watcher.variables.values()
                 if all(v.storage is not a.storage for a in arg_variables)]
    takes_variables = _takes_variables(grad_fn)
    if variables and not takes_variables:
        raise TypeError(f"If using @custom_gradient with a function that uses variables, then "
                        f"grad_fn must accept a keyword argument 'variables'. {name} reads "
                        f"{[v.name for v in variables]}; define grad_fn(*upstream, "
                        f"variables=None) returning (input gradients, variable gradients).")
    flat_result = [convert_to_tensor(t) for t in nest.flatten(result)]
    tensor_args = [a for a in args if isinstance(a, Tensor)]
    watched = variables + arg_variables
    reads = [v.read_value() for v in watched]  # recorded: the tapes see the variables here
    n_out = len(flat_result)

    def gradient(op, *grads):
        upstream = [zeros_like(t) if g is None else g
                    for t, g in zip(flat_result, grads[:n_out])]
        if takes_variables:
            got = grad_fn(*upstream, variables=variables)
            if not (isinstance(got, (tuple, list)) and len(got) == 2):
                raise TypeError(f'grad_fn of {name} takes `variables`, so it must return a '
                                f'pair (input gradients, variable gradients).')
            input_grads, variable_grads = got
            variable_grads = list(variable_grads or [])
        else:
            input_grads, variable_grads = grad_fn(*upstream), []
        input_grads = list(input_grads) if isinstance(input_grads, (list, tuple)) else \
            [input_grads]
        if len(input_grads) != len(args):
            raise ValueError(f'grad_fn of {name} returned {len(input_grads)} gradients for '
                             f'{len(args)} arguments; return one per argument.')
        if len(variable_grads) != len(variables):
            raise ValueError(f'grad_fn of {name} returned {len(variable_grads)} variable '
                             f'gradients for the {len(variables)} variables it reads '
                             f'({[v.name for v in variables]}).')
        by_tensor = [g for a, g in zip(args, input_grads) if isinstance(a, Tensor)]
        by_variable = variable_grads + [g for a, g in zip(args, input_grads)
                                        if isinstance(a, Variable)]
        return [None] * n_out + [None if g is None else convert_to_tensor(g)
                                 for g in by_tensor + by_variable]

    outputs = identity_n(flat_result + tensor_args + reads, custom_gradient_attr(gradient),
                         name='IdentityN')
    return nest.pack_sequence_as(result, outputs[:n_out])
