"""`ag.function`: trace a Python function into graphs, cache them, and run them.

A `Function` keeps one `ConcreteFunction` (a traced graph) per cache key of its arguments
(see `autograph.tracing.keys` and docs/tracing.md). A call binds the arguments to the
parameters, makes the key, looks it up and runs the compiled graph; only a miss that must trace
takes the Function's own lock, so concurrent first calls of one Function trace once while
different Functions trace in parallel (each thread has its own stack of graphs being built).
"""
import dataclasses
import functools
import os
import threading
import types
import warnings
import weakref
from typing import Any, Callable, Sequence, overload

import numpy as np

from autograph.operators.call import to_graph
from autograph.tracing import keys, reasons
from autograph.tracing.binding import Binder, has_python_code
from autograph.tracing.concrete import ConcreteFunction, trace
from runtime.core import config, context
from runtime.core.nest import flatten
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import DatasetSpec

RETRACING_THRESHOLD = 5
ACCEPTED_KEYS_CACHED = 64  # keys a relaxed graph accepts are cached up to this many, then looked up
_running_eagerly = config.running_eagerly  # run_functions_eagerly(True) (a cell)
_state = context.state  # this thread's graphs being built and tapes recording
_active_tapes = context.active_tapes  # how many tapes record in all threads (a cell)
_building_graphs = context.building_graphs  # how many graphs all threads are building (a cell)
# nonzero while any of those, or a summary trace, asks calls to look further (a cell)
_calls_look_further = context.calls_look_further
_NO_ARGUMENT = object()  # a call with no positional argument
# code -> Functions that traced it
_functions_tracing_code: weakref.WeakKeyDictionary[types.CodeType, Any] = \
    weakref.WeakKeyDictionary()
_code_counts_lock = threading.Lock()
_live_functions: weakref.WeakSet['Function'] = weakref.WeakSet()  # for the fork handler below


def _new_locks_in_child():
    """After a fork, in the child: a trace lock another thread held at the fork would stay held
    forever (that thread does not exist here), so every Function gets a new one."""
    global _code_counts_lock
    _code_counts_lock = threading.Lock()
    for function in list(_live_functions):
        function._lock = threading.RLock()


os.register_at_fork(after_in_child=_new_locks_in_child)

__all__ = ['function', 'Function', 'ConcreteFunction', 'RetracingWarning']


@dataclasses.dataclass(frozen=True, slots=True)
class FunctionOptions:
    """What `ag.function(...)` was given; shared by a Function and its bound methods."""
    python_function: object
    input_signature: tuple
    autograph: bool
    reduce_retracing: bool
    calls_through: bool  # a builtin or ufunc (no Python code to trace): called as it is
    jit_compile: bool = False  # graphs compiled to native code (runtime/executor/native)


class RetracingWarning(UserWarning):
    """A Function traced more than RETRACING_THRESHOLD graphs (see docs/tracing.md)."""


@overload
def function(func: Callable[..., Any], input_signature: Sequence[Any] | None = None,
             autograph: bool = True, jit_compile: bool | None = None,
             reduce_retracing: bool = False, experimental_implements: Any = None,
             experimental_autograph_options: Any = None, experimental_attributes: Any = None,
             experimental_relax_shapes: bool | None = None,
             experimental_compile: bool | None = None,
             experimental_follow_type_hints: bool | None = None) -> 'Function': ...


@overload
def function(func: None = None, input_signature: Sequence[Any] | None = None,
             autograph: bool = True, jit_compile: bool | None = None,
             reduce_retracing: bool = False, experimental_implements: Any = None,
             experimental_autograph_options: Any = None, experimental_attributes: Any = None,
             experimental_relax_shapes: bool | None = None,
             experimental_compile: bool | None = None,
             experimental_follow_type_hints: bool | None = None
             ) -> Callable[[Callable[..., Any]], 'Function']: ...


