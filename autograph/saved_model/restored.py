"""What loading gives back: `Restored` objects, their functions (`RestoredFunction`, one
`RestoredConcreteFunction` per saved graph) and signatures (`RestoredSignature`), shared by the
loader of our SavedModels (`load`) and of TensorFlow 2's (`load_tf2`).

A restored function checks each call against the arguments its graphs were traced for and runs
the graph eagerly; one loaded from our SavedModel remembers its `Origin`, so it pickles again.
"""
import io
from dataclasses import dataclass
from typing import Callable

import numpy as np

from autograph.saved_model.writer import plain_array
from runtime.core import context, dtypes
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.executor import compile_graph
from runtime.gradients.backprop import backprop
from runtime.graph.graph import FuncGraph
from runtime.module import Module
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import record
from runtime.ops.registry import OpDef
from runtime.ops.state import VAR_HANDLE
from runtime.variables import Variable


class Restored(Module):
    """A loaded object: attributes as saved; callable when it saved a `__call__` function.
    An rt.Module, so `.variables`, `.trainable_variables` and `.submodules` work."""

    def __call__(self, *args, **kwargs):
        function = self.__dict__.get('__call__')
        if function is None:
            raise TypeError('This loaded object is not callable (no __call__ was saved).')
        return function(*args, **kwargs)

    def __repr__(self):
        names = sorted(k for k in vars(self) if k != 'signatures' and
                       (not k.startswith('_') or k == '__call__'))
        return f'<ag.saved_model loaded object with {", ".join(names) or "no attributes"}>'



def decode_arg(encoded):
    t = encoded['t']
    if t == 'spec':
        return TensorSpec(encoded['shape'], dtypes.as_dtype(encoded['dtype']), encoded['name'])
    if t == 'value':
        return encoded['v']
    if t == 'dict':
        return {k: decode_arg(v) for k, v in encoded['items']}
    items = [decode_arg(v) for v in encoded['items']]
    return items if t == 'list' else tuple(items)


def _decode_output(encoded, values):
    t = encoded['t']
    if t == 'none':
        return None
    if t == 'tensor':
        return values[encoded['i']]
    if t == 'dict':
        return {k: _decode_output(v, values) for k, v in encoded['items']}
    items = [_decode_output(v, values) for v in encoded['items']]
    return items if t == 'list' else tuple(items)


