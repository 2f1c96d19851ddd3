"""Private name mangling, as Python does it in a class body.

Inside `class A:`, Python rewrites every identifier `__x` (two leading underscores, not ending
in two) of the class's functions to `_A__x`: names, attributes, parameters, `global` and
`nonlocal` names, imported names, except-handler and pattern captures. Converted code is
compiled outside the class, so the compiler mangles those names itself before converting.
Keyword-argument names and class-pattern attribute names are not mangled (Python leaves them
too), nor are strings. A class nested in the function mangles its own body with its own name,
which Python still does for it, so its body is left alone.
"""
import inspect
from types import CodeType
from typing import Iterator, TypeGuard

import gast

from autograph.pyct import walk


def is_private(name: object) -> TypeGuard[str]:
    return (isinstance(name, str) and name.startswith('__') and not name.endswith('__')
            and '.' not in name)


def mangled(name: str, class_name: str) -> str:
    """`name` as Python spells it in the class `class_name` (`_A__x` for `__x`)."""
    stripped = class_name.lstrip('_')
    if not stripped or not is_private(name):
        return name
    return f'_{stripped}{name}'


_STRING_FIELDS = {
    gast.FunctionDef: ('name',), gast.AsyncFunctionDef: ('name',), gast.ClassDef: ('name',),
    gast.Attribute: ('attr',), gast.Name: ('id',), gast.alias: ('name', 'asname'),
    gast.ImportFrom: ('module',), gast.MatchAs: ('name',), gast.MatchStar: ('name',),
    gast.MatchMapping: ('rest',),
}


def _nodes(node: gast.AST, top: bool = True) -> Iterator[gast.AST]:
    """The nodes whose names Python mangles with the enclosing class: all of them but the
    body of a nested class (its bases, keywords and decorators are evaluated outside it)."""
    yield node
    if isinstance(node, gast.ClassDef) and not top:
        children = node.bases + node.keywords + node.decorator_list
    else:
        children = walk.children(node)
    for child in children:
        yield from _nodes(child, False)


def private_names(node: gast.AST) -> set[str]:
    """The identifiers in `node` that Python would mangle."""
    found: set[str] = set()
    for child in _nodes(node):
        for field in _STRING_FIELDS.get(type(child), ()):
            value = getattr(child, field, None)
            if is_private(value) and child is not node:
                found.add(value)
        if isinstance(child, (gast.Global, gast.Nonlocal)):
            found.update(name for name in child.names if is_private(name))
    return found


def mangle(node: gast.AST, class_name: str | None) -> gast.AST:
    """Mangles, in place, the names of the function `node` defined in class `class_name`
    (its own name stays: the function's `__name__` is not mangled)."""
    if not class_name or not class_name.lstrip('_'):
        return node
    for child in _nodes(node):
        if child is not node:
            for field in _STRING_FIELDS.get(type(child), ()):
                value = getattr(child, field, None)
                if is_private(value):
                    setattr(child, field, mangled(value, class_name))
        if isinstance(child, (gast.Global, gast.Nonlocal)):
            child.names = [mangled(name, class_name) for name in child.names]
    return node


def _code_names(code: CodeType) -> set[str]:
    """The names in a code object and in the functions nested in it (not in class bodies,
    which mangle with their own class)."""
    names = set(code.co_names + code.co_varnames + code.co_cellvars + code.co_freevars)
    for constant in code.co_consts:
        if hasattr(constant, 'co_names') and constant.co_flags & inspect.CO_OPTIMIZED:
            names |= _code_names(constant)
    return names


def _may_be_mangled(name: str) -> bool:
    """Whether `name` has the form of a mangled private name, `_A__x`."""
    return name[:1] == '_' and name[1:2] != '_' and '__' in name[2:] and not name.endswith('__')


def class_of(code: CodeType, node: gast.AST) -> str | None:
    """The name (without leading underscores) of the class whose mangling Python applied to
    the code of `node`, read from the compiled names; None when nothing was mangled."""
    names = _code_names(code)
    if not any(_may_be_mangled(name) for name in names):
        return None     # the answer below, without a walk of `node`
    privates = private_names(node)
    if not privates:
        return None
    for private in sorted(privates):
        if private in names:  # compiled outside any class: no mangling
            return None
        for name in names:
            if name.endswith(private) and len(name) > len(private) + 1 \
                    and _may_be_mangled(name):
                return name[1:-len(private)]
    return None
