"""Static analyses of a function: control-flow graph, activity, liveness, reaching definitions.

`analyze(fn_node)` runs them all, leaves their results as annotations on the nodes and returns
the control-flow graph (for `checked_reads`, which needs to know what the converter stages).
"""
import gast

from autograph.analysis import activity, cfg, liveness, reaching_definitions


def analyze(fn_node: gast.AST) -> cfg.Graph:
    statements: dict[int, tuple[set[str], set[str]]] = {}
    activity.analyze(fn_node, statements)
    graph = cfg.build(fn_node, statements)
    liveness.analyze(graph)
    reaching_definitions.analyze(graph, fn_node)
    return graph