class RestoredConcreteFunction:
    """One loaded graph: call it with the arguments it was traced for."""

    def __init__(self, name, graph, params, args, inputs, outputs, output_structure,
                 defaults=None, variables=()):
        self.name = name
        self.defaults = defaults or {}  # parameter name -> default value (TensorFlow's saves)
        self.graph = graph
        self.parameter_names = tuple(params)
        self.structured_input_signature = (tuple(args), {})
        self.inputs = inputs
        self.outputs = outputs
        self._output_structure = output_structure
        specs = [TensorSpec(t.shape, t.dtype) for t in outputs]
        self.structured_outputs = _decode_output(output_structure, specs)
        self._run = compile_graph(graph, inputs, outputs)
        self._backward = None  # built on the first call under a GradientTape
        self._variables = {id(v.storage): v for v in variables}  # the ones the graph may read

    def feeds(self, args, kwargs):
        """The flat input values for a call; TypeError/ValueError when it does not fit."""
        params = self.parameter_names
        specs = self.structured_input_signature[0]
        if len(args) > len(params):
            raise TypeError(f'{self.name}() takes {len(params)} arguments ({", ".join(params)}) '
                            f'but {len(args)} were given.')
        values = list(args) + [_MISSING] * (len(params) - len(args))
        for key, value in kwargs.items():
            if key not in params:
                raise TypeError(f'{self.name}() got an unexpected keyword argument {key!r}; '
                                f'its parameters are {list(params)}.')
            i = params.index(key)
            if values[i] is not _MISSING:
                raise TypeError(f'{self.name}() got multiple values for argument {key!r}.')
            values[i] = value
        feeds = []
        for name, spec, value in zip(params, specs, values):
            if value is _MISSING:
                if isinstance(spec, TensorSpec) or isinstance(spec, (list, tuple, dict)):
                    raise TypeError(f'{self.name}() missing a required argument: {name!r}.')
                # the default, else the Python value the graph was traced for
                value = self.defaults.get(name, spec)
            _match(spec, value, name, self.name, feeds)
        return feeds

    def call_flat(self, feeds):
        if context.active_tapes[0] and context.state.tapes and self.outputs:
            return self._call_recorded(feeds)
        values = self._run(*[_value(f) for f in feeds])
        tensors = [EagerTensor(v, t.dtype) for v, t in zip(values, self.outputs)]
        return _decode_output(self._output_structure, tensors)

    # ---- gradients: a call under a GradientTape is one recorded op ---------------------------

    def _call_recorded(self, feeds):
        """Run the graph and record the call on the active tapes as one op whose inputs are the
        arguments and the variables the graph reads; the graph's own gradient (built once, on
        the forward ops, with the saved custom gradients) is its gradient."""
        backward = self._backward or self._build_backward()
        for storage in backward.storages:  # the tapes watch the trainable variables read
            variable = self._variables.get(id(storage))
            for tape in context.state.tapes:
                accessed = getattr(tape, 'variable_accessed', None)
                if variable is not None and accessed is not None:
                    accessed(variable)
        values = backward.forward(*[_value(f) for f in feeds])
        n = len(self.outputs)
        outputs = [EagerTensor(v, t.dtype) for v, t in zip(values[:n], self.outputs)]
        inputs = [f if isinstance(f, EagerTensor) else EagerTensor(f, t.dtype)
                  for f, t in zip(feeds, self.inputs)] + backward.storages
        record(_CALL, inputs, {'f': self, 'saved': values[n:]}, outputs)
        return _decode_output(self._output_structure, outputs)

    def _build_backward(self):
        graph = self.graph
        handles = [op.outputs[0] for op in graph.operations
                   if op.opdef is VAR_HANDLE and op.payload is not None]
        fg = FuncGraph(f'{self.name}_gradient', graph)
        with fg.as_default():
            upstream = [fg.add_input(t.dtype, t.shape, 'upstream') for t in self.outputs]
            grads = backprop(list(graph.operations), self.outputs, upstream,
                             list(self.inputs) + handles)
        captures = fg.captures  # the forward tensors the gradient reads, and variable handles
        saved = [outer for outer, _ in captures if outer.dtype is not dtypes.resource]
        given = [i for i, g in enumerate(grads) if g is not None]
        self._backward = _Backward(
            compile_graph(graph, self.inputs, self.outputs + saved),
            compile_graph(fg, upstream + [p for _, p in captures], [grads[i] for i in given]),
            [outer.op.payload for outer, _ in captures if outer.dtype is dtypes.resource],
            [h.op.payload for h in handles], given, len(grads),
            [outer.dtype is dtypes.resource for outer, _ in captures])
        return self._backward

    def gradient(self, saved, grads):
        """The gradients of the arguments and variables of a recorded call (eager tensors; None
        where none reaches), from the upstream gradients `grads`."""
        b = self._backward
        saved, resources, feeds = iter(saved), iter(b.resources), []
        for is_resource in b.resource_captures:
            feeds.append(next(resources) if is_resource else next(saved))
        values = b.backward(*[_value(g) for g in grads], *feeds)
        out = [None] * b.n_sources
        for i, v, source in zip(b.given, values, list(self.inputs) + b.storages):
            out[i] = EagerTensor(v, source.dtype)
        return out

    def __call__(self, *args, **kwargs):
        return self.call_flat(self.feeds(args, kwargs))

    def __repr__(self):
        return f'<restored ConcreteFunction {self.name}>'

    def __reduce__(self):
        raise TypeError('Pickle the loaded object\'s functions (not their graphs).')


_MISSING = object()


@dataclass(slots=True)
class _Backward:
    """A restored graph's gradient: `forward` runs the graph and also returns the tensors the
    gradient reads, `backward` takes the upstream gradients, then its captures in order (those
    tensors' values and the storages `resources`), and gives the gradients at `given`."""
    forward: Callable
    backward: Callable
    resources: list
    storages: list
    given: list
    n_sources: int
    resource_captures: list


def _value(feed):
    return feed.value if isinstance(feed, EagerTensor) else feed


def _call_gradient(op, *grads):
    return op.get_attr('f').gradient(op.get_attr('saved'), grads)


# A loaded function's call, as the tapes record it (TensorFlow's StatefulPartitionedCall; not a
# graph op: loaded functions run eagerly, their graphs are never nested in another).
_CALL = OpDef('StatefulPartitionedCall', stateful=True, gradient=_call_gradient,
              type_attrs=(), inputs=('args',), outputs='output')


