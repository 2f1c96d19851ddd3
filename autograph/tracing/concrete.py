"""ConcreteFunction: one traced graph, its signature, and the compiled plan that runs it.

`trace` runs a Python function once on placeholders named after its parameters and records
the graph. Eager tensors and Variables it reads from closures or globals become captures:
extra inputs after the arguments, fed with the tensor's value or the variable's storage (so a
variable's current value is read at each call). Outputs get an Identity each, as in TensorFlow,
after a NoOp that waits on the function's stateful ops (TensorFlow's automatic control
dependencies, as its graphs show them).
"""
import functools
import threading
import weakref

from autograph.compiler.conversion import deep_recursion
from autograph.tracing import describe, keys
from runtime.core import context, nest
from runtime.core import dtypes as rt_dtypes
from runtime.core.errors import InvalidArgumentError
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import Dataset
from runtime.executor import compile_graph, optimized_program
from runtime.graph.graph import FuncGraph, uid
from runtime.graph.scopes import control_dependencies, no_op
from runtime.ops.array import identity
from runtime.ops.convert import convert_to_tensor
from runtime.summary import trace as summary_trace
from runtime.variables import Variable

_summary_tracing = summary_trace.active  # rt.summary.trace_on is recording graphs
_local = threading.local()  # .variable_checks: one callback per trace running in this thread


def _on_variable_created(variable):
    checks = getattr(_local, 'variable_checks', None)
    if checks:
        checks[-1](variable)


if _on_variable_created not in Variable.creation_hooks:
    Variable.creation_hooks.append(_on_variable_created)


class ConcreteFunction:
    """One graph of a Function, specialized to one input signature.

    `graph` is the FuncGraph (`.inputs`: the arguments' placeholders, then the captures;
    `.outputs`), `structured_input_signature` is `(args, kwargs)` with TensorSpecs for tensors,
    and `structured_outputs` is what the Python function returned, tensors replaced by the
    graph's outputs. Calling it checks the arguments against the signature.
    """

    def __init__(self, graph, binder, key, structured_input_signature, input_descriptions,
                 structured_outputs, captures, run):
        self.graph = graph
        self.structured_input_signature = structured_input_signature
        self.structured_outputs = structured_outputs
        self._binder = binder
        self._key = key
        self._input_descriptions = input_descriptions
        self._captures = captures
        self._run = run  # the plan (a native plan says whether it runs native code yet)
        self._call = run  # what a call runs: the plan, or its native code's wrapper once ready
        self.initialized_variables = ()  # storages this graph initializes (it runs once)
        # Python-valued parameters may be left out when calling the ConcreteFunction.
        self._traced_literals = {name: value for name, element, value in zip(
            binder.names, key, structured_input_signature[0]) if keys.is_python_value(element)}
        # Objects it was traced with (held weakly), which a call may leave out too, as in
        # TensorFlow: `f.get_concrete_function(model, x)(x)`.
        self._traced_objects = {name: value for name, value in zip(
            binder.names, structured_input_signature[0]) if isinstance(value, describe.WeakObject)}
        leaves = nest.flatten(structured_outputs)
        self._single_dtype = (structured_outputs.dtype if len(leaves) == 1 and leaves[0] is
                              structured_outputs and structured_outputs is not None else None)
        self._output_slots = []
        index = 0
        for leaf in leaves:
            if leaf is None:
                self._output_slots.append(None)
            else:
                self._output_slots.append((index, leaf.dtype))
                index += 1
        # (*feeds) -> the structured outputs: what a call of the Function runs
        self.call_feeds = self._packed if self._single_dtype is None else \
            _single_output(run, self._single_dtype, len(graph.inputs) - len(captures))

    @property
    def name(self):
        return self.graph.name

    @property
    def inputs(self):
        """The graph's input placeholders: the arguments', then the captures' (as TF)."""
        return self.graph.inputs

    @property
    def outputs(self):
        """The graph's output tensors, flat (None outputs left out)."""
        return self.graph.outputs

    @property
    def output_shapes(self):
        """The TensorShape of each output, in the structure of `structured_outputs`."""
        return nest.map_structure(_output_shape, self.structured_outputs)

    @property
    def output_dtypes(self):
        """The DType of each output, in the structure of `structured_outputs`."""
        return nest.map_structure(lambda t: None if t is None else t.dtype,
                                  self.structured_outputs)

    @property
    def variables(self):
        """The Variables the graph captures, in capture order (a tuple, as TF's)."""
        found = []
        for value, _ in self._captures:
            owner = getattr(value, 'owner', None)
            variable = owner() if owner is not None else None
            if variable is not None:
                found.append(variable)
        return tuple(found)

    @property
    def trainable_variables(self):
        """The trainable ones of `variables`."""
        return tuple(v for v in self.variables if v.trainable)

    @property
    def parameter_names(self):
        """The Python function's parameter names, in order."""
        return self._binder.names

    def __reduce__(self):
        # Deferred for start-up cost: the SavedModel writer and loader load on the first pickle.
        from autograph.saved_model.pickling import reduce_concrete
        return reduce_concrete(self)

    @property
    def key(self):
        """The cache key this graph was traced for."""
        return self._key

    def optimized_program(self):
        """What runs when this function is called: the graph after the executor's optimization
        passes (`print()` it; `self.graph` stays as traced)."""
        return optimized_program(self.graph, self.graph.inputs, self.graph.outputs)

    def call_flat(self, feeds):
        """Run the graph on flat feeds (argument values, in key order) and pack the outputs."""
        if _summary_tracing[0]:
            summary_trace.note(self.graph)
        return self.call_feeds(*feeds)

    def _packed(self, *feeds):
        values = self._call(*feeds)
        flat = [None if slot is None else EagerTensor(values[slot[0]], slot[1])
                for slot in self._output_slots]
        return nest.pack_sequence_as(self.structured_outputs, flat)

    def __call__(self, *args, **kwargs):
        try:
            values = self._binder.canonical(args, kwargs, fallback=self._traced_literals)
        except TypeError:
            values = self._bind_tensors_only(args, kwargs)
            if values is None:
                raise
        return self.call_flat(keys.feed(self._key, values, self._binder.names,
                                         self._binder.name, tensor_error=InvalidArgumentError))

    def _bind_tensors_only(self, args, kwargs):
        """TensorFlow's second way to call a ConcreteFunction: positional values for its tensor
        parameters only, the others (Python values, objects) as traced. None if that does not
        fit either."""
        fixed = dict(self._traced_literals)
        for name, weak in self._traced_objects.items():
            obj = weak.ref()
            if obj is None:
                return None
            fixed[name] = obj
        free = [n for n in self._binder.names if n not in fixed and n not in kwargs]
        if len(args) != len(free) or any(n in fixed for n in kwargs):
            return None
        given = dict(zip(free, args), **kwargs)
        try:
            return tuple(given[n] if n in given else fixed[n] for n in self._binder.names)
        except KeyError:
            return None

    def pretty_printed_signature(self):
        """Input Parameters / Output Type / Captures, one item a line."""
        params = [f'  {name} ({self._binder.kind_name(i)}): {text}'
                  for i, (name, text) in enumerate(zip(self._binder.names,
                                                       self._input_descriptions))]
        captures = [f'  {placeholder.op.name}: {_describe_capture(value)}'
                    for value, placeholder in self._captures]
        return '\n'.join(['Input Parameters:'] + (params or ['  None']) +
                         ['Output Type:', '  ' + describe.describe_output(self.structured_outputs),
                          'Captures:'] + (captures or ['  None']))

    def __str__(self):
        """What `print(concrete_function)` shows, in TensorFlow's form."""
        return 'ConcreteFunction ' + self.pretty_printed_signature()

    def __repr__(self):
        return f'<ConcreteFunction {self._binder.name}{self._binder.signature} at {self.name}>'


