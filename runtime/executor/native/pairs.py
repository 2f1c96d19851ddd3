"""The IR as `(node, output index)` pairs, the shape native/lower.py was written against.

The executor's IR names values with `Value` objects (runtime/executor/ir.py); `pairs_view`
copies a Program into nodes whose `inputs` and program `outputs` are `(node, index)` pairs
and whose `specs` are `[(dtype, shape)]`, so the lowering reads it unchanged. (A direct port of
lower.py to Values would make this module unnecessary.)
"""
from dataclasses import dataclass


@dataclass(slots=True, eq=False)
class PairNode:
    op: object
    opdef: object
    name: str
    inputs: list
    control: list
    attrs: dict
    payload: object
    origin: object
    specs: list
    branches: tuple
    checks: tuple

    @property
    def type(self):
        return self.opdef.name


@dataclass(slots=True, eq=False)
class PairProgram:
    name: str
    nodes: list
    params: list
    outputs: list


def pairs_view(program, nodes=None):
    """A PairProgram copying `program` (its branches too); `nodes` maps the Nodes copied so
    far to their copies."""
    nodes = {} if nodes is None else nodes
    for node in program.nodes:
        nodes[node] = PairNode(node.op, node.opdef, node.name,
                               [(nodes[v.node], v.index) for v in node.inputs],
                               [nodes[c] for c in node.control], dict(node.attrs), node.payload,
                               node.origin, [(v.dtype, v.shape) for v in node.outputs],
                               tuple(pairs_view(branch, nodes) for branch in node.branches),
                               node.checks)
        counted = node.attrs.get('_counted')
        if counted is not None:  # (counter, limit, step, increment node of the body)
            k, limit, step, increment = counted
            nodes[node].attrs['_counted'] = (k, limit, step, nodes[increment])
    return PairProgram(program.name, [nodes[n] for n in program.nodes],
                       [nodes[p] for p in program.params],
                       [(nodes[v.node], v.index) for v in program.outputs])
