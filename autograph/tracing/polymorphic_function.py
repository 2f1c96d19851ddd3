"""`ag.function`: trace a Python function into graphs, cache them, and run them.

A `Function` keeps one `ConcreteFunction` (a traced graph) per cache key of its arguments
(see `autograph.tracing.keys` and docs/tracing.md). A call binds the arguments to the
parameters, makes the key, looks it up and runs the compiled graph; only a miss takes the
trace lock. Traces are serialized process-wide: concurrent first calls trace once, and the
compiler's caches and the variable-creation checks only ever see one trace at a time.
"""
import functools
import threading
import types
import warnings
import weakref

from runtime import config, context
from autograph.operators.call import to_graph
from autograph.tracing import keys
from autograph.tracing.binding import Binder
from autograph.tracing.concrete import ConcreteFunction, trace
from runtime.nest import flatten
from runtime.tensor_spec import TensorSpec

RETRACING_THRESHOLD = 5
_trace_lock = threading.RLock()
_functions_tracing_code = {}  # code object -> how many Function objects have traced it

__all__ = ['function', 'Function', 'ConcreteFunction', 'RetracingWarning']


class RetracingWarning(UserWarning):
    """A Function traced more than RETRACING_THRESHOLD graphs (see docs/tracing.md)."""


def function(func=None, *, input_signature=None, autograph=True, reduce_retracing=False,
             jit_compile=None):
    """Make `func` a `Function` that runs as a graph: `@ag.function`, `@ag.function(...)` or
    `ag.function(f)`. With `jit_compile=True` each graph is compiled to native code with numba
    on its first call (docs/jit.md); None and False use the default executor."""
    if func is None:
        return functools.partial(function, input_signature=input_signature, autograph=autograph,
                                 reduce_retracing=reduce_retracing, jit_compile=jit_compile)
    return Function(func, input_signature, autograph, reduce_retracing, jit_compile)


