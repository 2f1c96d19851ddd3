"""Code templates: Python source with placeholder names, filled with names and AST nodes.

    templates.replace('''
        def get_state():
            return state_
    ''', get_state='get_state_1', state_=tuple_node)

Placeholders are plain names. A placeholder may stand for a name (str or QN), an expression
node, or a list of statements (when it is a statement on its own line) or of elements (inside a
tuple, list or a `nonlocal`/`global` statement). Every node written by the template text itself
and every name given as a string is marked `anno.Basic.GENERATED`, so the variables converter
can tell the compiler's names from the user's; nodes given as AST nodes keep their marks.
"""
import textwrap
from typing import Any, Callable

import gast

from autograph.pyct import anno, parser, qual_names, walk

_parsed: dict[str, list[gast.AST]] = {}
_ANNOTATIONS = anno.FIELD
_AST = gast.AST
_STATEMENT = gast.stmt
# the text of a qualified name given as a string -> its parsed expression
_expressions: dict[str, gast.AST] = {}
_LEAVES = frozenset({gast.Name, gast.Constant})   # nodes that hold no node but a name's context
# nodes placed in several trees rather than copied: contexts and operators (no fields, no
# line, no annotations; no pass changes one in place, and `ast`'s own parser shares them)
_SHARED = walk.CONTEXTS_AND_OPERATORS


def replace(template: str, **subs: Any) -> list[gast.AST]:
    """Returns the statements of `template` with the placeholders in `subs` filled in."""
    statements = _parsed.get(template)
    if statements is None:
        statements = parser.parse(textwrap.dedent(template)).body
        for node in gast.walk(gast.Module(body=statements, type_ignores=[])):
            anno.setanno(node, anno.Basic.GENERATED, True)
        _parsed[template] = statements
    return _Filler(subs).block(statements)


def replace_as_expression(template: str, **subs: Any) -> gast.AST:
    """Like `replace` for a template that is a single expression; returns that expression.
    A template of anything else (a statement, two expressions) is a ValueError naming it."""
    statements = replace(template, **subs)
    if len(statements) != 1 or not isinstance(statements[0], gast.Expr):
        raise ValueError(f'replace_as_expression needs a template of one expression, got '
                         f'{len(statements)} statement(s): {textwrap.dedent(template).strip()!r}')
    return statements[0].value


def copy_tree(node: Any, edit: Callable[[dict[Any, Any]], None] | None = None) -> Any:
    """Copies a gast subtree, sharing the annotation values (they describe the same code).

    `edit(annotations)`, if given, is called with the annotation dict of every new node (an
    empty one for a node that had none, kept if `edit` fills it): a copy and a change of its
    marks in one walk."""
    if type(node) is list:
        return [copy_tree(n, edit) for n in node]
    if not isinstance(node, gast.AST) or edit is None and type(node) in _SHARED:
        return node
    new, source, target = _shell(node)
    if edit is not None:
        annotations = target.get(_ANNOTATIONS)
        if annotations is None:
            annotations = {}
            edit(annotations)
            if annotations:
                target[_ANNOTATIONS] = annotations
        else:
            edit(annotations)
    for field in type(node)._fields:
        value = source.get(field)
        if type(value) is list:
            target[field] = [copy_tree(v, edit) for v in value]
        elif isinstance(value, _AST):
            target[field] = copy_tree(value, edit)
    return new


