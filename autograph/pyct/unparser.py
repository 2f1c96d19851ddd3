"""gast -> stdlib `ast` in one pass (to unparse, or to compile at the user's lines).

`ast.unparse` and `compile` need stdlib `ast` nodes; `to_ast` converts a gast tree with one
table lookup per node (gast's own converter is a generic visitor and several times slower).
`unparse` writes the source with `ast`'s own unparser, so the text is exactly `ast.unparse`'s.
`to_ast(node, line)` also places each node at the user's line of the innermost statement around
it that has an `anno.Basic.ORIGIN`, ready for `compile` (the loader compiles converted code so,
without writing and parsing its text again).
"""
import ast
from typing import Any, Callable, Sequence

import gast

from autograph.pyct import anno

_ANNOTATIONS = anno.FIELD
_ORIGIN = anno.Basic.ORIGIN

# The kinds of gast classes whose conversion is not one ast node of the same fields
_PLAIN, _STATEMENT, _NAME, _HANDLER, _CONTEXT = range(5)
# gast class -> (ast class, its fields, kind, whether it has a line)
_TABLE: dict[type, tuple[Any, tuple[str, ...], int, bool]] = {}


def _add_entry(gast_class: type) -> None:
    ast_class = getattr(ast, gast_class.__name__)
    if issubclass(gast_class, gast.expr_context):
        # one shared instance (CPython's parser shares them too): `compile` only reads it
        kind, ast_class = _CONTEXT, ast_class()
    elif gast_class is gast.Name:
        kind = _NAME
    elif gast_class is gast.ExceptHandler:
        kind = _HANDLER
    else:
        kind = _STATEMENT if issubclass(gast_class, gast.stmt) else _PLAIN
    _TABLE[gast_class] = (ast_class, ast_class._fields, kind, 'lineno' in ast_class._attributes)


for _class in vars(gast).values():
    if isinstance(_class, type) and issubclass(_class, gast.AST) and _class is not gast.AST \
            and hasattr(ast, _class.__name__):
        _add_entry(_class)


def to_ast(node: Any, line: int | None = None) -> Any:
    """The stdlib `ast` version of a gast tree (or list of trees).

    With a `line`, each node is at the line of the innermost statement around it that has an
    Origin (`line` outside them all), without columns (a caret under generated code would point
    at the wrong part of the user's line)."""
    if type(node) is list:
        return [_convert(n, line) if type(n) in _TABLE else n for n in node]
    return _convert(node, line) if type(node) in _TABLE else node


def _convert(node: Any, line: int | None) -> Any:
    """`to_ast` of a node of a class in `_TABLE`: fields that hold no node (names, numbers,
    None) are taken as they are, without a call."""
    ast_class, fields, kind, located = _TABLE[type(node)]
    if kind is _CONTEXT:
        return ast_class
    source = node.__dict__
    if kind is _STATEMENT and line is not None:
        annotations = source.get(_ANNOTATIONS)
        origin = annotations.get(_ORIGIN) if annotations else None
        if origin is not None:
            line = origin.lineno
    table = _TABLE
    new: Any
    if kind is _NAME and type(source['ctx']) is gast.Param:
        annotation = source['annotation']
        new = ast.arg(source['id'], annotation and _convert(annotation, line),
                      source['type_comment'])
    elif kind is _HANDLER:
        name, type_ = source['name'], source['type']
        new = ast.ExceptHandler(type_ and _convert(type_, line), name and name.id,
                                [_convert(s, line) for s in source['body']])
    else:
        values = []
        for field in fields:
            value = source.get(field)
            value_class = type(value)
            if value_class is list:
                value = [_convert(v, line) if type(v) in table else v for v in value]
            elif value_class in table:
                value = _convert(value, line)
            values.append(value)
        new = ast_class(*values)
    if located and line is not None:
        new.lineno = new.end_lineno = line
        new.col_offset = new.end_col_offset = -1
    return new


def unparse(node: Any, indent: int = 0, width: int | None = None) -> str:
    """The source of a gast tree, its first line indented by `indent` levels. With a `width`,
    calls, tuples and `nonlocal`/`global` lists that would make a line longer are wrapped
    (`_Wrapping`); without, the text is exactly `ast.unparse`'s."""
    writer = _Unparser() if width is None else _Wrapping(width)
    writer._indent = indent
    return writer.visit(to_ast(node))


# the standard library's unparser (private, untyped: see docs/design.md)
_StandardUnparser: Any = ast._Unparser  # type: ignore[attr-defined]
_ATOM = ast._Precedence.ATOM  # type: ignore[attr-defined]


