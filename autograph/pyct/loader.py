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
import weakref

from autograph.pyct import origin_info

OUTER_FACTORY = 'outer_factory'
INNER_FACTORY = 'inner_factory'
_counter = itertools.count()
GENERATED_PREFIX = '<autograph generated '  # the file name of generated code


def compile_factory(function_text, source_map, function_name, free_variables, name,
                    blank_line):
    """Compiles the factory module around a converted function; returns the code object of
    its inner factory.

    `function_text` is the function's source indented two levels and `source_map` maps its
    lines (from 1) to origins; `function_name` is what the inner factory returns. The module
    text is what `ast.unparse` writes for the factory (a blank line before a nested `def` when
    `blank_line`). It is registered with `linecache` (tracebacks and `inspect` show it) and its
    source map, shifted to the module's lines, with `origin_info`.
    """
    head = (f'def {OUTER_FACTORY}():\n'
            + ''.join(f'    {variable} = None\n' for variable in free_variables)
            + f'\n    def {INNER_FACTORY}(ag__):\n' + ('\n' if blank_line else ''))
    source = f'{head}{function_text}\n        return {function_name}\n    return {INNER_FACTORY}'
    offset = head.count('\n')
    filename = f'{GENERATED_PREFIX}{name} #{next(_counter)}>'
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    origin_info.register(filename, {line + offset: origin for line, origin in source_map.items()})
    module_code = compile(source, filename, 'exec', dont_inherit=True)
    outer = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in outer.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == INNER_FACTORY)
    weakref.finalize(inner, _forget, filename)  # the source leaves with the last function
    return inner


def is_generated(function):
    """Whether `function` was compiled from generated (already converted) code."""
    code = getattr(function, '__code__', None)
    return code is not None and code.co_filename.startswith(GENERATED_PREFIX)


def _forget(filename):
    linecache.cache.pop(filename, None)
    origin_info.unregister(filename)


def instantiate(factory_code, fn, ag_module):
    """Builds the converted version of `fn` from a compiled inner factory."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[name] for name in factory_code.co_freevars)
    factory = types.FunctionType(factory_code, fn.__globals__, INNER_FACTORY, None, closure)
    converted = factory(ag_module)
    converted.__defaults__ = fn.__defaults__
    converted.__kwdefaults__ = fn.__kwdefaults__
    return converted
