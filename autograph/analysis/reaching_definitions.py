"""Reaching definitions, used to find the names that may be unbound at a statement.

A definition is a pair (name, node that binds it). At function entry each local name that is
not a parameter has the pseudo-definition (name, None): "unbound". A name may be undefined at a
point when its unbound pseudo-definition reaches that point. Each compound statement gets
`Static.MAYBE_UNDEFINED`, the names that may be unbound on entry to its header, and
`Static.MAYBE_DEFINED`, those that a real definition may reach there.
"""
import gast

from autograph.analysis import dataflow
from autograph.pyct import anno


def analyze(graph, fn_node):
    scope = anno.getanno(fn_node, anno.Static.SCOPE)
    unbound_at_entry = frozenset((name, None) for name in scope.local_names() - scope.params)

    def transfer(node, reaching):
        if not node.writes:
            return reaching
        definition = None if isinstance(node.ast_node, gast.Delete) else node
        return ({d for d in reaching if d[0] not in node.writes}
                | {(name, definition) for name in node.writes})

    reaching_out = dataflow.solve(graph, transfer, forward=True, entry_value=unbound_at_entry)
    for stmt, header in graph.headers.items():
        reaching_in = frozenset()
        for predecessor in header.prev:
            reaching_in |= reaching_out[predecessor]
        anno.setanno(stmt, anno.Static.MAYBE_UNDEFINED,
                     frozenset(name for name, definition in reaching_in if definition is None))
        anno.setanno(stmt, anno.Static.MAYBE_DEFINED,
                     frozenset(name for name, definition in reaching_in if definition is not None))
