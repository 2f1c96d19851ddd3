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

The code is compiled as the user's: its file is the user function's file, each statement has
the line of the user statement it came from (the Origin of the innermost statement around
it), and the
functions have the user's names (`tf__f` runs as `f`, with `f`'s qualified name), so a frame of
converted code is, for tracebacks, `warnings`, debuggers and `inspect`, the frame of the user's
function at the user's line. Columns are left out (a caret under generated text would point
at the wrong part of the user's line). `origin_info.register_code` keeps each code object, so
`is_generated` still tells converted code from the user's own.
"""
import ast
import types
from typing import Any, Sequence

from autograph.pyct import origin_info

OUTER_FACTORY = 'outer_factory'
INNER_FACTORY = 'inner_factory'
_FACTORY_QUALNAME = f'{OUTER_FACTORY}.<locals>.{INNER_FACTORY}.<locals>.'


def compile_factory(function: list[ast.stmt], function_name: str, free_variables: Sequence[str],
                    user: tuple[str, int, str, str]) -> types.CodeType:
    """Compiles the factory module around a converted function; returns the code object of
    its inner factory.

    `function` is the converted function (or lambda assignment) as stdlib `ast` statements at
    the user's lines (`unparser.to_ast(node, line)`), `function_name` what the inner factory
    returns, and `user` the user function's (file, first line, name, qualified name), which
    the compiled code takes; the factories' own statements are at its first line.
    """
    filename, first_line, name, qualname = user
    head = (f'def {OUTER_FACTORY}():\n'
            + ''.join(f'    {variable} = None\n' for variable in free_variables)
            + f'    def {INNER_FACTORY}(ag__):\n        return {function_name}\n'
            + f'    return {INNER_FACTORY}')
    tree: Any = ast.parse(head)
    _at_line(tree, first_line)
    tree.body[0].body[-2].body[:0] = function
    module_code = compile(tree, filename, 'exec', dont_inherit=True)
    outer = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in outer.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == INNER_FACTORY)
    defined = name if name == '<lambda>' else function_name
    return _renamed(inner, defined, name, qualname, name)


def _at_line(tree: Any, line: int) -> None:
    """Puts every node of `tree` at `line`, without columns."""
    node: Any
    for node in ast.walk(tree):
        if 'lineno' in node._attributes:
            node.lineno = node.end_lineno = line
            node.col_offset = node.end_col_offset = -1


def _renamed(code: types.CodeType, generated_name: str, name: str, qualname: str,
             function_name: str) -> types.CodeType:
    """`code` (and the code it defines) with the user's names: the function `generated_name`
    is `name`, and qualified names start at `qualname` instead of the factories'; each code
    object is registered as generated code of the user's function `function_name`."""
    consts = tuple(_renamed(c, generated_name, name, qualname, _function_of(
        c, generated_name, name, function_name)) if isinstance(c, types.CodeType) else c
        for c in code.co_consts)
    changes: dict[str, Any] = {'co_consts': consts}
    if code.co_qualname.startswith(_FACTORY_QUALNAME):
        own = code.co_qualname[len(_FACTORY_QUALNAME):]
        head, _, rest = own.partition('.')
        if head == generated_name:
            changes['co_qualname'] = qualname + ('.' + rest if rest else '')
            if not rest:
                changes['co_name'] = name
    renamed = code.replace(**changes)
    if code.co_name != INNER_FACTORY:
        origin_info.register_code(renamed, function_name)
    return renamed


def _function_of(code: types.CodeType, generated_name: str, name: str, around: str) -> str:
    """The user's function a generated code object runs: its own, or for the block function
    of a statement the function `around` it."""
    if code.co_name == generated_name:
        return name
    return around if origin_info.is_block_name(code) else code.co_name


def register_factory(inner: types.CodeType, name: str) -> bool:
    """Registers the code of an inner factory that `compile_factory` made for the user's
    function `name` in another process (compiler/disk_cache.py), as compiling it does; False
    if `inner` is not an inner factory."""
    if inner.co_name != INNER_FACTORY:
        return False
    _register_consts(inner, name, name)
    return True


def _register_consts(code: types.CodeType, name: str, function_name: str) -> None:
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            # renamed already: the converted function's code is called `name`
            around = _function_of(c, name, name, function_name)
            origin_info.register_code(c, around)
            _register_consts(c, name, around)


def is_generated(function: object) -> bool:
    """Whether `function` was compiled from generated (already converted) code."""
    code = getattr(function, '__code__', None)
    return code is not None and origin_info.is_generated_code(code)


def instantiate(factory_code: types.CodeType, fn: types.FunctionType,
                ag_module: types.ModuleType) -> types.FunctionType:
    """Builds the converted version of `fn` from a compiled inner factory."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = tuple(cells[name] for name in factory_code.co_freevars)
    factory = types.FunctionType(factory_code, fn.__globals__, INNER_FACTORY, None, closure)
    converted = factory(ag_module)
    converted.__defaults__ = fn.__defaults__
    converted.__kwdefaults__ = fn.__kwdefaults__
    return converted
