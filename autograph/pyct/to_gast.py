"""stdlib `ast` -> gast in one pass: the tree `gast.ast_to_gast` gives, several times faster.

gast's own converter is an `ast.NodeTransformer` that looks each node's visitor up by name and
builds every node from a dict of keyword arguments. This one reads a table (one lookup per node
class) and converts only the values that are nodes. The trees are the same: the same classes,
field values and locations, and each node's attributes in the same order (walks such as
`pyct.walk.nodes` read a node's `__dict__` in its order). As gast does on Python 3.11:

- `arg` becomes `Name(arg, Param(), annotation, type_comment)`, `Name` gains `annotation` and
  `type_comment` (None), an except handler's name becomes `Name(name, Store())` (without a
  location);
- `FunctionDef`, `AsyncFunctionDef` and `ClassDef` gain `type_params` (an empty list);
- every other node keeps the fields of its `ast` class, in their order, then its location.

A class the table does not know (none of Python 3.11's) is left to gast's converter.
"""
import ast
from typing import Any

import gast

_LOCATION = ('lineno', 'col_offset', 'end_lineno', 'end_col_offset')
_PLAIN, _NAME, _ARG, _HANDLER, _DEFINITION = range(5)
# ast class -> (gast class, its ast fields, kind, its ast location attributes)
_TABLE: dict[type, tuple[Any, tuple[str, ...], int, tuple[str, ...]]] = {}


def _add_entry(ast_class: Any, gast_class: Any) -> None:
    if ast_class is ast.Name:
        kind = _NAME
    elif ast_class is ast.arg:
        kind = _ARG
    elif ast_class is ast.ExceptHandler:
        kind = _HANDLER
    elif ast_class in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        kind = _DEFINITION
    else:
        kind = _PLAIN
    _TABLE[ast_class] = (gast_class, ast_class._fields, kind, ast_class._attributes)


for _class in vars(ast).values():
    if isinstance(_class, type) and issubclass(_class, ast.AST) and _class is not ast.arg:
        _gast_class = getattr(gast, _class.__name__, None)
        if _gast_class is not None and _gast_class is not _class \
                and set(_class._fields) <= set(_gast_class._fields):
            _add_entry(_class, _gast_class)
_add_entry(ast.arg, gast.Name)
_MISSING: Any = object()


def to_gast(node: Any) -> Any:
    """The gast version of an `ast` tree (or list of trees)."""
    if type(node) is list:
        return [to_gast(n) for n in node]
    if type(node) in _TABLE:
        return _convert(node)
    return gast.ast_to_gast(node) if isinstance(node, ast.AST) else node


def _value(value: Any) -> Any:
    """A field's value converted: nodes and lists of them; anything else as it is."""
    value_class = type(value)
    if value_class in _TABLE:
        return _convert(value)
    if value_class is list:
        return [_convert(v) if type(v) in _TABLE else _value(v) for v in value]
    if isinstance(value, ast.AST):
        return gast.ast_to_gast(value)
    return value


def _convert(node: Any) -> Any:
    gast_class, fields, kind, location = _TABLE[type(node)]
    new = gast_class.__new__(gast_class)
    target = new.__dict__
    if kind is _PLAIN or kind is _HANDLER and not node.name:
        source = node.__dict__
        table = _TABLE
        for field in fields:
            value = source[field] if field in source else getattr(node, field, _MISSING)
            value_class = type(value)
            if value_class in table:
                value = _convert(value)
            elif value_class is list:
                value = [_convert(v) if type(v) in table else _value(v) for v in value]
            elif value is _MISSING:
                continue
            elif isinstance(value, ast.AST):
                value = gast.ast_to_gast(value)
            target[field] = value
        for attribute in location:
            if attribute in source:
                target[attribute] = source[attribute]
            else:
                try:
                    target[attribute] = getattr(node, attribute)
                except AttributeError:
                    pass
        return new
    if kind is _NAME:
        target.update(id=node.id, ctx=_value(node.ctx), annotation=None, type_comment=None)
    elif kind is _ARG:
        target.update(id=node.arg, ctx=gast.Param(), annotation=_value(node.annotation),
                      type_comment=_value(node.type_comment))
    elif kind is _HANDLER:
        name = gast.Name(node.name, gast.Store(), None, None)
        target.update(type=_value(node.type), name=name, body=_value(node.body))
    else:   # gast's own copy_location: every location attribute the node has
        for field in fields:
            target[field] = _value(getattr(node, field))
        target['type_params'] = []
        for attribute in _LOCATION:
            if hasattr(node, attribute):
                target[attribute] = getattr(node, attribute)
        return new
    for attribute in _LOCATION:   # ast.copy_location: set ones (an end position even if None)
        value = getattr(node, attribute, None)
        if value is not None or attribute.startswith('end_') and hasattr(node, attribute):
            target[attribute] = value
    return new