def _shell(node: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A node of the class of `node` with its location, its fields as they are (the caller
    replaces those that hold nodes) and a copy of its annotations; also returns both nodes'
    attribute dicts."""
    node_class: Any = type(node)
    new = node_class.__new__(node_class)     # gast's __init__ sets nothing without arguments
    source, target = node.__dict__, new.__dict__
    target.update(source)
    annotations = source.get(_ANNOTATIONS)
    if annotations:
        target[_ANNOTATIONS] = annotations.copy()
    elif annotations is not None:
        del target[_ANNOTATIONS]
    return new, source, target




def set_context(node: gast.AST, ctx_type: type) -> None:
    """Sets the load/store context of an assignment target, recursing through tuples."""
    if isinstance(node, (gast.Tuple, gast.List)):
        for element in node.elts:
            set_context(element, ctx_type)
    elif isinstance(node, gast.Starred):
        set_context(node.value, ctx_type)
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Tuple, gast.List,
                         gast.Starred)):
        node.ctx = _context(ctx_type)


def _context(ctx_type: type) -> gast.AST:
    """The one instance of a context class that generated code shares (`_SHARED`)."""
    instance = _CONTEXTS.get(ctx_type)
    if instance is None:
        instance = _CONTEXTS[ctx_type] = ctx_type()
    return instance


_CONTEXTS: dict[type, gast.AST] = {}
_NAME = gast.Name


def _as_node(value: Any, ctx: gast.AST | None) -> gast.AST:
    if isinstance(value, (str, qual_names.QN)):
        text = str(value)
        if text.isidentifier():    # a Name made without gast's keyword-checking constructor
            node = _NAME.__new__(_NAME)
            node.__dict__.update(id=text, ctx=None if ctx is None else _context(type(ctx)),
                                 annotation=None, type_comment=None)
            setattr(node, anno.FIELD, {anno.Basic.GENERATED: True})
            return node
        else:
            node = _expressions.get(text)
            if node is None:
                node = _expressions[text] = parser.parse_expression(text)
                for child in walk.nodes(node):
                    anno.setanno(child, anno.Basic.GENERATED, True)
            node = copy_tree(node)
    elif isinstance(value, gast.AST):
        node = value
    else:
        raise TypeError(f'cannot substitute {value!r} into a template')
    if ctx is not None:
        set_context(node, type(ctx))
    return node


class _Filler:
    """Builds a copy of a template's nodes with the placeholders filled in (the template's own
    nodes stay as they are, for the next use). Contexts and operators are not copied
    (`_SHARED`; `set_context` gives a node a new context rather than changing its own)."""

    def __init__(self, subs: dict[str, Any]) -> None:
        self.subs = subs
        self.used: set[int] = set()

    def _fresh(self, node: gast.AST) -> gast.AST:
        """A node may be placed once as is; further placements get a copy."""
        if id(node) in self.used:
            return copy_tree(node)
        self.used.add(id(node))
        return node

    def block(self, statements: list[gast.AST]) -> list[gast.AST]:
        result: list[gast.AST] = []
        for statement in statements:
            if (isinstance(statement, gast.Expr) and isinstance(statement.value, gast.Name)
                    and isinstance(self.subs.get(statement.value.id), list)):
                result.extend(self._fresh(s) for s in self.subs[statement.value.id])
            else:
                result.append(self.fill(statement))
        return result

    def fill(self, node: gast.AST) -> gast.AST:
        """The copy of the template node `node`, or what replaces it."""
        subs = self.subs
        node_class = type(node)
        if node_class in _LEAVES:
            if node_class is gast.Name:
                if node.id in subs:
                    value = subs[node.id]
                    if isinstance(value, gast.AST):
                        value = self._fresh(value)
                    return _as_node(value, node.ctx)
                if node.annotation is None:
                    return _shell(node)[0]     # its context shared
            else:
                return _shell(node)[0]
        new, source, target = _shell(node)
        for field in node_class._fields:
            value = source.get(field)
            if type(value) is list:
                if not value:
                    target[field] = []
                elif isinstance(value[0], _STATEMENT):
                    target[field] = self.block(value)
                else:
                    target[field] = self._elements(value)
            elif isinstance(value, _AST) and type(value) not in _SHARED:
                target[field] = self.fill(value)
        if node_class is gast.FunctionDef:
            new.name = str(subs.get(node.name, node.name))
        elif node_class is gast.Nonlocal or node_class is gast.Global:
            new.names = self._declared_names(node.names)
        return new

    def _elements(self, values: list[Any]) -> list[Any]:
        result: list[Any] = []
        for value in values:
            if type(value) is _NAME and isinstance(self.subs.get(value.id), (list, tuple)):
                result.extend(_as_node(self._fresh(v) if isinstance(v, gast.AST) else v, value.ctx)
                              for v in self.subs[value.id])
            elif isinstance(value, gast.AST) and type(value) not in _SHARED:
                result.append(self.fill(value))
            else:
                result.append(value)
        return result

    def _declared_names(self, declared: list[str]) -> list[str]:
        names: list[str] = []
        for name in declared:
            value = self.subs.get(name, name)
            if isinstance(value, (list, tuple)):
                names.extend(str(v) for v in value)
            else:
                names.append(str(value))
        return names
