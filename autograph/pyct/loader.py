"""Compiles generated source and instantiates converted functions.

The generated module holds a factory nested in a wrapper:

    def outer_factory():
        captured = None            # one per free variable of the user's function
        def inner_factory(ag__):
            def tf__f(x): ...      # reads `captured` as a free variable
            return tf__f
        return inner_factory

Only the code object of `inner_factory` is used: it is instantiated with
`types.FunctionType(code, f.__globals__, ..., closure)` where the closure cells are the user
function's own cells, so the converted function sees the same globals and closure variables as
the original, and `ag__` is bound to the operators module passed to the factory.
"""
import itertools
import linecache
import types

from autograph.pyct import origin_info

OUTER_FACTORY = 'outer_factory'
INNER_FACTORY = 'inner_factory'
_counter = itertools.count()


def compile_factory(source, source_map, name):
    """Compiles a generated module; returns the code object of its inner factory.

    The source is registered with `linecache` (tracebacks and `inspect` show it) and its source
    map with `origin_info`.
    """
    filename = f'<autograph generated {name} #{next(_counter)}>'
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    origin_info.register(filename, source_map)
    module_code = compile(source, filename, 'exec', dont_inherit=True)
    outer = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    return next(c for c in outer.co_consts
                if isinstance(c, types.CodeType) and c.co_name == INNER_FACTORY)


def instantiate(factory_code, fn, ag_module):
    """Builds the converted version of `fn` from a compiled inner factory."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[name] for name in factory_code.co_freevars)
    factory = types.FunctionType(factory_code, fn.__globals__, INNER_FACTORY, None, closure)
    converted = factory(ag_module)
    converted.__defaults__ = fn.__defaults__
    converted.__kwdefaults__ = fn.__kwdefaults__
    return converted
