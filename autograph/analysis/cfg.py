"""Control-flow graph of one function, at statement granularity.

Simple statements are nodes; a compound statement contributes a node for its header (the test
of an `if`/`while`, the iteration of a `for`, the items of a `with`) and its blocks' nodes.
Nested functions and classes are single nodes. A loop's header also reads the names of its
extra tests (the `break`/`return` flags added by the converters). `break`, `continue`, `return`
and `raise` jump where Python would take them; an exception inside a `try` body may reach
every handler.
"""
from dataclasses import dataclass, field
from typing import Iterable

import gast

from autograph.analysis import activity
from autograph.pyct import anno


class Node:
    """One statement or header. `reads`/`writes` are the simple names it uses and binds."""

    __slots__ = ('ast_node', 'header', 'reads', 'writes', 'next', 'prev')

    def __init__(self, ast_node: gast.AST | None, header: list[gast.AST],
                 reads_and_writes: tuple[set[str], set[str]] | None = None) -> None:
        self.ast_node = ast_node
        self.header = header     # the expressions (or simple statement) the node stands for
        self.reads, self.writes = reads_and_writes or activity.reads_and_writes(header)
        self.next: list[Node] = []
        self.prev: list[Node] = []

    def __repr__(self) -> str:
        return f'Node({type(self.ast_node).__name__} line {getattr(self.ast_node, "lineno", "?")})'


_RELEASED: list[Node] = []   # the neighbours of a released node (never added to)


@dataclass(eq=False)
class Graph:
    """`entry` and `exit` are empty nodes; `nodes` lists every node; `headers` maps a compound
    statement to its header node and `joins` to the empty node control reaches after it."""
    nodes: list[Node] = field(default_factory=list)
    headers: dict[gast.AST, Node] = field(default_factory=dict)
    joins: dict[gast.AST, Node] = field(default_factory=dict)
    entry: Node | None = None
    exit: Node | None = None

    def release(self) -> None:
        """Unlinks the nodes (each holds its neighbours: a cycle per edge), so that the graph
        is freed when its last user drops it rather than by the cycle collector, whose full
        collections scan the whole heap (a conversion's graphs were most of its garbage)."""
        for node in self.nodes:
            node.next = node.prev = _RELEASED
        self.nodes, self.headers, self.joins = [], {}, {}
        self.entry = self.exit = None