class _Unparser(_StandardUnparser):

    _visitors: dict = {}   # ast class -> the method that writes it

    def traverse(self, node: Any) -> None:
        # ast's own looks the method up by name at every node (`NodeVisitor.visit`)
        if isinstance(node, list):
            for item in node:
                self.traverse(item)
        else:
            visitor = self._visitors.get(type(node))
            if visitor is None:
                visitor = self._visitors[type(node)] = getattr(
                    type(self), 'visit_' + type(node).__name__, type(self).generic_visit)
            visitor(self, node)

    # `block` and `delimit` write exactly what ast's own write, without a generator each
    def block(self, *, extra: str | None = None) -> '_Indented':
        self._source.append(':')
        if extra:
            self._source.append(extra)
        self._indent += 1
        return _Indented(self)

    def leave_block(self) -> None:
        self._indent -= 1

    def delimit(self, start: str, end: str) -> '_Closed':
        self._source.append(start)
        return _Closed(self.write, end)

    def get_type_comment(self, node: Any) -> str | None:
        # The generated code has no `# type: ignore` comments; its nodes have no line numbers.
        if node.type_comment is not None:
            return f' # type: {node.type_comment}'
        return None


class _Indented:
    """The body of `_Unparser.block`: one level more indented."""

    __slots__ = ('writer',)

    def __init__(self, writer: _Unparser) -> None:
        self.writer = writer

    def __enter__(self) -> None:
        return None

    def __exit__(self, *error: object) -> None:
        self.writer.leave_block()


class _Closed:
    """The inside of `_Unparser.delimit`: `end` is written after it."""

    __slots__ = ('write', 'end')

    def __init__(self, write: Callable[..., None], end: str) -> None:
        self.write, self.end = write, end

    def __enter__(self) -> None:
        return None

    def __exit__(self, *error: object) -> None:
        self.write(self.end)


class _Wrapping(_Unparser):
    """An unparser that keeps lines within `width` columns where it can: the arguments of a
    call that does not fit continue on the next lines, aligned after its `(`, as many on a
    line as fit; so do the items of a tuple, and a `nonlocal` or `global` statement becomes
    several. Other expressions (a long string, a long chain of operators) stay on one line."""

    _visitors: dict = {}

    def __init__(self, width: int | None = None, **options: Any) -> None:
        # `ast` makes another writer of this class for the parts of an f-string (`options`):
        # without a width it never wraps, as a line break cannot be there
        super().__init__(**options)
        self.width = width if width is not None else 1 << 30   # none: it never wraps

    def visit_Call(self, node: ast.Call) -> None:
        compact = self._compact(node)
        if self._fits(compact):
            self.write(compact)
            return
        self.set_precedence(_ATOM, node.func)
        self.traverse(node.func)
        self._items([*node.args, *node.keywords], '(', ')')

    def visit_Tuple(self, node: ast.Tuple) -> None:
        compact = self._compact(node)
        if self._fits(compact):
            self.write(compact)
        else:
            self._items(node.elts, '(', ',)' if len(node.elts) == 1 else ')')

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self._declaration('nonlocal ', node.names)

    def visit_Global(self, node: ast.Global) -> None:
        self._declaration('global ', node.names)

    def _declaration(self, keyword: str, names: list[str]) -> None:
        """`nonlocal a, b, ...` as several statements when one would not fit."""
        line: list[str] = []
        for name in names:
            if line and len('    ' * self._indent + keyword + ', '.join(line + [name])) > \
                    self.width:
                self.fill(keyword + ', '.join(line))
                line = []
            line.append(name)
        self.fill(keyword + ', '.join(line))

    def _items(self, items: Sequence[ast.AST], opening: str, closing: str) -> None:
        """`items` between `opening` and `closing`, separated by commas, as many on a line as
        fit: aligned after `opening`, or, where that leaves too little room for the longest,
        on lines of their own indented one level more than the line `opening` is on."""
        self.write(opening)
        texts = [self._compact(item) for item in items]
        indent = self._column()
        line_indent = self._line_indent()
        if texts and indent > line_indent + 4 and \
                indent + max(len(text) for text in texts) + len(closing) > self.width:
            indent = line_indent + 4
            self.write('\n' + ' ' * indent)
        for index, (item, text) in enumerate(zip(items, texts)):
            if index:
                self.write(',')
                if self._fits(' ' + text + closing):
                    self.write(' ')
                else:
                    self.write('\n' + ' ' * indent)
            self.traverse(item)
        self.write(closing)

    def _compact(self, node: ast.AST) -> str:
        """The text of `node` on one line, as it would be written here."""
        writer = _Unparser()
        writer._precedences[node] = self.get_precedence(node)
        return writer.visit(node)

    def _fits(self, text: str) -> bool:
        return self._column() + len(text) <= self.width

    def _column(self) -> int:
        """The column where the next text goes."""
        return len(self._current_line())

    def _line_indent(self) -> int:
        line = self._current_line()
        return len(line) - len(line.lstrip(' '))

    def _current_line(self) -> str:
        """The text written since the last line break."""
        pieces = []
        for piece in reversed(self._source):
            newline = piece.rfind('\n')
            if newline >= 0:
                pieces.append(piece[newline + 1:])
                break
            pieces.append(piece)
        return ''.join(reversed(pieces))