def _single_output(call, dtype, arity):
    """(*feeds) -> the tensor of the one output of `call`'s tuple."""
    # made as `EagerTensor(value, dtype)` is, without the Python frame of its `__init__`
    new = object.__new__
    if arity == 1:  # no tuple of feeds to pack and unpack
        def one_feed(feed):
            tensor = new(EagerTensor)
            tensor.value = call(feed)[0]
            tensor.dtype = dtype
            return tensor
        return one_feed

    def feeds(*feeds):
        tensor = new(EagerTensor)
        tensor.value = call(*feeds)[0]
        tensor.dtype = dtype
        return tensor
    return feeds


def _output_shape(t):
    return TensorShape(None) if t is None else t.shape


def _describe_capture(value):
    if isinstance(value, EagerTensor):
        return repr(TensorSpec(value.shape, value.dtype))
    return f'VariableSpec(shape={value.shape}, dtype={value.dtype!r})'


def trace(python_callable, binder, key, values, watch_object, check_variable,
          initialize_variables=False, jit_compile=False):
    """See `_trace`; runs with room for deep recursion, which graph building, lowering and
    optimizing use once per level of nested control flow (a long tensor if/elif chain)."""
    with deep_recursion():
        return _trace(python_callable, binder, key, values, watch_object, check_variable,
                      initialize_variables, jit_compile)


