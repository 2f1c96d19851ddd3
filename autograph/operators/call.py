"""`callee`, which resolves what each call in converted code runs, `converted_call` and
`to_graph`."""
import functools
import inspect
import re
import sys
import types
import warnings
import weakref
from typing import Any, Callable

import runtime as rt
from autograph.compiler import api, conversion, verbosity
from autograph.operators import function_scope, higher_order, py_builtins
from autograph.operators.function_scope import ConversionOptions, FunctionScope
from autograph.pyct import errors, loader, origin_info
from runtime.core import context as rt_context

# Code from these packages (and the standard library) is called as it is.
_LEAVE_ALONE = frozenset({'runtime', 'autograph', 'numpy', 'gast'}) | frozenset(
    sys.stdlib_module_names)

_CONVERTED = '__ag_converted_function__'  # (function, its converted version), on the function
_UNCONVERTED = '__ag_unconverted_function__'  # (function, what runs it as it is): it failed


_BUILTIN = type(len)
# a method of a C object that takes its defining class (3.9+: `re.Pattern.match`...), a
# subclass of the builtin functions' type
_C_METHOD = type(re.compile('').match)
_MODULE, _FUNCTION, _METHOD = types.ModuleType, types.FunctionType, types.MethodType

# id(callable) -> what a call of it from converted code runs, decided by the first call (the
# slow path of `callee`), for callables that live on: the conversion of a function of a
# module (no closure, the module's globals: the conversion holds nothing that keeps the
# function alive; its entry goes with it, by the callback of a weak reference, which runs
# before its id can be reused); what runs a function that its module holds at its qualified
# name (a module-level function or a method of a module-level class, kept alive here as its
# module keeps it); the overload or the builtin itself for the builtin functions of modules
# and the static types. Keyed by identity, so a copy of a function's `__dict__`
# (functools.wraps) carries no plan to the copy. Any other function keeps its plan on itself
# (`_PLAN`: (function, what runs)), where it dies with the function.
PLANS: dict = {}
_PLAN_REFS: dict = {}
_KEPT: list = []
_PLAN = '__ag_call_plan__'
# While no graph is being built, converted code runs on values Python itself can run (eager
# tensors included: the staged forms are never taken), so a user function it calls runs as it
# is, unconverted: the same program, at the original's speed, and nothing to convert (the
# first call of every callee used to convert it). `EAGER_PLANS` holds, by id, the callables
# whose eager calls run something known without a Python call: the functions that live with
# their module (kept in `_KEPT`), and the builtins and types of `PLANS`. Any other function
# called eagerly is marked by its code object under `_EAGER_PLAN` on itself (a copy of its
# `__dict__` by functools.wraps has another code object: no mark).
EAGER_PLANS: dict = {}
_EAGER_PLAN = '__ag_eager_plan__'
# What the plain Python form of a call in converted code looks up first, without a Python
# call: `(ag__.plan_of(ag__.id_(f)) or ag__.callee(f, fscope))(args)` (a plan is never false:
# a function, a builtin, or a class whose metaclass is `type`). `ag__.plan_of` reads
# `EAGER_PLANS` while no thread builds a graph and `PLANS` while one does (`_switch_plans`).
plan_of = (PLANS if rt_context.building_graphs[0] else EAGER_PLANS).get


