"""gast -> stdlib `ast` in one pass (to unparse, or to compile at the user's lines).

`ast.unparse` and `compile` need stdlib `ast` nodes; `to_ast` converts a gast tree with one
table lookup per node (gast's own converter is a generic visitor and several times slower).
`unparse` writes the source with `ast`'s own unparser, so the text is exactly `ast.unparse`'s.
`to_ast(node, line)` also places each node at the user's line of the innermost statement around
it that has an `anno.Basic.ORIGIN`, ready for `compile` (the loader compiles converted code so,
without writing and parsing its text again).
"""
import ast

import gast

from autograph.pyct import anno

_TABLE = {}


def _entry(gast_class):
    """(ast class, its fields) for a gast class."""
    entry = _TABLE.get(gast_class)
    if entry is None:
        ast_class = getattr(ast, gast_class.__name__)
        entry = _TABLE[gast_class] = (ast_class, ast_class._fields)
    return entry


def to_ast(node, line=None):
    """The stdlib `ast` version of a gast tree (or list of trees).

    With a `line`, each node is at the line of the innermost statement around it that has an
    Origin (`line` outside them all), without columns (a caret under generated code would point
    at the wrong part of the user's line)."""
    if type(node) is list:
        return [to_ast(n, line) for n in node]
    node_class = type(node)
    entry = _TABLE.get(node_class)
    if entry is None:
        if not isinstance(node, gast.AST):
            return node
        entry = _entry(node_class)
    if line is not None and isinstance(node, gast.stmt):
        annotations = getattr(node, anno.FIELD, None)
        origin = annotations.get(anno.Basic.ORIGIN) if annotations else None
        if origin is not None:
            line = origin.lineno
    if node_class is gast.Name and type(node.ctx) is gast.Param:
        new = ast.arg(node.id, to_ast(node.annotation, line), node.type_comment)
    elif node_class is gast.ExceptHandler:
        new = ast.ExceptHandler(to_ast(node.type, line), node.name and node.name.id,
                                to_ast(node.body, line))
    else:
        new = entry[0](*[to_ast(getattr(node, f, None), line) for f in entry[1]])
    if line is not None and 'lineno' in new._attributes:
        new.lineno = new.end_lineno = line
        new.col_offset = new.end_col_offset = -1
    return new


def unparse(node, indent=0):
    """The source of a gast tree, its first line indented by `indent` levels."""
    writer = _Unparser()
    writer._indent = indent
    return writer.visit(to_ast(node))


class _Unparser(ast._Unparser):

    def get_type_comment(self, node):
        # The generated code has no `# type: ignore` comments; its nodes have no line numbers.
        if node.type_comment is not None:
            return f' # type: {node.type_comment}'
        return None
