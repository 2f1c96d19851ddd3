"""gast -> Python source in one pass, optionally with a map from generated lines to origins.

`ast.unparse` needs stdlib `ast` nodes; `to_ast` converts a gast tree with one table lookup per
node (gast's own converter is a generic visitor and several times slower). `unparse` then
writes the source with `ast`'s own unparser, so the text is exactly `ast.unparse`'s. When asked
for a source map, it notes the lines each statement with an `anno.Basic.ORIGIN` spans while
writing it: a line belongs to the innermost such statement, as its line range would be reported
by `ast.parse` of the generated text.
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


def to_ast(node, origins=None):
    """The stdlib `ast` version of a gast tree (or list of trees). If `origins` is a dict, it
    receives {ast statement: Origin} for the statements that have one."""
    if type(node) is list:
        return [to_ast(n, origins) for n in node]
    if not isinstance(node, gast.AST):
        return node
    node_class = type(node)
    if node_class is gast.Name and type(node.ctx) is gast.Param:
        return ast.arg(node.id, to_ast(node.annotation), node.type_comment)
    ast_class, fields = _entry(node_class)
    if node_class is gast.ExceptHandler:
        new = ast_class(to_ast(node.type), node.name and node.name.id, to_ast(node.body, origins))
    else:
        new = ast_class(*[to_ast(getattr(node, f, None), origins) for f in fields])
    if origins is not None and isinstance(new, ast.stmt):
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        if origin is not None:
            origins[new] = origin
    return new


def unparse(node, indent=0, with_source_map=False):
    """The source of a gast tree, its first line indented by `indent` levels.

    With `with_source_map`, returns (source, {line: Origin}) where lines count from 1 at the
    first line of the returned source.
    """
    if not with_source_map:
        writer = _Unparser()
        writer._indent = indent
        return writer.visit(to_ast(node))
    origins = {}
    tree = to_ast(node, origins)
    writer = _MappingUnparser(origins)
    writer._indent = indent
    source = writer.visit(tree)
    source_map = {}
    for start, end, origin in writer.spans:
        for line in range(start, end + 1):
            source_map[line] = origin
    return source, source_map


class _Unparser(ast._Unparser):

    def get_type_comment(self, node):
        # The generated code has no `# type: ignore` comments; its nodes have no line numbers.
        if node.type_comment is not None:
            return f' # type: {node.type_comment}'
        return None


class _MappingUnparser(_Unparser):
    """Also records (first line, last line, origin) of the statements in `origins`, outer
    statements before the statements inside them."""

    def __init__(self, origins=None, **options):
        super().__init__(**options)    # ast makes inner unparsers of f-strings with options
        self.origins = origins or {}
        self.spans = []
        # index in `spans` of a statement whose first line is not yet written
        self._pending = None
        self._counted = 0         # how many parts of `_source` are counted in `_line`
        self._line = 1

    def _current_line(self):
        source = self._source
        for part in source[self._counted:]:
            self._line += part.count('\n')
        self._counted = len(source)
        return self._line

    def _begin(self, node):
        origin = self.origins.get(node)
        if origin is None:
            return None
        self.spans.append([0, 0, origin])
        self._pending = len(self.spans) - 1
        return self._pending

    def _end(self, span):
        if span is not None:
            self.spans[span][1] = self._current_line()

    def traverse(self, node):
        if isinstance(node, ast.stmt):
            span = self._begin(node)
            super().traverse(node)
            self._end(span)
        else:
            super().traverse(node)

    def fill(self, text=''):
        super().fill(text)
        # A statement starts at its first line that is not a decorator.
        if self._pending is not None and text != '@':
            self.spans[self._pending][0] = self._current_line()
            self._pending = None

    def _write_docstring_and_traverse_body(self, node):
        docstring = self.get_raw_docstring(node)
        if not docstring:
            self.traverse(node.body)
            return
        span = self._begin(node.body[0])
        self._write_docstring(docstring)
        self._end(span)
        self.traverse(node.body[1:])

    def visit_If(self, node):
        # As ast's, but an `elif` is also a statement (an If in the orelse of the one before).
        self.fill('if ')
        self.traverse(node.test)
        with self.block():
            self.traverse(node.body)
        elifs = []
        while node.orelse and len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            elifs.append(self._begin(node))
            self.fill('elif ')
            self.traverse(node.test)
            with self.block():
                self.traverse(node.body)
        if node.orelse:
            self.fill('else')
            with self.block():
                self.traverse(node.orelse)
        for span in elifs:
            self._end(span)
