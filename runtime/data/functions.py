"""The functions given to `map`, `filter`, `flat_map`, `interleave`, `scan`, `reduce` and
`take_while`, traced once per element structure into a FuncGraph, as `tf.data` does.

Python code in them (print, list appends) runs once, while tracing; their tensor code runs for
every element, as the FuncGraph's generated code (runtime/executor). Inside a graph being built
the FuncGraph goes into that graph's function library, and the dataset op names it in an attr,
so GraphDefs print as TensorFlow's (`f { func { name: "__inference_Dataset_map_..." } }`).

AutoGraph converts the functions first: `converters` holds the conversion autograph registers
when its operators load (the runtime never imports autograph). Without it they run as written.
"""
import numpy as np

from runtime.core import context, dtypes, errors
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import shipping, structure
from runtime.executor import compile_graph
from runtime.graph.graph import FuncGraph, uid
from runtime.graph.graph_def import FunctionRef
from runtime.ops import infer
from runtime.ops.array import CAST, STOP_GRADIENT, identity
from runtime.ops.math import CLIP, UNARY_OPS
from runtime.ops.registry import IDENTITY, PLACEHOLDER

# Callables fn -> converted fn, applied in order; autograph.operators appends its conversion.
converters = []
_debug_mode = [False]  # tf.data.experimental.enable_debug_mode() sets it


def enable_debug_mode():
    """From now on the functions given to dataset transformations run as Python, eagerly, for
    each element (tf.data's debug mode: `print`, breakpoints and Python errors where they
    happen); they are still traced once, for their element spec. Elements come in order
    anyway, and no map is vectorised over a batch. The functions are still traced once,
    symbolically, for the spec of their outputs: there a tensor has no value yet."""
    set_debug_mode(True)


def set_debug_mode(enabled):
    """Turn tf.data's debug mode on or off for the functions given from now on."""
    _debug_mode[0] = bool(enabled)


def converted(fn):
    for convert in converters:
        fn = convert(fn)
    return fn


def call_with_element(fn, element, spec):
    """`fn(*element)` for a tuple element (not a namedtuple), as tf.data unpacks them; else
    `fn(element)`."""
    if type(spec) is tuple:
        return fn(*element)
    return fn(element)


class TracedFunction:
    """`fn` traced on placeholders for `input_specs` (a list of element structures, passed as
    arguments in turn by `call`; default: the one element, unpacked when a tuple).

    `output` is the traced result's structure (tensors; `returns='dataset'`: a Dataset),
    `output_spec` its element spec, `captures` the [(outer value, placeholder)] the function
    reads, which the dataset op takes as inputs after its own (`other_arguments`). `run(*flat
    values, *captured values)` runs it on numpy values and returns a tuple of numpy values."""

    def __init__(self, fn, input_specs, what, call=None, returns='tensors'):
        if not callable(fn):
            raise TypeError(f'{what} needs a callable, got {fn!r}.')
        self.what = what
        self.eager = _debug_mode[0]
        self.python = (fn, list(input_specs), call, returns)
        outer = context.current_graph()
        name = f'__inference_Dataset_{what.split(".")[-1]}_{_fn_name(fn)}_{uid()}'
        graph = self.graph = FuncGraph(name, outer)
        flat_specs = [s for spec in input_specs for s in structure.flatten(spec)]
        with graph.as_default():
            args = [graph.add_input(s.dtype, s.shape, f'args_{i}')
                    for i, s in enumerate(flat_specs)]
            values, k = [], 0
            for spec in input_specs:
                n = len(structure.flatten(spec))
                values.append(structure.pack(spec, args[k:k + n]))
                k += n
            user_fn = converted(fn)
            if call is not None:
                result = call(user_fn, *values)
            else:
                result = call_with_element(user_fn, values[0], input_specs[0])
            self.output, flat = self._outputs(result, returns)
            graph.outputs = [identity(t) for t in flat]
        self.captures = graph.captures
        graph.inputs = args + [p for _, p in self.captures]
        if outer is not None:
            outer.library[name] = graph
        self.ref = FunctionRef(name)
        self._run = None

    def _outputs(self, result, returns):
        if returns == 'dataset':
            variant = getattr(result, 'variant_tensor', None)
            if variant is None:
                raise TypeError(f'The function given to {self.what} must return a Dataset, got '
                                f'{result!r}{_where()}.')
            self.output_spec = result.element_spec
            return result, [variant]
        if isinstance(result, list):  # tf.data: a list returned by the function is a tuple
            result = tuple(result)
        output = structure.normalize(result, f'The function given to {self.what} returned '
                                     f'{result!r}{_where()}; it')
        self.output_spec = structure.map_leaves(lambda t: TensorSpec(t.shape, t.dtype), output)
        return output, structure.flatten(output)

    @property
    def captured_inputs(self):
        """The outer values the op passes for the captures: graph tensors while a graph is
        built, else eager tensors and variable storages."""
        return [value for value, _ in self.captures]

    def run_eagerly(self, *flat):
        """`run` in debug mode: the Python function called on eager tensors."""
        fn, specs, call, returns = self.python
        leaves = [s for spec in specs for s in structure.flatten(spec)]
        tensors = [EagerTensor(np.asarray(v, dtype=object)[()] if s.dtype is dtypes.string else
                               (v if s.dtype is dtypes.variant else np.asarray(
                                   v, s.dtype.np_dtype)), s.dtype)
                   for v, s in zip(flat, leaves)]
        values, k = [], 0
        for spec in specs:
            n = len(structure.flatten(spec))
            values.append(structure.pack(spec, tensors[k:k + n]))
            k += n
        result = call(fn, *values) if call is not None else call_with_element(
            fn, values[0], specs[0])
        if returns == 'dataset':
            return (result.variant_tensor.value,)
        if isinstance(result, list):
            result = tuple(result)
        output = structure.normalize(result, f'The function given to {self.what}')
        return tuple(t.value for t in structure.flatten(output))

    @property
    def run(self):
        if self.eager:
            return self.run_eagerly
        if self._run is None:
            graph = self.graph
            self._run = compile_graph(graph, graph.inputs, graph.outputs)
        return self._run

    def __reduce__(self):
        """Pickled as its graph and the functions it calls (runtime/data/shipping.py)."""
        return shipping.restore_function, (shipping.serialized_function(self.graph),
                                           self.graph.name)

    def single_output(self, what, dtype):
        """Check a predicate's result: one scalar of `dtype`."""
        flat = structure.flatten(self.output)
        if len(flat) != 1 or flat[0].dtype is not dtype or flat[0].shape.rank not in (0, None):
            raise ValueError(f'The function given to {what} must return a scalar '
                            f'{dtype.name} tensor, got {self.output!r}{_where()}.')