def function(func: Callable[..., Any] | None = None,
             input_signature: Sequence[Any] | None = None, autograph: bool = True,
             jit_compile: bool | None = None, reduce_retracing: bool = False,
             experimental_implements: Any = None, experimental_autograph_options: Any = None,
             experimental_attributes: Any = None, experimental_relax_shapes: bool | None = None,
             experimental_compile: bool | None = None,
             experimental_follow_type_hints: bool | None = None
             ) -> 'Function | Callable[[Callable[..., Any]], Function]':
    """Make `func` a `Function` that runs as a graph: `@ag.function`, `@ag.function(...)` or
    `ag.function(f)`, with `tf.function`'s parameters in its order. With `jit_compile=True`
    each graph is compiled to native code with numba on its first call (docs/jit.md); None and
    False use the default executor. `experimental_relax_shapes` and `experimental_compile` are
    TensorFlow's older names of `reduce_retracing` and `jit_compile`.
    `experimental_autograph_options` (AutoGraph's optional conversions) is accepted: they are
    all always on here. `experimental_implements`, `experimental_attributes` and
    `experimental_follow_type_hints` (attrs for TensorFlow's graph rewriters, type hints as
    tensor conversions) are not supported and raise NotImplementedError when set."""
    for option, value in (('experimental_implements', experimental_implements),
                          ('experimental_attributes', experimental_attributes),
                          ('experimental_follow_type_hints', experimental_follow_type_hints)):
        if value:
            raise NotImplementedError(f'ag.function({option}=...) is not supported.')
    reduce_retracing = bool(reduce_retracing or experimental_relax_shapes)
    if jit_compile is None and experimental_compile is not None:
        jit_compile = experimental_compile
    if func is None:
        def decorator(func: Callable[..., Any]) -> Function:
            return Function(func, input_signature, autograph, reduce_retracing, jit_compile)
        return decorator
    return Function(func, input_signature, autograph, reduce_retracing, jit_compile)