def callee(f: Any, caller_fn_scope: FunctionScope | None = None,
           options: ConversionOptions | None = None) -> Any:
    """What a call of `f` from converted code runs, called there with the user's own
    arguments (`ag__.callee(f, fscope)(a, *b, k=v)`): the conversion of user code (bound to
    the instance for a method or a callable object), the tensor overload of a builtin that has
    one (`len`, `range`, ...), `f` itself for code left as it is, `functools.partial` of the
    callee of its function, and for a runtime function that calls user functions (`rt.map_fn`)
    a wrapper that converts them.

    The first call of a plain function, builtin or class decides what its calls run and keeps
    that in `PLANS`; later calls, and calls of builtins and of methods of builtin types, are
    answered at once (no per-call lookups)."""
    kind = type(f)
    if kind is _BUILTIN or kind is type or kind is _C_METHOD:
        # 'x'.isdigit, d.get, len, ...; list, a user's class: the builtin's overload (range,
        # int, ...) or `f` as it is. A builtin function hashes by identity, never failing
        target = _BUILTIN_OVERLOADS(f, f)
        if (type(f.__self__) is _MODULE if kind is not type else not f.__flags__ & _HEAP_TYPE) \
                and id(f) not in PLANS:
            # a module's builtin function or a static type: it lives on
            _KEPT.append(f)
            PLANS[id(f)] = EAGER_PLANS[id(f)] = target
        return target
    # the fast paths answer for the options of converted code (a scope of recursive options);
    # any other options take the slow path, which reads them
    if options is None and (caller_fn_scope is None or type(caller_fn_scope) is _SCOPE
                            and caller_fn_scope.options.recursive):
        if not _BUILDING[0] or not _THREAD.graphs:   # eager: `f` itself, once known
            function = f.__func__ if kind is _METHOD else f
            if type(function) is _FUNCTION:
                if function.__dict__.get(_EAGER_PLAN) is function.__code__ or (
                        _EAGER_PLANS_GET(id(function)) is function):
                    return f
                if _IS_GENERATED(function.__code__):   # converted code (a def, a lambda in it)
                    _keep_eager(function, mark=False)  # a converted module's: `plan_of` answers
                    return f
        elif kind is _FUNCTION:
            plan = _PLANS_GET(id(f))
            if plan is not None:
                return plan
            plan = f.__dict__.get(_PLAN)
            if plan is not None:
                if plan[0] is f:
                    return plan[1]
            elif _IS_GENERATED(f.__code__):   # a def or lambda of converted code
                return f
        elif kind is _METHOD:
            function = f.__func__
            plan = _PLANS_GET(id(function))
            if plan is not None:
                return _METHOD(plan, f.__self__)
            plan = getattr(function, '__dict__', None)
            plan = plan.get(_PLAN) if plan is not None else None
            if plan is not None and plan[0] is function:
                return f if plan[1] is function else _METHOD(plan[1], f.__self__)
    if kind in _AS_IS_TYPES:   # a ufunc, an operator.itemgetter, a C scanner...
        return f
    if isinstance(f, type):   # a class of a metaclass (ABCMeta...): what `_resolve` returns
        try:
            return _BUILTIN_OVERLOADS(f, f)
        except TypeError:   # a metaclass's __eq__ without __hash__
            pass
    # the first call of a callee may come at the deepest point of a recursion, where the
    # original needs no frame past the callee's own: the slow path runs with room for its
    # frames (raised and lowered by C calls only, relative to whatever limit is set)
    _setrecursionlimit(_getrecursionlimit() + _RESOLVE_ROOM)
    try:
        return _resolve(f, caller_fn_scope, options)
    finally:
        _setrecursionlimit(_getrecursionlimit() - _RESOLVE_ROOM)


def _resolve(f, caller_fn_scope, options):
    """`callee` of everything its fast path does not answer."""
    hashable = _hashable(f)
    overload = py_builtins.OVERLOADS.get(f) if hashable else None
    if overload is not None:
        return overload
    if hashable and f in higher_order.CALLABLE_ARGS:  # rt.map_fn(fn, ...): convert fn too
        return _converting_callables(f, caller_fn_scope, options)
    options = options or getattr(caller_fn_scope, 'options', None)
    if options is not None and not options.recursive:
        return f
    if isinstance(f, functools.partial):
        return functools.partial(callee(f.func, caller_fn_scope, options), *f.args,
                                 **f.keywords)
    target, bound_args = _unbind(f)
    if target is None:
        _keep_plan(f, f)
        kind = type(f)
        if kind.__flags__ & _IMMUTABLE_TYPE and kind not in _KEY_TYPES and \
                not isinstance(f, _NOT_AS_IS):
            _AS_IS_TYPES.add(kind)   # what every instance's calls run: itself
        return f
    if not _BUILDING[0] or not _THREAD.graphs:
        _keep_eager(target)
        return f
    converted = _callee(target)
    _keep_plan(f, converted)
    if not bound_args or converted is target:
        return converted if not bound_args else f
    return types.MethodType(converted, bound_args[0])


def converted_call(f: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None,
                   caller_fn_scope: FunctionScope | None = None,
                   options: ConversionOptions | None = None) -> Any:
    """Calls `f(*args, **kwargs)`, converting `f` first when it is user code (TensorFlow's
    operator; converted code calls `callee(f, fscope)(...)` in its own frame instead)."""
    function = callee(f, caller_fn_scope, options)
    return function(*args, **kwargs) if kwargs else function(*args)


def _converting_callables(f, caller_fn_scope, options):
    """`f` (a key of CALLABLE_ARGS), called with its user callables converted."""
    def convert(fn):
        return _calling_converted(fn, caller_fn_scope, options)

    @functools.wraps(f)
    def call(*args, **kwargs):
        args, kwargs = higher_order.with_converted_callables(f, args, kwargs, convert)
        return f(*args, **kwargs)
    return call


