"""Binding call arguments to parameters, so that `f(x)`, `f(x=x)` and `f(x, 2)` with a default
of 2 make the same cache key.

A call is canonicalized to one value per parameter, in parameter order: a `*args` parameter
holds a tuple and a `**kwargs` parameter a dict. `call_arguments` turns such values back into
the (args, kwargs) to call the Python function with. `has_python_code` tells which callables
have parameters to bind (the others are called through as they are).
"""
import functools
import inspect
import types

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


class Binder:
    """The parameters of one Python function (without `self` for a method bound per instance)."""

    def __init__(self, python_function, name, skip_first=False):
        signature = inspect.signature(python_function)
        parameters = list(signature.parameters.values())
        if skip_first:
            if not parameters or parameters[0].kind not in _POSITIONAL:
                raise TypeError(f'{name} is used as a method but takes no `self` parameter.')
            parameters = parameters[1:]
            signature = signature.replace(parameters=parameters)
        self.name = name
        self.signature = signature
        self.parameters = parameters
        self.names = tuple(p.name for p in parameters)
        # Calls with exactly one positional value per parameter need no binding (the hot path);
        # other calls of a function with only positional parameters bind without `inspect`.
        plain = all(p.kind in _POSITIONAL for p in parameters)
        self.arity = len(parameters) if plain else -1
        self._keyword_index = {p.name: i for i, p in enumerate(parameters)
                               if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD}
        self._defaults = [p.default for p in parameters]

    def canonical(self, args, kwargs, fallback=None):
        """One value per parameter, defaults applied, then values from `fallback` (a dict by
        parameter name) for parameters left out; TypeError naming the function if the
        arguments do not fit its parameters."""
        if not kwargs and len(args) == self.arity:
            return args
        if self.arity >= 0 and not fallback:
            values = self._bind_plain(args, kwargs)
            if values is not None:
                return values
        fallback = fallback or {}
        try:
            if fallback:
                bound = self.signature.bind_partial(*args, **kwargs)
            else:
                bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f'{self.name}(): {e}') from None
        bound.apply_defaults()
        arguments = bound.arguments
        missing = [name for name in self.names if name not in arguments and
                   name not in fallback]
        if missing:
            raise TypeError(f'{self.name}(): missing a required argument: {missing[0]!r}')
        return tuple(arguments[name] if name in arguments else fallback[name]
                     for name in self.names)

    def _bind_plain(self, args, kwargs):
        """Bind to positional parameters; None when the call does not fit (then `inspect`
        binds it again to word the error)."""
        given = len(args)
        if given > self.arity:
            return None
        values = list(args) + self._defaults[given:]
        for name, value in kwargs.items():
            index = self._keyword_index.get(name, -1)
            if index < given:
                return None
            values[index] = value
        for value in values:
            if value is inspect.Parameter.empty:  # a required parameter was not given
                return None
        return tuple(values)

    def call_arguments(self, values):
        """(args, kwargs) that call the Python function with these canonical values."""
        args = []
        kwargs = {}
        for parameter, value in zip(self.parameters, values):
            kind = parameter.kind
            if kind in _POSITIONAL:
                args.append(value)
            elif kind is inspect.Parameter.VAR_POSITIONAL:
                args.extend(value)
            elif kind is inspect.Parameter.KEYWORD_ONLY:
                kwargs[parameter.name] = value
            else:
                kwargs.update(value)
        return args, kwargs

    def kind_name(self, index):
        return self.parameters[index].kind.name


def has_python_code(func):
    """Whether calling `func` runs Python code that can be traced (a function, method, partial
    of one, or an object whose class defines `__call__` in Python); builtins such as `len`
    and numpy ufuncs such as `np.add` have none."""
    if isinstance(func, functools.partial):
        return has_python_code(func.func)
    if inspect.isfunction(func) or inspect.ismethod(func):
        return True
    return not isinstance(func, type) and isinstance(getattr(type(func), '__call__', None),
                                                     types.FunctionType)