def _match(spec, value, label, function_name, feeds):
    if isinstance(spec, TensorSpec):
        feeds.append(_tensor_feed(spec, value, label, function_name))
    elif isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise ValueError(f'{function_name}(): argument {label!r} must be a dict with keys '
                             f'{sorted(spec)}, got {value!r}.')
        for k in sorted(spec, key=str):
            _match(spec[k], value[k], f'{label}[{k!r}]', function_name, feeds)
    elif isinstance(spec, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(spec):
            raise ValueError(f'{function_name}(): argument {label!r} must be a sequence of '
                             f'{len(spec)} items, got {value!r}.')
        for i, (s, v) in enumerate(zip(spec, value)):
            _match(s, v, f'{label}[{i}]', function_name, feeds)
    elif isinstance(value, (EagerTensor, Variable)) or type(value) is not type(spec) or \
            value != spec:
        raise ValueError(f'{function_name}(): argument {label!r} is {value!r}, but this graph '
                         f'was saved for the Python value {spec!r}.')


def _tensor_feed(spec, value, label, function_name):
    if isinstance(value, SymbolicTensor):
        raise TypeError(f'{function_name}(): a loaded function runs eagerly; argument {label!r} '
                        f'is the symbolic tensor {value.name!r}.')
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, EagerTensor):
        if value.dtype is not spec.dtype:
            raise TypeError(f'{function_name}(): argument {label!r} has dtype '
                            f'{value.dtype.name}, but the saved graph takes {spec.dtype.name}.')
    else:
        value = convert_to_tensor(value, spec.dtype)
    if not spec.shape.is_compatible_with(value.shape):
        # TypeError, as TensorFlow 2.21's binding to a signature
        raise TypeError(f'{function_name}(): argument {label!r} has shape {value.shape}, but '
                        f'the saved graph takes shape {spec.shape}.')
    return value


class RestoredFunction:
    """A loaded ag.Function: the graphs it had, chosen by the arguments of each call."""

    def __init__(self, concretes, origin):
        self.concrete_functions = list(concretes)
        self._origin = origin
        self.__name__ = concretes[0].name if concretes else 'restored'

    def __call__(self, *args, **kwargs):
        errors = []
        for concrete in self.concrete_functions:
            try:
                feeds = concrete.feeds(args, kwargs)
            except (TypeError, ValueError) as e:
                errors.append(e)
                continue
            return concrete.call_flat(feeds)
        if len(errors) == 1:
            raise errors[0]
        expected = '\n  '.join(_describe_signature(c) for c in self.concrete_functions)
        raise ValueError(f'No saved graph of this function accepts these arguments: {args!r} '
                   f'{kwargs!r}. The saved graphs take:\n  {expected}')

    def get_concrete_function(self, *args, **kwargs):
        for concrete in self.concrete_functions:
            try:
                concrete.feeds(args, kwargs)
                return concrete
            except (TypeError, ValueError):
                continue
        raise ValueError('No saved graph of this function accepts these arguments.')

    def __reduce__(self):
        # Pickles as the SavedModel it came from, with the current values of its variables.
        if self._origin is None:
            raise TypeError(f'Cannot pickle {self.__name__}: it was loaded from a SavedModel '
                            f'TensorFlow wrote; pickle the directory\'s path and load it.')
        return self._origin.rebuild, (self._origin.payload(),)

    def __repr__(self):
        return f'<restored ag.Function with {len(self.concrete_functions)} graph(s)>'


def _describe_signature(concrete):
    args = concrete.structured_input_signature[0]
    return '(' + ', '.join(f'{n}={a!r}' for n, a in zip(concrete.parameter_names, args)) + ')'


class RestoredSignature:
    """A loaded signature: keyword arguments in, a dict of named outputs back."""

    def __init__(self, name, graph, feeds, fetches):
        self.name = name
        self.graph = graph
        self._feeds = feeds
        self._fetches = fetches
        self.structured_input_signature = ((), {k: TensorSpec(t.shape, t.dtype, k)
                                                for k, t in feeds.items()})
        self.structured_outputs = {k: TensorSpec(t.shape, t.dtype, k) for k, t in fetches.items()}
        self._run = compile_graph(graph, list(feeds.values()), list(fetches.values()))

    def __call__(self, *args, **kwargs):
        if args:
            raise TypeError(f'The signature {self.name!r} takes keyword arguments only '
                            f'({", ".join(self._feeds)}), got {len(args)} positional.')
        missing = [k for k in self._feeds if k not in kwargs]
        extra = [k for k in kwargs if k not in self._feeds]
        if missing or extra:
            raise TypeError(f'The signature {self.name!r} takes the keyword arguments '
                            f'{sorted(self._feeds)}; missing {missing}, unexpected {extra}.')
        specs = self.structured_input_signature[1]
        values = [_tensor_feed(specs[k], kwargs[k], k, self.name).value for k in self._feeds]
        out = self._run(*values)
        return {k: EagerTensor(v, t.dtype)
                for (k, t), v in zip(self._fetches.items(), out)}

    def __repr__(self):
        return f'<restored signature {self.name}({", ".join(self._feeds)})>'


@dataclass(slots=True)
class Origin:
    """Where a restored function came from: the SavedModel bytes, the loaded variables (a pickle
    carries their current values), the function's attribute path from the root object, and
    `rebuild`, what unpickling calls with `payload()` (the loader's `restore_pickled`)."""
    saved_model: bytes
    variables: list
    path: tuple
    rebuild: Callable

    def payload(self):
        buffer = io.BytesIO()
        np.savez(buffer, **{f'v{i}': plain_array(v) for i, v in enumerate(self.variables)})
        return self.saved_model, buffer.getvalue(), self.path