_BUILTIN_OVERLOADS = py_builtins.OVERLOADS.get
_PLANS_GET = PLANS.get
_EAGER_PLANS_GET = EAGER_PLANS.get
_BUILDING = rt_context.building_graphs
_THREAD = rt_context.state
_getrecursionlimit, _setrecursionlimit = sys.getrecursionlimit, sys.setrecursionlimit
_RESOLVE_ROOM = 100
_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
_SCOPE = function_scope.FunctionScope
_IS_GENERATED = origin_info.is_generated_code


def _keep_plan(f, callee):
    """Keeps what the calls of a plain function (or a method's function) run, for the fast
    paths (`PLANS`; what runs as it is, for the eager ones too): only for functions no
    overload or higher-order rule names, and, for
    code that is not converted, only when the function is not a closure (a module's functions
    live as long as it)."""
    kind = type(f)
    if kind is types.MethodType:
        function = f.__func__
        if type(function) is not types.FunctionType:
            return
        if callee is f:
            callee = function
    elif kind is types.FunctionType:
        function = f
    else:
        return
    if _hashable(f) and (f in py_builtins.OVERLOADS or f in higher_order.CALLABLE_ARGS
                         or function in py_builtins.OVERLOADS
                         or function in higher_order.CALLABLE_ARGS):
        return
    if callee is function:
        # run as it is in graphs and eagerly: for the eager fast path too, which reads no
        # graph plan (and this keeps none for a closure, or a function of a module object
        # `sys.modules` does not hold: a test's fresh import)
        _keep_eager(function)
        if function.__closure__ is not None and not _lives_with_module(function):
            return  # (a method's `__class__` cell lives on with it)
    _keep(function, callee)


def _keep(function, target):
    if getattr(target, '__ag_converted__', False) and target is not function and (
            function.__closure__ is None and _module_globals(function)):
        key = id(function)
        PLANS[key] = target
        _PLAN_REFS[key] = weakref.ref(function, functools.partial(_forget, key))
    elif _lives_with_module(function):
        _KEPT.append(function)
        PLANS[id(function)] = target
        if target is function:
            EAGER_PLANS[id(function)] = function
    else:
        function.__dict__[_PLAN] = (function, target)   # it may hold `function`


def _keep_eager(function, mark=True):
    """Remembers that eager calls of `function` run it as it is: in `EAGER_PLANS` when it lives
    with its module, else (with `mark`) by a mark on the function."""
    if _lives_with_module(function):
        _KEPT.append(function)
        EAGER_PLANS[id(function)] = function
    elif mark:
        function.__dict__[_EAGER_PLAN] = function.__code__


def _switch_plans(building):
    """Points `ag__.plan_of` at the plans for graphs while any thread builds one (runtime's
    `building_watchers`): a thread running eagerly meanwhile calls conversions, which on its
    values are the same program."""
    global plan_of
    plan_of = (PLANS if building else EAGER_PLANS).get
    sys.modules[__package__].plan_of = plan_of


rt_context.building_watchers.append(_switch_plans)


def _module_globals(function):
    module = sys.modules.get(function.__module__)
    return getattr(module, '__dict__', None) is function.__globals__


def _lives_with_module(function):
    """Whether `function` is what its module holds at its qualified name (a module-level
    function, or a method, static method or class method of a module-level class): it lives
    as long as the module."""
    if '<' in function.__qualname__ or not _module_globals(function):
        return False
    value = function.__globals__
    for part in function.__qualname__.split('.'):
        value = value.get(part) if isinstance(value, dict) else getattr(value, '__dict__',
                                                                          {}).get(part)
        if value is None:
            return False
    return value is function or type(value) in _METHOD_WRAPPERS and value.__func__ is function


_METHOD_WRAPPERS = (staticmethod, classmethod)


def _forget(key, _reference):
    PLANS.pop(key, None)
    _PLAN_REFS.pop(key, None)


_HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made at run time (static types live on)
_IMMUTABLE_TYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE: a C type nothing can give a __call__
# Immutable (C) types whose instances `_resolve` leaves as they are, whatever the instance (no
# overload or higher-order rule is keyed by one, and no Python `__call__` can be added): their
# calls are answered at once (a ufunc, operator.itemgetter), as the instances themselves
# cannot be kept by identity
_AS_IS_TYPES: set = set()
_KEY_TYPES = frozenset(type(key) for key in (*py_builtins.OVERLOADS, *higher_order.CALLABLE_ARGS))
_NOT_AS_IS = (type, functools.partial, types.FunctionType, types.MethodType)


def _calling_converted(fn, caller_fn_scope, options):
    """`fn` called as converted code calls it (a user function handed to a runtime function);
    a function of converted code (a lambda written in it) is converted already."""
    if loader.is_generated(fn):
        return fn

    @functools.wraps(fn)
    def call(*args, **kwargs):
        return callee(fn, caller_fn_scope, options)(*args, **kwargs)
    return call


