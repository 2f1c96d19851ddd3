"""Liveness: which names may still be read before being rebound.

Annotates each compound statement with `Static.LIVE_IN` (live on entry to its header, which for
a loop includes what the next iteration reads) and `Static.LIVE_OUT` (live right after it).
"""
from autograph.analysis import cfg, dataflow
from autograph.pyct import anno


def analyze(graph: cfg.Graph) -> None:
    def transfer(node: cfg.Node, live_out: frozenset[str]) -> set[str]:
        return node.reads | (live_out - node.writes)

    live_in = dataflow.solve(graph, transfer, forward=False)
    for stmt, header in graph.headers.items():
        anno.setanno(stmt, anno.Static.LIVE_IN, live_in[header])
        join = graph.joins.get(stmt)
        anno.setanno(stmt, anno.Static.LIVE_OUT, live_in[join] if join else frozenset())