class _Builder:

    def __init__(self, statements: dict[int, tuple[set[str], set[str]]]) -> None:
        self.statements = statements   # id(simple statement) -> its reads and writes, known
        self.graph = Graph()
        self.loops: list[tuple[Node, list[Node]]] = []   # (header node, [break sources])
        self.handlers: list[list[Node]] = []   # stack of lists of nodes that an exception may reach

    def _exit(self) -> Node:
        exit_node = self.graph.exit
        assert exit_node is not None   # made before any statement
        return exit_node

    def new_node(self, ast_node: gast.AST | None, header: list[gast.AST]) -> Node:
        known = self.statements.get(id(header[0])) if len(header) == 1 else None
        node = Node(ast_node, header, known)
        self.graph.nodes.append(node)
        return node

    @staticmethod
    def connect(sources: Iterable[Node], target: Node) -> None:
        for source in sources:
            source.next.append(target)
            target.prev.append(source)

    def block(self, statements: list[gast.AST], frontier: list[Node]) -> list[Node]:
        """Adds `statements` after the nodes in `frontier`; returns the new frontier."""
        for statement in statements:
            frontier = self.statement(statement, frontier)
        return frontier

    def statement(self, stmt: gast.AST, frontier: list[Node]) -> list[Node]:
        method = getattr(self, 'statement_' + type(stmt).__name__, None)
        if method is None:
            return [self._jump(stmt, [stmt], frontier)]
        ends = method(stmt, frontier)
        if stmt not in self.graph.headers:
            return ends
        join = self.new_node(None, [])
        self.graph.joins[stmt] = join
        self.connect(ends, join)
        return [join]

    def _header(self, stmt: gast.AST, header: list[gast.AST], frontier: list[Node]) -> Node:
        node = self.new_node(stmt, header)
        self.graph.headers[stmt] = node
        self.connect(frontier, node)
        return node

    def statement_If(self, stmt: gast.If, frontier: list[Node]) -> list[Node]:
        head = self._header(stmt, [stmt.test], frontier)
        return self.block(stmt.body, [head]) + self.block(stmt.orelse, [head])

    def _loop(self, stmt: gast.AST, head: Node, frontier: list[Node]) -> list[Node]:
        self.loops.append((head, []))
        body_end = self.block(stmt.body, [head])
        self.connect(body_end, head)
        _, breaks = self.loops.pop()
        return self.block(stmt.orelse, [head]) + breaks

    def statement_While(self, stmt: gast.While, frontier: list[Node]) -> list[Node]:
        header = [stmt.test] + anno.getanno(stmt, anno.Basic.EXTRA_LOOP_TEST, [])
        return self._loop(stmt, self._header(stmt, header, frontier), frontier)

    def statement_For(self, stmt: gast.For, frontier: list[Node]) -> list[Node]:
        header = [stmt.iter, stmt.target] + anno.getanno(stmt, anno.Basic.EXTRA_LOOP_TEST, [])
        return self._loop(stmt, self._header(stmt, header, frontier), frontier)

    def statement_Break(self, stmt: gast.Break, frontier: list[Node]) -> list[Node]:
        self.loops[-1][1].append(self._jump(stmt, [], frontier))
        return []

    def statement_Continue(self, stmt: gast.Continue, frontier: list[Node]) -> list[Node]:
        node = self._jump(stmt, [], frontier)
        self.connect([node], self.loops[-1][0])
        return []

    def statement_Return(self, stmt: gast.Return, frontier: list[Node]) -> list[Node]:
        self.connect([self._jump(stmt, [stmt], frontier)], self._exit())
        return []

    def statement_Raise(self, stmt: gast.Raise, frontier: list[Node]) -> list[Node]:
        node = self._jump(stmt, [stmt], frontier)
        self.connect([node], self._exit())
        if self.handlers:
            self.handlers[-1].append(node)
        return []

    def _jump(self, stmt: gast.AST, header: list[gast.AST], frontier: list[Node]) -> Node:
        """A node for `stmt` after `frontier`; the caller decides where control goes next."""
        node = self.new_node(stmt, header)
        self.connect(frontier, node)
        return node

    def statement_With(self, stmt: gast.With, frontier: list[Node]) -> list[Node]:
        head = self._header(stmt, stmt.items, frontier)
        return self.block(stmt.body, [head])

    statement_AsyncWith = statement_With

    def statement_Try(self, stmt: gast.Try, frontier: list[Node]) -> list[Node]:
        head = self._header(stmt, [], frontier)
        first_body_node = len(self.graph.nodes)
        self.handlers.append([head])
        body_end = self.block(stmt.body, [head])
        raising = self.handlers.pop() + self.graph.nodes[first_body_node:]
        ends = self.block(stmt.orelse, body_end)
        for handler in stmt.handlers:
            handler_head = self._header(handler, [handler.type] if handler.type else [], raising)
            if handler.name:  # in gast, a Name node
                handler_head.writes.add(handler.name.id)
            ends += self.block(handler.body, [handler_head])
        return self.block(stmt.finalbody, ends) if stmt.finalbody else ends

    statement_TryStar = statement_Try


def build(fn_node: gast.AST, statements: dict[int, tuple[set[str], set[str]]] | None = None
          ) -> Graph:
    """The Graph of a FunctionDef's body (or a Lambda's expression). `statements`: the reads
    and writes of simple statements that `activity.analyze` found, by id (the others are
    found here)."""
    builder = _Builder(statements if statements is not None else {})
    graph = builder.graph
    graph.entry = builder.new_node(fn_node, [])
    graph.exit = builder.new_node(None, [])
    body = fn_node.body if isinstance(fn_node.body, list) else [gast.Expr(value=fn_node.body)]
    builder.connect(builder.block(body, [graph.entry]), graph.exit)
    return graph