def _fn_name(fn):
    name = getattr(fn, '__name__', type(fn).__name__)
    return 'lambda' if name == '<lambda>' else ''.join(c if c.isalnum() else '_' for c in name)


def _where():
    location = errors.caller_location()
    return '' if location is None else f' (at {location[0]}:{location[1]})'



# Ops that compute each output element from the same elements of their inputs (numpy
# broadcasting), beyond those whose shape inference is broadcasting.
_ELEMENTWISE_OPS = frozenset([IDENTITY, CAST, STOP_GRADIENT, CLIP, *UNARY_OPS.values()])
_BROADCASTING = (infer.broadcast, infer.broadcast_bool)


def elementwise(function):
    """Whether a traced map function computes each output element from the same elements of
    its inputs, so that its generated code gives the same results on a batch of elements as
    on each element (Batch(Map(x)) may then run as Map(Batch(x)), see ops.vectorized_batch).

    Checked on the graph: every op reading (directly or not) an element is elementwise and
    stateless, the element-derived operands of one op have one rank (the op's output rank), the
    others (constants, captures) no higher rank; every output derives from the element; no
    string values."""
    if function.eager:
        return False
    graph = function.graph
    ranks = {}  # id(tensor) -> rank, for tensors derived from the element
    captures = {id(p) for _, p in function.captures}
    for t in graph.inputs:
        if id(t) not in captures:
            if t.shape.rank is None or t.dtype is dtypes.string:
                return False
            ranks[id(t)] = t.shape.rank
    for op in graph.operations:
        if op.opdef is PLACEHOLDER:
            continue
        derived = [ranks[id(t)] for t in op.inputs if id(t) in ranks]
        if not derived:
            continue
        opdef = op.opdef
        if opdef.stateful or not (opdef in _ELEMENTWISE_OPS or opdef.infer in _BROADCASTING):
            return False
        rank = derived[0]
        if any(r != rank for r in derived) or any(
                id(t) not in ranks and (t.shape.rank is None or t.shape.rank > rank)
                for t in op.inputs):
            return False
        for out in op.outputs:
            if out.shape.rank != rank or out.dtype is dtypes.string:
                return False
            ranks[id(out)] = rank
    return all(id(t) in ranks for t in graph.outputs)