class Function:
    """A Python function with a cache of traced graphs; call it like the Python function.

    On a class, `obj.method` is a Function bound to `obj` with its own cache (instances trace
    on their own and are not kept alive by it).
    """

    def __init__(self, python_function: Callable[..., Any],
                 input_signature: Sequence[Any] | None = None, autograph: bool = True,
                 reduce_retracing: bool = False, jit_compile: bool | None = None) -> None:
        if not callable(python_function):
            raise TypeError(f'ag.function needs a callable, got {python_function!r}.')
        options = FunctionOptions(
            python_function, _checked_signature(input_signature, python_function), autograph,
            reduce_retracing, calls_through=not has_python_code(python_function),
            jit_compile=bool(jit_compile))
        self._converted_function = None
        self._bound: dict[int, Function] = {}  # id(instance) -> the Function bound to it
        self._method_binder = None
        name = getattr(python_function, '__name__', type(python_function).__name__)
        binder = None if options.calls_through else Binder(python_function, name)
        self._setup(options, binder, name, None, self)

    def _setup(self, options, binder, name, instance_ref, owner):
        """The state of a Function, the one made by `ag.function` and each bound method alike."""
        self._options = options
        self._python_function = options.python_function
        self._input_signature = options.input_signature
        self._calls_through = options.calls_through
        functools.update_wrapper(self, self._python_function, updated=())
        self._binder = binder
        self._arity = -1 if binder is None else binder.arity  # positional calls bind as they are
        # whether a call looks its graph up by its arguments' key (not: a callable without
        # Python code, called as it is, or a Function with an input_signature)
        self._keyed_by_arguments = not options.calls_through and options.input_signature is None
        self._name = name
        self._instance_ref = instance_ref
        self._owner = owner
        self._cache = {}  # key -> ConcreteFunction; also holds keys a relaxed graph accepts
        # (dtype, type of its value, shape of an array value or None, ConcreteFunction) of the
        # last call of one eager tensor that found its graph in the cache; None after any
        # change to the cache (see __call__)
        self._last = None
        self._traces = []  # (key, ConcreteFunction, ids of objects keyed by identity)
        self._tracing_reasons = []  # why each trace so far was made (autograph.tracing.reasons)
        self._watched = {}  # id(obj) -> weakref to obj, for objects in keys
        self._signature_key = None
        self._signature_concrete = None
        self._lock = threading.RLock()  # held while tracing; see docs/tracing.md "Threads"
        _live_functions.add(self)
        self._variables_initialized = False  # the first trace is done: no more new variables
        self._initializing_traces = 0
        self._pending_initializer = None  # a graph initializing variables, not run yet
        self._counted_for_code = False

    # ---- calling ---------------------------------------------------------------------------

    def __call__(self, first: Any = _NO_ARGUMENT, /, *args: Any, **kwargs: Any) -> Any:
        # The hot path: one eager tensor of the dtype and shape of the last such call that found
        # its graph in the cache (which forgets `_last` when it changes), while no thread builds
        # a graph, no tape records, nothing runs eagerly and no summary trace records (a cell).
        last = self._last
        if type(first) is EagerTensor and not args and not kwargs and last is not None and \
                not _calls_look_further[0] and first.dtype is last[0]:
            array = first.value
            # a value of another type than an array (a numpy scalar, a string's bytes) has the
            # shape ()
            if type(array) is last[1] and (last[2] is None or array.shape == last[2]):
                return last[3].call_feeds(array)
        if first is not _NO_ARGUMENT:
            args = (first, *args)
        # Then a cache hit: the checks for another kind of call at once (the cells first:
        # another thread's graphs or tapes make this thread look at its own).
        if self._keyed_by_arguments is False or _running_eagerly[0] or \
                _building_graphs[0] and _state.graphs or _active_tapes[0] and _state.tapes:
            return self._call_otherwise(args, kwargs)
        one = not kwargs and len(args) == 1 == self._arity  # the call the hot path takes
        if kwargs or len(args) != self._arity:
            args = self._binder.canonical(args, kwargs)
        if len(args) == 1 and type(args[0]) is EagerTensor:  # keys.make_key's first case, inline
            tensor = args[0]
            array = tensor.value
            feeds: list[Any] = [array]
            try:
                shape = array.shape
            except AttributeError:  # a scalar string tensor holds `bytes`
                shape = ()
            key: tuple = ((tensor.dtype, shape),)
            concrete = self._cache.get(key)
            if concrete is not None and one:
                kind = type(array)
                self._last = (tensor.dtype, kind, shape if kind is np.ndarray else None,
                              concrete)
        else:
            feeds = []
            key = keys.make_key(args, feeds)
            concrete = self._cache.get(key)
        if concrete is None:
            return self._call_miss(key, args, feeds)
        return concrete.call_flat(feeds)

    def _call_otherwise(self, args, kwargs):
        """A call that runs Python code, or the graph of an input_signature."""
        if self._calls_through or _running_eagerly[0] or _state.graphs or \
                _active_tapes[0] and _state.tapes:
            return self._call_python(args, kwargs)
        binder = self._binder
        values = args if not kwargs and len(args) == binder.arity else binder.canonical(
            args, kwargs)
        return self._call_with_signature(values)

    def _call_python(self, args, kwargs):
        """A call that runs Python code, not a cached graph."""
        if self._calls_through or config.functions_run_eagerly():
            return self._callable(self._python_function)(*args, **kwargs)
        # This thread builds a graph (trace inline), or an eager gradient tape is recording
        # (run the converted code's ops eagerly, so the tape sees them; docs/gradients.md).
        return self._callable(self._converted())(*args, **kwargs)

    def _call_with_signature(self, values):
        key = self._signature_key or self._make_signature_key()
        feeds = keys.feed(key, values, self._binder.names, self._name)
        concrete = self._signature_concrete
        if concrete is None:
            concrete, outputs = self._trace_signature(feeds)
            if outputs is not None:
                return outputs
        return concrete.call_flat(feeds)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (values, tensors or rt.TensorSpecs), traced
        if needed. With an input_signature, no arguments are needed."""
        if self._calls_through:
            raise TypeError(f'ag.function({self._python_function!r}) has no Python code to '
                            f'trace, so it has no graph: it is called as it is.')
        if self._input_signature is not None:
            if args or kwargs:
                values = self._binder.canonical(args, kwargs)
                key = self._signature_key or self._make_signature_key()
                keys.feed(key, values, self._binder.names, self._name, allow_specs=True)
            return self._signature_concrete or self._trace_signature()[0]
        values = self._binder.canonical(args, kwargs)
        key = keys.make_key(values, [], allow_specs=True)
        return self._cache.get(key) or self._concrete_for(key, values)

    def tracing_inputs(self, args, kwargs):
        """What a trace for the call `(*args, **kwargs)` runs on, found as a trace would find it
        but leaving the cache and the trace count alone (`ag.explain`): (the callable a trace
        runs, its Binder, the cache key, one value per parameter)."""
        if self._calls_through:
            raise TypeError(f'ag.function({self._python_function!r}) has no Python code to '
                            f'trace, so it has no graph: it is called as it is.')
        if self._input_signature is not None:
            key = self._signature_key or self._make_signature_key()
            if args or kwargs:
                keys.feed(key, self._binder.canonical(args, kwargs), self._binder.names,
                          self._name, allow_specs=True)
            values = self._signature_values()
        else:
            values = self._binder.canonical(args, kwargs)
            key = keys.canonical(keys.make_key(values, [], allow_specs=True))
        return self._callable(self._converted()), self._binder, key, values

    # ---- introspection -------------------------------------------------------------------------

    @property
    def python_function(self):
        return self._callable(self._python_function)

    @property
    def input_signature(self):
        return self._input_signature

    def concrete_functions(self):
        """The ConcreteFunctions traced so far, in trace order (what saving keeps)."""
        return [concrete for _, concrete, _ in self._traces]

    def __reduce__(self):
        """Pickles through the graph of its input_signature (saved as a SavedModel would)."""
        if self.input_signature is None:
            raise TypeError(f'Cannot pickle ag.Function {self.__name__}: only Functions with an '
                            f'input_signature (and ConcreteFunctions) pickle, since a graph must '
                            f'be fixed before it is shipped. Use ag.function(f, '
                            f'input_signature=...) or pickle f.get_concrete_function(...).')
        # Deferred for start-up cost: the SavedModel writer and loader load on the first pickle.
        from autograph.saved_model.pickling import reduce_concrete
        return reduce_concrete(self.get_concrete_function())

    def experimental_get_tracing_reasons(self):
        """Why each graph so far was traced, in order: "first trace", then the argument that no
        earlier graph accepted and what about it changed."""
        return list(self._tracing_reasons)

    def experimental_get_tracing_count(self):
        """How many graphs this Function holds, plus the first-call graph that initialized its
        variables from its inputs, if any (that one ran once and is gone)."""
        return len(self._traces) + self._initializing_traces

    def pretty_printed_concrete_signatures(self):
        """The signature of every traced graph, in trace order, separated by blank lines."""
        return '\n\n'.join(concrete.pretty_printed_signature() for _, concrete, _ in self._traces)

    def __repr__(self):
        return f'<ag.Function {self._name}>'

    # ---- methods ---------------------------------------------------------------------------------

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        bound = self._bound.get(id(instance))
        if bound is not None and bound._instance_ref() is instance:
            return bound
        return self._bind(instance)

    def _bind(self, instance):
        if not type(instance).__weakrefoffset__:
            raise TypeError(f'{type(instance).__name__}.{self._name} is an ag.function method, '
                            f'which needs weak references to the instance: add "__weakref__" to '
                            f'the __slots__ of {type(instance).__name__}.')
        if self._method_binder is None and not self._calls_through:
            self._method_binder = Binder(self._python_function, self._name, skip_first=True)
        instance_id = id(instance)
        owner_ref = weakref.ref(self)

        def forget(_):
            owner = owner_ref()
            if owner is not None:
                owner._bound.pop(instance_id, None)

        bound = Function.__new__(Function)
        bound._setup(self._options, self._method_binder, self._name,
                     weakref.ref(instance, forget), self)
        self._bound[instance_id] = bound
        return bound

    def _callable(self, python_function):
        """`python_function`, bound to the instance for a method."""
        if self._instance_ref is None:
            return python_function
        instance = self._instance_ref()
        if instance is None:
            raise ReferenceError(f'The instance that the method {self._name} was bound to no '
                                 f'longer exists.')
        return types.MethodType(python_function, instance)

    def _converted(self):
        """What is traced: the AutoGraph-converted function, or the function itself when
        autograph=False. Converted once and shared by the instances of a method."""
        owner = self._owner
        if owner._converted_function is None:
            owner._converted_function = (to_graph(owner._python_function)
                                         if owner._options.autograph else owner._python_function)
        return owner._converted_function

    # ---- tracing ---------------------------------------------------------------------------------

    def _lookup(self, key):
        """A traced graph that accepts `key` (one traced with `None` dims), or None. Not cached
        per key: with reduce_retracing every new shape would otherwise add a cache entry."""
        for traced_key, concrete, _ in self._traces:
            if keys.accepts(traced_key, key):
                return concrete
        return None

    def _call_miss(self, key, values, feeds):
        """A call whose key is not cached: run a graph that accepts it, or trace one."""
        concrete = self._lookup(key)
        if concrete is None:
            with self._lock:
                concrete = self._cache.get(key) or self._lookup(key)
                if concrete is None:
                    concrete, outputs = self._trace_and_cache(key, values, feeds)
                    if outputs is not None:
                        return outputs
        if len(self._cache) < ACCEPTED_KEYS_CACHED:
            self._last = None
            self._cache[key] = concrete
        return concrete.call_flat(feeds)

    def _trace_and_cache(self, key, values, feeds):
        """Trace for `key` (relaxed with reduce_retracing) and cache it; with the lock held.
        Returns (concrete, outputs): outputs are those of the call when its graph initialized
        variables (it ran once, here), else None."""
        trace_key = key = keys.canonical(key)
        if self._options.reduce_retracing:
            for traced_key, _, _ in reversed(self._traces):
                relaxed = keys.relax(traced_key, key)
                if relaxed is not None:
                    trace_key = relaxed
                    break
        concrete, outputs = self._trace(trace_key, values, feeds)
        self._last = None
        self._cache[trace_key] = concrete
        return concrete, outputs

    def _concrete_for(self, key, values):
        """The graph for get_concrete_function: one that accepts the key, or a new trace."""
        concrete = self._lookup(key)
        if concrete is not None:
            return concrete
        with self._lock:
            concrete = self._cache.get(key) or self._lookup(key)
            if concrete is None:
                concrete, _ = self._trace_and_cache(key, values, None)
            return concrete

    def _trace(self, key, values, feeds):
        """Trace a graph; with the lock held. A first trace may create variables whose initial
        values depend on the inputs: its graph assigns them, so it runs once, now, on `feeds`
        (the call being made), and the function is traced again without creating them, as in
        TensorFlow. Returns (the graph for later calls, the outputs of that first run or None).

        Without `feeds` (get_concrete_function) that graph cannot run: it is kept, the error
        says to call the Function, and the first call it accepts runs it."""
        pending = self._pending_initializer
        if pending is not None and feeds is not None and keys.accepts(pending.key, key):
            concrete = pending  # traced by get_concrete_function; the variables exist already
        else:
            first = not self._traces and not self._variables_initialized
            concrete = self._trace_once(key, values, initialize_variables=first)
            if not concrete.initialized_variables:
                self._variables_initialized = self._variables_initialized or first
                return concrete, None
        if feeds is None:
            self._pending_initializer = concrete
            names = ', '.join(storage.name for storage in concrete.initialized_variables)
            raise ValueError(
                f'{self._name}() creates variables ({names}) whose initial values depend on its '
                f'inputs, so a graph cannot be made for it before it runs: call the Function '
                f'first (that call initializes them), or create them from values that do not '
                f'depend on the inputs.')
        outputs = concrete.call_flat(feeds)
        self._pending_initializer = None
        self._variables_initialized = True
        self._initializing_traces += 1
        return self._trace_once(key, values, initialize_variables=False), outputs

    def _trace_once(self, key, values, initialize_variables):
        object_ids = []

        def watch_object(obj):
            object_ids.append(id(obj))
            self._watch(obj)

        earlier = [traced_key for traced_key, _, _ in self._traces]
        if earlier or not self._tracing_reasons:
            reason = reasons.reason(key, values, self._binder.names, earlier)
        elif len(self._tracing_reasons) == self._initializing_traces:
            reason = reasons.AFTER_INITIALIZING
        else:
            reason = reasons.DROPPED
        concrete = trace(self._callable(self._converted()), self._binder, key, values,
                         watch_object, self._check_variable, initialize_variables,
                         self._options.jit_compile)
        self._tracing_reasons.append(reason)
        if not concrete.initialized_variables:
            self._traces.append((key, concrete, frozenset(object_ids)))
            self._warn_if_retracing()
        return concrete

    def _make_signature_key(self):
        specs = list(self._input_signature)
        parameters = self._binder.parameters
        if len(specs) > len(parameters) or any(p.default is p.empty
                                               for p in parameters[len(specs):]):
            raise TypeError(f'{self._name}() has parameters {list(self._binder.names)} but its '
                            f'input_signature gives {len(specs)} specs; give one spec per '
                            f'parameter (parameters after the specs need default values).')
        values = specs + [p.default for p in parameters[len(specs):]]
        self._signature_key = keys.canonical(keys.make_key(values, [], allow_specs=True))
        return self._signature_key

    def _trace_signature(self, feeds=None):
        """The one graph of a Function with an input_signature, and the outputs of this call
        when tracing it ran it (see `_trace`)."""
        with self._lock:
            if self._signature_concrete is not None:
                return self._signature_concrete, None
            key = self._signature_key or self._make_signature_key()
            self._signature_concrete, outputs = self._trace(key, self._signature_values(), feeds)
            return self._signature_concrete, outputs

    def _signature_values(self):
        """The values a trace of the input_signature runs on: its specs, then the defaults."""
        return list(self._input_signature) + [
            p.default for p in self._binder.parameters[len(self._input_signature):]]

    def _check_variable(self, variable):
        if self._traces or self._variables_initialized:
            raise ValueError(
                f'{self._name}() created a new rt.Variable while tracing graph number '
                f'{self.experimental_get_tracing_count() + 1}. An ag.function may create '
                f'variables only on its first trace; they are kept and later traces (for new '
                f'dtypes, shapes or Python values) must reuse them. Create the variable outside '
                f'the function, or create it once and keep it, e.g. `if self.v is None: '
                f'self.v = rt.Variable(...)`.')

    def _warn_if_retracing(self):
        # stacklevel 7 is the user's call: _warn_if_retracing, _trace_once, _trace,
        # _trace_and_cache, _call_miss, __call__.
        count = len(self._traces)
        if count == RETRACING_THRESHOLD + 1:
            warnings.warn(
                f'ag.function {self._name}() has traced {count} graphs, the latest because '
                f'{self._tracing_reasons[-1]}. Tracing is expensive; '
                f'frequent retracing usually comes from (1) passing Python scalars or other '
                f'Python values that change between calls (each new value traces a new graph; '
                f'pass tensors instead), (2) passing tensors whose shapes change (use '
                f'input_signature with None dims, or reduce_retracing=True), or (3) creating '
                f'the Function again and again, e.g. calling ag.function(f) in a loop (create '
                f'it once and reuse it).', RetracingWarning, stacklevel=7)
        code = getattr(self._python_function, '__code__', None)
        if not self._counted_for_code and self._instance_ref is None and code is not None:
            self._counted_for_code = True
            with _code_counts_lock:
                functions = _functions_tracing_code[code] = _functions_tracing_code.get(code,
                                                                                        0) + 1
            if functions == RETRACING_THRESHOLD + 1:
                warnings.warn(
                    f'{functions} different ag.function objects have traced {self._name}(). '
                    f'Each ag.function(f) has its own cache, so creating one in a loop traces '
                    f'every time: create the Function once and reuse it.', RetracingWarning,
                    stacklevel=7)

    def _watch(self, obj):
        """Drop the graphs keyed by `obj`'s identity when it is garbage-collected."""
        object_id = id(obj)
        if object_id in self._watched:
            return
        function_ref = weakref.ref(self)

        def forget(_):
            function = function_ref()
            if function is not None:
                function._forget_object(object_id)

        self._watched[object_id] = weakref.ref(obj, forget)

    def _forget_object(self, object_id):
        """Runs from the garbage collector, in any thread, maybe while another thread traces:
        it takes no lock (that thread might wait on this one) and edits the lists in place."""
        self._watched.pop(object_id, None)
        dead = [entry for entry in self._traces if object_id in entry[2]]
        for entry in dead:
            try:
                self._traces.remove(entry)
            except ValueError:  # removed meanwhile
                pass
        dead_functions = [entry[1] for entry in dead]
        for key, concrete in list(self._cache.items()):
            if concrete in dead_functions:
                self._cache.pop(key, None)
        self._last = None


def _checked_signature(input_signature, python_function):
    if input_signature is None:
        return None
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(f'input_signature of {getattr(python_function, "__name__", "?")} must be '
                        f'a list or tuple of rt.TensorSpec, got {input_signature!r}.')
    for leaf in flatten(list(input_signature)):
        if not isinstance(leaf, (TensorSpec, DatasetSpec)):
            raise TypeError(f'input_signature may only hold rt.TensorSpec and '
                            f'rt.data.DatasetSpec (possibly nested in lists, tuples and dicts), '
                            f'got {leaf!r}.')
    return tuple(input_signature)