def to_graph(func: Callable[..., Any]) -> Callable[..., Any]:
    """The converted version of `func`, a Python function that builds graph control flow when
    called on symbolic tensors. Bound methods stay bound. Other callables (objects with
    `__call__`, `functools.partial`, builtins) come back wrapped so that each call goes through
    `converted_call`, which converts the user code they run."""
    func = getattr(func, 'python_function', func)
    if inspect.ismethod(func) and isinstance(func.__func__, types.FunctionType):
        return types.MethodType(_converted_function(func.__func__), func.__self__)
    if isinstance(func, types.FunctionType):
        return _converted_function(func)
    if not callable(func):
        raise TypeError(f'ag.to_graph needs a function or another callable, got {func!r}.')

    @functools.wraps(func)
    def call_converted(*args, **kwargs):
        return converted_call(func, args, kwargs)
    return call_converted


def _hashable(f):
    try:
        hash(f)
    except TypeError:
        return False
    return True


def _unbind(f):
    """The plain function to convert for the callable `f`, with the arguments binding adds;
    (None, ()) when `f` must be called as it is."""
    if inspect.ismethod(f):
        function, bound = f.__func__, (f.__self__,)
    elif isinstance(f, types.FunctionType):
        function, bound = f, ()
    elif not isinstance(f, type) and isinstance(getattr(type(f), '__call__', None),
                                                types.FunctionType):
        function, bound = type(f).__call__, (f,)
    else:
        return None, ()
    if not _is_user_code(function):
        return None, ()
    return function, bound


def _callee(function):
    """What converted code calls for the user function `function`: its conversion or, when it
    cannot be converted (a generator, no source, a construct AutoGraph refuses), the function
    itself, as TensorFlow does; a note says so from verbosity 1 on (ag.set_verbosity)."""
    entry = function.__dict__.get(_CONVERTED)
    if entry is not None and entry[0] is function:
        return entry[1]
    entry = function.__dict__.get(_UNCONVERTED)
    if entry is not None and entry[0] is function:
        return entry[1]
    try:
        return _converted_function(function, warn=False)
    except errors.ConversionError as e:
        reason = ' '.join(str(e).split())
        verbosity.note(1, f'AutoGraph could not convert {function.__qualname__!r} and runs it '
                          f'as it is: {reason}')
        unconverted = _unconverted(function, reason)
        function.__dict__[_UNCONVERTED] = (function, unconverted)
        return unconverted


def _is_user_code(function):
    if (api.is_marked_do_not_convert(function) or getattr(function, '__ag_converted__', False)
            or loader.is_generated(function)):  # a lambda or def written in converted code
        return False
    # the module that defined it: `functools.wraps` copies `__module__` onto library wrappers
    # (contextlib.contextmanager's), their globals tell where they live
    defined_in = getattr(function, '__globals__', {}).get('__name__') or ''
    module = (function.__module__ or '').split('.')[0]
    return module not in _LEAVE_ALONE and defined_in.split('.')[0] not in _LEAVE_ALONE


def _unconverted(function, reason):
    """`function` as it is; a tensor used as a Python value in it raises an error that says the
    function could not be converted, and why. A generator (or coroutine) function is `function`
    itself: its body runs only when the caller iterates, outside any wrapper, so a wrapper would
    add nothing but a frame."""
    if function.__code__.co_flags & _RESUMABLE:
        return function

    @functools.wraps(function)
    def unconverted(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except rt.errors.OperatorNotAllowedInGraphError as e:
            raise rt.errors.OperatorNotAllowedInGraphError(
                f'{e}\nAutoGraph did not convert this function: {reason}') from None
    return unconverted


def _converted_function(function, warn=True):
    # Kept on the function itself: a WeakKeyDictionary would keep it alive through the
    # converted function's globals. The function is stored too, to tell its own entry from one
    # that functools.wraps copied onto a wrapper.
    entry = function.__dict__.get(_CONVERTED)
    converted = entry[1] if entry is not None and entry[0] is function else None
    if converted is None:
        try:
            entity = conversion.convert(function)
        except errors.SourceUnavailableError as e:
            if not warn:
                raise
            warnings.warn(f'{e} It runs unconverted, so Python control flow on tensors in it '
                          f'will fail.', stacklevel=3)
            return _unconverted(function, str(e))
        converted = loader.instantiate(entity.factory_code, function, sys.modules[__package__])
        converted.__ag_converted__ = True
        function.__dict__[_CONVERTED] = (function, converted)
    return converted