class Function:
    """A Python function with a cache of traced graphs; call it like the Python function.

    On a class, `obj.method` is a Function bound to `obj` with its own cache (instances trace
    on their own and are not kept alive by it).
    """

    def __init__(self, python_function, input_signature=None, autograph=True,
                 reduce_retracing=False, jit_compile=None):
        if not callable(python_function):
            raise TypeError(f'ag.function needs a callable, got {python_function!r}.')
        self._python_function = python_function
        self._input_signature = _checked_signature(input_signature, python_function)
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._jit_compile = bool(jit_compile)
        self._converted_function = None
        self._bound = {}  # id(instance) -> the Function bound to that instance
        self._method_binder = None
        name = getattr(python_function, '__name__', type(python_function).__name__)
        self._setup(Binder(python_function, name), None, self)

    def _setup(self, binder, instance_ref, owner):
        functools.update_wrapper(self, self._python_function, updated=())
        self._binder = binder
        self._name = binder.name
        self._instance_ref = instance_ref
        self._owner = owner
        self._cache = {}  # key -> ConcreteFunction; also holds keys a relaxed graph accepts
        self._traces = []  # (key, ConcreteFunction, ids of objects keyed by identity)
        self._watched = {}  # id(obj) -> weakref to obj, for objects in keys
        self._signature_key = None
        self._signature_concrete = None

    # ---- calling ---------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if config.functions_run_eagerly():
            return self._callable(self._python_function)(*args, **kwargs)
        if context.state.graphs:  # called while this thread builds a graph: trace inline
            return self._callable(self._converted())(*args, **kwargs)
        binder = self._binder
        values = args if not kwargs and len(args) == binder.arity else binder.canonical(
            args, kwargs)
        if self._input_signature is not None:
            return self._call_with_signature(values)
        feeds = []
        key = keys.make_key(values, feeds)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._concrete_for(key, values)
        return concrete._call_flat(feeds)

    def _call_with_signature(self, values):
        key = self._signature_key or self._make_signature_key()
        feeds = keys.feed(key, values, self._binder.names, self._name)
        concrete = self._signature_concrete or self._trace_signature()
        return concrete._call_flat(feeds)

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (values, tensors or rt.TensorSpecs), traced
        if needed. With an input_signature, no arguments are needed."""
        if self._input_signature is not None:
            if args or kwargs:
                values = self._binder.canonical(args, kwargs)
                key = self._signature_key or self._make_signature_key()
                keys.feed(key, values, self._binder.names, self._name, allow_specs=True)
            return self._signature_concrete or self._trace_signature()
        values = self._binder.canonical(args, kwargs)
        key = keys.make_key(values, [], allow_specs=True)
        return self._cache.get(key) or self._concrete_for(key, values)

    # ---- introspection -------------------------------------------------------------------------

    @property
    def python_function(self):
        return self._callable(self._python_function)

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        """How many graphs this Function has traced."""
        return len(self._traces)

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
        if self._method_binder is None:
            self._method_binder = Binder(self._python_function, self._name, skip_first=True)
        instance_id = id(instance)
        owner_ref = weakref.ref(self)

        def forget(_):
            owner = owner_ref()
            if owner is not None:
                owner._bound.pop(instance_id, None)

        bound = Function.__new__(Function)
        bound.__dict__.update({name: getattr(self, name) for name in (
            '_python_function', '_input_signature', '_autograph', '_reduce_retracing',
            '_jit_compile')})
        bound._setup(self._method_binder, weakref.ref(instance, forget), self)
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
            owner._converted_function = (to_graph(owner._python_function) if owner._autograph
                                         else owner._python_function)
        return owner._converted_function

    # ---- tracing ---------------------------------------------------------------------------------

    def _concrete_for(self, key, values):
        """The graph for a cache miss: one that accepts the key, or a new trace."""
        with _trace_lock:
            concrete = self._cache.get(key)
            if concrete is not None:
                return concrete
            for traced_key, concrete, _ in self._traces:
                if keys.accepts(traced_key, key):
                    self._cache[key] = concrete
                    return concrete
            trace_key = key
            if self._reduce_retracing:
                for traced_key, _, _ in reversed(self._traces):
                    relaxed = keys.relax(traced_key, key)
                    if relaxed is not None:
                        trace_key = relaxed
                        break
            concrete = self._trace(trace_key, values)
            self._cache[key] = concrete
            return concrete

    def _trace(self, key, values):
        object_ids = []

        def watch_object(obj):
            object_ids.append(id(obj))
            self._watch(obj)

        concrete = trace(self._callable(self._converted()), self._binder, key, values,
                         watch_object, self._check_variable, self._jit_compile)
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
        self._signature_key = keys.make_key(values, [], allow_specs=True)
        return self._signature_key

    def _trace_signature(self):
        with _trace_lock:
            if self._signature_concrete is None:
                key = self._signature_key or self._make_signature_key()
                values = list(self._input_signature) + [
                    p.default for p in self._binder.parameters[len(self._input_signature):]]
                self._signature_concrete = self._trace(key, values)
            return self._signature_concrete

    def _check_variable(self, variable):
        if self._traces:
            raise ValueError(
                f'{self._name}() created a new rt.Variable while tracing graph number '
                f'{len(self._traces) + 1}. An ag.function may create variables only on its first '
                f'trace; they are kept and later traces (for new dtypes, shapes or Python '
                f'values) must reuse them. Create the variable outside the function, or create it '
                f'once and keep it, e.g. `if self.v is None: self.v = rt.Variable(...)`.')

    def _warn_if_retracing(self):
        count = len(self._traces)
        if count == RETRACING_THRESHOLD + 1:
            warnings.warn(
                f'ag.function {self._name}() has traced {count} graphs. Tracing is expensive; '
                f'frequent retracing usually comes from (1) passing Python scalars or other '
                f'Python values that change between calls (each new value traces a new graph; '
                f'pass tensors instead), (2) passing tensors whose shapes change (use '
                f'input_signature with None dims, or reduce_retracing=True), or (3) creating '
                f'the Function again and again, e.g. calling ag.function(f) in a loop (create '
                f'it once and reuse it).', RetracingWarning, stacklevel=5)
        code = getattr(self._python_function, '__code__', None)
        if count == 1 and self._instance_ref is None and code is not None:
            functions = _functions_tracing_code[code] = _functions_tracing_code.get(code, 0) + 1
            if functions == RETRACING_THRESHOLD + 1:
                warnings.warn(
                    f'{functions} different ag.function objects have traced {self._name}(). '
                    f'Each ag.function(f) has its own cache, so creating one in a loop traces '
                    f'every time: create the Function once and reuse it.', RetracingWarning,
                    stacklevel=5)

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
        self._watched.pop(object_id, None)
        dead = [concrete for _, concrete, ids in self._traces if object_id in ids]
        self._traces = [entry for entry in self._traces if entry[1] not in dead]
        for key, concrete in list(self._cache.items()):
            if concrete in dead:
                self._cache.pop(key, None)


def _checked_signature(input_signature, python_function):
    if input_signature is None:
        return None
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(f'input_signature of {getattr(python_function, "__name__", "?")} must be '
                        f'a list or tuple of rt.TensorSpec, got {input_signature!r}.')
    for leaf in flatten(list(input_signature)):
        if not isinstance(leaf, TensorSpec):
            raise TypeError(f'input_signature may only hold rt.TensorSpec (possibly nested in '
                            f'lists, tuples and dicts), got {leaf!r}.')
    return tuple(input_signature)
