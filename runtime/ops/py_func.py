"""Ops that call back into Python when they run: `EagerPyFunc` (`rt.py_function`: the function
gets eager tensors) and `PyFunc` / `PyFuncStateless` (`rt.numpy_function`: numpy arrays).

The Python function travels in the node's payload (a GraphDef names it by its `token`). The
ops are stateful (except PyFuncStateless), so in a graph they run on every run, in program order.

Gradients (`rt.py_function` only, as in TensorFlow): eagerly under a gradient tape the function
runs on the input tensors themselves, without an op, so the tape records the ops it runs. In a
graph the gradient of `EagerPyFunc` is another `EagerPyFunc` that runs the function again under
a tape on the op's inputs and differentiates it.
"""
import functools
import itertools

import numpy as np

from runtime.core import context, dtypes, errors, nest
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor, Tensor
from runtime.ops.convert import convert_to_tensor, to_numpy
from runtime.ops.dispatch import apply, graph_of
from runtime.ops.registry import register

_tokens = itertools.count()


def checked_results(value, Tout, what, tensors=False):
    """The numpy values of the function's results, one per dtype of `Tout` (with `tensors`,
    eager tensors: the function's own where it returned tensors)."""
    if not Tout:
        return ()
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(values) != len(Tout):
        raise errors.InvalidArgumentError(
            message=f'{what} returned {len(values)} values but Tout has {len(Tout)} dtypes.')
    out = []
    for v, dtype in zip(values, Tout):
        if isinstance(v, Tensor) or hasattr(v, '_as_tensor'):
            v = convert_to_tensor(v)
            if v.dtype is not dtype:
                raise errors.InvalidArgumentError(
                    message=f'{what} returned a {v.dtype.name} tensor where Tout says '
                            f'{dtype.name}.')
            out.append(v if tensors else v.value)
            continue
        if isinstance(v, (np.ndarray, np.generic)) and dtypes.of_value(v) is not dtype:
            raise errors.InvalidArgumentError(
                message=f'{what} returned a {np.asarray(v).dtype} array where Tout says '
                        f'{dtype.name}.')
        out.append(EagerTensor(to_numpy(v, dtype), dtype) if tensors else to_numpy(v, dtype))
    return tuple(out)


def _eager_bind(attrs, func):
    Tin, Tout = attrs['Tin'], attrs['Tout']

    def call(*values):
        with context.init_scope():  # the function runs eagerly, even while a graph is built
            args = [EagerTensor(v, t) for v, t in zip(values, Tin)]
            return checked_results(func(*args), Tout, 'The function given to rt.py_function')
    return call


def _numpy_bind(attrs, func):
    Tout = attrs['Tout']

    def call(*values):
        with context.init_scope():
            args = [np.asarray(v) if not isinstance(v, bytes) else v for v in values]
            return checked_results(func(*args), Tout, 'The function given to rt.numpy_function')
    return call


def _infer(inputs, attrs):
    return [(dtype, TensorShape(None)) for dtype in attrs['Tout']]


_FIELDS = dict(infer=_infer, inputs=('input',), outputs='output', type_attrs=())
EAGER_PY_FUNC = register('EagerPyFunc', bind_kernel=_eager_bind, stateful=True,
                         defaults={'is_async': False},
                         **_FIELDS)
PY_FUNC = register('PyFunc', bind_kernel=_numpy_bind, stateful=True,
                   **_FIELDS)
PY_FUNC_STATELESS = register('PyFuncStateless', bind_kernel=_numpy_bind, foldable=False, **_FIELDS)


def _call(opdef, func, inp, Tout, name):
    if not callable(func):
        raise TypeError(f'Expected a callable, got {func!r}.')
    inputs = [convert_to_tensor(v) for v in nest.flatten(list(inp))]
    single = Tout is not None and not isinstance(Tout, (list, tuple))
    types = [] if Tout is None else [dtypes.as_dtype(t) for t in ([Tout] if single else Tout)]
    if opdef is EAGER_PY_FUNC and context.active_tapes[0] and graph_of(inputs) is None:
        # eagerly under a tape: run it here, so the tape records the ops it runs
        out = checked_results(func(*inputs), types, 'The function given to rt.py_function',
                       tensors=True)
    else:
        attrs = {'token': f'pyfunc_{next(_tokens)}', 'Tin': [t.dtype for t in inputs],
                 'Tout': types}
        out = apply(opdef, inputs, attrs, name=name, payload=func)
    if Tout is None:
        return None
    return out[0] if single else list(out)


def py_function(func=None, inp=None, Tout=None, name=None):
    """Call `func(*inp)` on eager tensors when the op runs (op `EagerPyFunc`), also inside a
    graph; its results are converted to the dtypes `Tout` (one dtype: one tensor; a list: a
    list; None: nothing). The results' shapes are unknown in a graph. Differentiable: eagerly
    a tape records the ops `func` runs; in a graph the gradient calls `func` again under a
    tape. Without `func` (`@rt.py_function(Tout=rt.float32)`), a decorator: the decorated
    function's arguments are `inp`."""
    if func is None:
        return _decorator(EAGER_PY_FUNC, inp, Tout, name, 'py_function')
    return _call(EAGER_PY_FUNC, func, _inputs(inp), Tout, name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Call `func(*inp)` on numpy arrays when the op runs (op `PyFunc`, or `PyFuncStateless`
    when `stateful=False`); see `py_function` (a decorator too, without `func`)."""
    opdef = PY_FUNC if stateful else PY_FUNC_STATELESS
    if func is None:
        return _decorator(opdef, inp, Tout, name, 'numpy_function')
    return _call(opdef, func, _inputs(inp), Tout, name)


def _inputs(inp):
    return [] if inp is None else inp


def _decorator(opdef, inp, Tout, name, what):
    if inp is not None:
        raise TypeError(f'rt.{what}(inp=...) needs `func`; as a decorator give only Tout '
                        f'(and name): `@rt.{what}(Tout=rt.float32)`.')

    def decorate(func):
        @functools.wraps(func)
        def call(*args):
            return _call(opdef, func, list(args), Tout, name)
        return call

    return decorate
