"""Static analyses of a function: control-flow graph, activity, liveness, reaching definitions.

`analyze(fn_node)` runs them all and leaves their results as annotations on the nodes.
"""
from autograph.analysis import activity, cfg, liveness, reaching_definitions


def analyze(fn_node):
    activity.analyze(fn_node)
    graph = cfg.build(fn_node)
    liveness.analyze(graph)
    reaching_definitions.analyze(graph, fn_node)
