"""Activity analysis: which names a piece of code reads, modifies and binds.

Results are `Scope` objects annotated on function nodes (`Static.SCOPE`) and on the blocks of
compound statements (`Static.BODY_SCOPE`, `Static.ORELSE_SCOPE`). Names are qualified names, so
`self.x = 1` modifies `self.x` and reads `self`. Nested functions and lambdas are opaque: their
free reads count as reads where they are defined, and their `nonlocal` writes as writes.
"""
from typing import Any, Iterable

import gast

from autograph.pyct import anno, qual_names, transformer


class Scope:
    """The names read and modified by a block; for a function, also its declarations."""

    def __init__(self) -> None:
        self.read: set[qual_names.QN] = set()
        self.modified: set[qual_names.QN] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.params: set[str] = set()

    @property
    def bound(self) -> set[qual_names.QN]:
        """The simple names this block binds."""
        return {qn for qn in self.modified if not qn.is_composite}

    def local_names(self) -> set[str]:
        """For a function scope: the names local to it."""
        return {str(qn) for qn in self.bound} - self.globals - self.nonlocals | self.params

    def __repr__(self) -> str:
        read, modified = sorted(map(str, self.read)), sorted(map(str, self.modified))
        return f'Scope(read={read}, modified={modified})'


class _Collector(gast.NodeVisitor):
    """Records reads and writes of the nodes it visits into every scope on its stack.

    `visit` and `generic_visit` do what `ast.NodeVisitor`'s do, with the visitor of each node
    class looked up once, and without visiting nodes that hold no nodes (nothing to record).
    """

    def __init__(self, scopes: list[Scope],
                 statements: dict[int, tuple[set[str], set[str]]] | None = None) -> None:
        self.scopes = scopes
        # id(simple statement) -> its reads and writes (`reads_and_writes`), when asked for
        self.statements = statements

    def visit(self, node: gast.AST) -> None:
        visitor = _VISITORS.get(type(node), _UNKNOWN)
        if visitor is _UNKNOWN:
            visitor = _find_visitor(type(node))
        if visitor is not None:
            visitor(self, node)

    def generic_visit(self, node: gast.AST) -> None:
        fields = _FIELDS.get(type(node))
        if fields is None:
            fields = transformer.entered_fields(_Collector, type(node), _FIELDS)
        values = node.__dict__
        for field in fields:
            value = values.get(field)
            if type(value) is list:
                for item in value:
                    if isinstance(item, gast.AST):
                        self.visit(item)
            elif isinstance(value, gast.AST):
                self.visit(value)

    def _read(self, qn: qual_names.QN) -> None:
        for scope in self.scopes:
            scope.read.add(qn)

    def _write(self, qn: qual_names.QN) -> None:
        for scope in self.scopes:
            scope.modified.add(qn)

    def _visit_qualified(self, node: gast.AST) -> None:
        qn: Any = qual_names.from_node(node)   # of a Name, never None
        if isinstance(node, gast.Name):
            if isinstance(node.ctx, gast.Load):
                self._read(qn)
            elif isinstance(node.ctx, gast.Param):
                self.scopes[-1].params.add(node.id)
                self._write(qn)
            else:
                self._write(qn)
            return
        if isinstance(node.ctx, gast.Load):
            if qn is not None:
                self._read(qn)
        elif qn is not None:
            self._write(qn)
        self.generic_visit(node)

    visit_Name = visit_Attribute = visit_Subscript = _visit_qualified

    def visit_AugAssign(self, node: gast.AugAssign) -> None:
        target = node.target
        qn = qual_names.from_node(target)
        if qn is not None:
            self._read(qn)
        self.visit(node.value)
        self.visit(target)

    # A declaration holds for the whole function wherever it stands: scopes[0] is the function's.
    def visit_Global(self, node: gast.Global) -> None:
        self.scopes[0].globals.update(node.names)

    def visit_Nonlocal(self, node: gast.Nonlocal) -> None:
        self.scopes[0].nonlocals.update(node.names)

    def visit_Import(self, node: gast.AST) -> None:
        for alias in node.names:
            self._write(qual_names.QN((alias.asname or alias.name).split('.')[0]))

    visit_ImportFrom = visit_Import

    def visit_FunctionDef(self, node: gast.AST) -> None:
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
            self.visit(default)
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._write(qual_names.QN(node.name))
        self._visit_opaque(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: gast.ClassDef) -> None:
        for child in node.bases + node.keywords + node.decorator_list:
            self.visit(child)
        self._write(qual_names.QN(node.name))
        inner = Scope()
        _Collector([inner]).visit_all(node.body)
        for qn in inner.read - inner.modified:
            self._read(qn)

    def visit_Lambda(self, node: gast.Lambda) -> None:
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
            self.visit(default)
        self._visit_opaque(node)

    def _visit_comprehension(self, node: gast.AST) -> None:
        inner = Scope()
        collector = _Collector([inner])
        for generator in node.generators:
            collector.visit(generator)
        for field in ('elt', 'key', 'value'):
            if getattr(node, field, None) is not None:
                collector.visit(getattr(node, field))
        bound = {qn.root for qn in inner.modified}
        for qn in inner.read:
            if qn.root not in bound:
                self._read(qn)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_comprehension

    def _visit_opaque(self, node: gast.AST) -> None:
        """A nested function: analysed on its own; its free names affect the enclosing scopes."""
        inner = analyze(node)
        local = inner.local_names()
        for qn in inner.read:
            if str(qn.root) not in local:
                self._read(qn)
        for name in inner.nonlocals | inner.globals:
            if qual_names.QN(name) in inner.modified:
                self._write(qual_names.QN(name))

    def visit_all(self, nodes: Iterable[gast.AST]) -> None:
        statements = self.statements
        for node in nodes:
            if statements is None or type(node) in _COMPOUND:
                self.visit(node)
                continue
            scope = Scope()      # the statement's own, for its node of the control-flow graph
            self.scopes.append(scope)
            self.visit(node)
            self.scopes.pop()
            statements[id(node)] = _simple_names(scope)

    def visit_If(self, node: gast.If) -> None:
        self.visit(node.test)
        self._visit_block(node, node.body, anno.Static.BODY_SCOPE)
        self._visit_block(node, node.orelse, anno.Static.ORELSE_SCOPE)

    def visit_While(self, node: gast.While) -> None:
        self.visit(node.test)
        self._visit_block(node, node.body, anno.Static.BODY_SCOPE)
        self._visit_block(node, node.orelse, anno.Static.ORELSE_SCOPE)

    def visit_For(self, node: gast.For) -> None:
        self.visit(node.iter)
        body = Scope()
        self.scopes.append(body)
        self.visit(node.target)
        self.visit_all(node.body)
        self.scopes.pop()
        anno.setanno(node, anno.Static.BODY_SCOPE, body)
        self._visit_block(node, node.orelse, anno.Static.ORELSE_SCOPE)

    def _visit_block(self, node: gast.AST, statements: list[gast.AST], key: anno.Static) -> None:
        scope = Scope()
        self.scopes.append(scope)
        self.visit_all(statements)
        self.scopes.pop()
        anno.setanno(node, key, scope)


