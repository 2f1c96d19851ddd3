"""Reaching definitions, used to find the names that may be unbound at a statement.

Only two kinds of definition matter: "bound" (an assignment, import, def, ...) and "unbound"
(function entry for a local name that is not a parameter, or `del`). A definition is therefore
a pair (name, bound?), which keeps each set as small as the function's names, not its
assignments. A name may be undefined at a point when its unbound definition reaches that
point. Each compound statement gets `Static.MAYBE_UNDEFINED`, the names that may be unbound on
entry to its header, and `Static.MAYBE_DEFINED`, those that a real definition may reach there.
"""
from typing import Any, Iterable

import gast

from autograph.analysis import cfg, dataflow
from autograph.pyct import anno


def analyze(graph: cfg.Graph, fn_node: gast.AST) -> None:
    scope = anno.getanno(fn_node, anno.Static.SCOPE)
    unbound_at_entry = frozenset((name, False) for name in scope.local_names() - scope.params)

    def transfer(node: cfg.Node, reaching: frozenset[Any]) -> Iterable[Any]:
        if not node.writes:
            return reaching
        bound = not isinstance(node.ast_node, gast.Delete)
        return ({d for d in reaching if d[0] not in node.writes}
                | {(name, bound) for name in node.writes})

    reaching_out = dataflow.solve(graph, transfer, forward=True, entry_value=unbound_at_entry)
    for stmt, header in graph.headers.items():
        reaching_in: frozenset[tuple[str, bool]] = frozenset()
        for predecessor in header.prev:
            reaching_in |= reaching_out[predecessor]
        anno.setanno(stmt, anno.Static.MAYBE_UNDEFINED,
                     frozenset(name for name, bound in reaching_in if not bound))
        anno.setanno(stmt, anno.Static.MAYBE_DEFINED,
                     frozenset(name for name, bound in reaching_in if bound))