def _trace(python_callable, binder, key, values, watch_object, check_variable,
           initialize_variables, jit_compile):
    """Trace `python_callable` on placeholders for the canonical `values` with cache key `key`.

    Shapes come from the key (which may be relaxed), names from the parameters (or a
    TensorSpec's name). `watch_object(obj)` is told about every object keyed by identity;
    `check_variable(variable)` about every Variable created during the trace. With
    `initialize_variables`, a Variable created from a value that depends on the inputs is
    initialized by the graph (listed in `initialized_variables` of the result). With
    `jit_compile`, the graph runs as native code (compiled on the first call).
    """
    fg = FuncGraph(f'__inference_{binder.name}_{uid()}')
    if initialize_variables:
        fg.deferred_initializers = []
    checks = _local.__dict__.setdefault('variable_checks', [])
    checks.append(check_variable)
    try:
        with fg.as_default():
            symbolic = [_placeholders(fg, element, value, name, watch_object)
                        for element, value, name in zip(key, values, binder.names)]
            args, kwargs = binder.call_arguments(symbolic)
            structured_outputs = _graph_outputs(python_callable(*args, **kwargs), binder.name)
    finally:
        checks.pop()
    arg_inputs = list(fg.inputs)
    captures = fg.captures
    fg.inputs = arg_inputs + [p for _, p in captures]
    fg.outputs = [t for t in nest.flatten(structured_outputs) if t is not None]
    plan = compile_graph(fg, [p for _, p in captures] + arg_inputs, fg.outputs, jit_compile)
    captured = [value.value if isinstance(value, EagerTensor) else value for value, _ in captures]
    run = functools.partial(plan, *captured) if captures else plan
    signature_args = tuple(describe.structured(element, value, name)
                           for element, value, name in zip(key, values, binder.names))
    descriptions = [describe.describe(element, value) for element, value in zip(key, values)]
    concrete = ConcreteFunction(fg, binder, key, (signature_args, {}), descriptions,
                                structured_outputs, captures, run)
    concrete.initialized_variables = tuple(fg.deferred_initializers or ())
    if jit_compile:  # once native code is ready, calls go to it without the plan's dispatch
        plan.when_native(functools.partial(_call_natively, weakref.ref(concrete), plan,
                                           captured))
    return concrete


def _call_natively(concrete_ref, plan, captured, run):
    """Make the ConcreteFunction call `run`, its plan's native code, directly, and a single
    output's tensor made by a wrapper with the captures bound (from the thread that compiled
    it: attribute writes, which a call in another thread sees whole)."""
    concrete = concrete_ref()
    if concrete is not None:
        concrete._call = functools.partial(run, *captured) if captured else run
        if concrete._single_dtype is not None:
            concrete.call_feeds = plan.wrapper(captured, (EagerTensor, concrete._single_dtype))


def _placeholders(fg, element, value, name, watch_object):
    """The argument as the traced function sees it: placeholders for its tensors."""
    def leaf(element, value):
        kind = type(element)
        if kind is keys.TensorKey:
            label = value.name if isinstance(value, TensorSpec) and value.name else name
            placeholder = fg.add_input(element.dtype, TensorShape(element.shape), label)
            placeholder.op.attrs['_user_specified_name'] = label
            return placeholder
        if kind is keys.DatasetKey:  # a dataset argument: its variant is fed
            variant = fg.add_input(rt_dtypes.variant, TensorShape([]), name)
            variant.op.attrs['_user_specified_name'] = name
            return Dataset(variant, element.spec.element_spec)
        if kind is keys.VariableKey:
            _variable_argument(fg, value.storage, name)
        elif kind is keys.ObjectKey:
            watch_object(value)
        return value

    return keys.rebuild(element, value, leaf)


def _variable_argument(fg, storage, name):
    """A resource input for a Variable argument; the variable's reads and writes in the trace go
    through it, so a call with another Variable of the same dtype and shape runs on that one."""
    placeholder = fg.add_resource_input(storage, name)
    placeholder.op.attrs['_user_specified_name'] = name


def _graph_outputs(outputs, function_name):
    """`outputs` with every leaf but None converted to a tensor and passed through Identity.

    As TensorFlow's automatic control dependencies: when the function has stateful ops (not
    counting random draws of their own stream, TensorFlow's legacy random ops), a NoOp runs
    after them all and each output's Identity after the NoOp (the executor's simplify pass
    drops that ordering again: it runs stateful ops in order anyway)."""
    tensors = []
    for leaf in nest.flatten(outputs):
        if leaf is None:
            tensors.append(None)
            continue
        try:
            tensors.append(convert_to_tensor(leaf))
        except TypeError as e:
            raise TypeError(f'{function_name}() returned {leaf!r}, which is not a tensor: {e} '
                            f'A Function returns tensors, Variables, Python numbers, strings or '
                            f'None, in lists, tuples, dicts and namedtuples.') from None
    must_run = [op for op in context.current_graph().get_operations()
                if op.opdef.stateful and not op.opdef.liftable]
    control = []
    if must_run and any(t is not None for t in tensors):
        with control_dependencies(must_run):
            control = [no_op(name='NoOp')]
    with control_dependencies(control):
        leaves = [None if t is None else identity(t, name='Identity') for t in tensors]
    return nest.pack_sequence_as(outputs, leaves)