_VISITORS: dict[type, Any] = {}
# node class -> the fields generic_visit enters (no names, contexts, operators)
_FIELDS: dict[type, tuple[str, ...]] = {}
_UNKNOWN = object()


def _find_visitor(node_class: type) -> Any:
    """The `_Collector` function that visits `node_class`, or None where there is nothing to
    visit; remembered in `_VISITORS`."""
    visitor = _VISITORS[node_class] = transformer.find_visitor(_Collector, node_class,
                                                               _Collector.generic_visit)
    return visitor


# The statements whose blocks the control-flow graph enters (cfg.py's `statement_*`).
_COMPOUND = frozenset({gast.If, gast.While, gast.For, gast.AsyncFor, gast.With, gast.AsyncWith,
                       gast.Try, getattr(gast, 'TryStar', gast.Try), gast.Break, gast.Continue})


def analyze(fn_node: gast.AST,
            statements: dict[int, tuple[set[str], set[str]]] | None = None) -> Scope:
    """Annotates a FunctionDef or Lambda and the blocks inside it; returns the function's Scope.
    A dict `statements` receives `reads_and_writes([s])` for each simple statement `s` of the
    function (for its control-flow graph: one walk of the code for both)."""
    scope = Scope()
    collector = _Collector([scope], statements)
    args = fn_node.args
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
        if arg is not None:
            collector.visit(arg)
    body = fn_node.body if isinstance(fn_node.body, list) else [fn_node.body]
    collector.visit_all(body)
    anno.setanno(fn_node, anno.Static.SCOPE, scope)
    return scope


def reads_and_writes(nodes: list[gast.AST]) -> tuple[set[str], set[str]]:
    """The simple names that `nodes` read and bind, without entering compound statements' blocks.

    Used for the nodes of the control-flow graph, which stand for one statement or one header.
    """
    if not nodes:
        return set(), set()
    scope = Scope()
    _Collector([scope]).visit_all(nodes)
    return _simple_names(scope)


def _simple_names(scope: Scope) -> tuple[set[str], set[str]]:
    return ({str(qn.root) for qn in scope.read},
            {str(qn) for qn in scope.modified if not qn.is_composite})
