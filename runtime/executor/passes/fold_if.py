"""Folding an If whose predicate is a constant: the chosen branch's nodes replace it."""
from runtime.ops.registry import CONST


def fold_if(program):
    nodes = []
    subst = {}
    for node in program.nodes:
        node.inputs = [subst.get((id(n), i), (n, i)) for n, i in node.inputs]
        pred, _ = node.inputs[0] if node.inputs else (None, None)
        if node.opdef.control_flow != 'if' or pred.opdef is not CONST:
            nodes.append(node)
            continue
        inlined = node.branches[0 if pred.attrs['value'] else 1]
        arg_subst = {(id(p), 0): ref for p, ref in zip(inlined.params, node.inputs[1:])}
        inlined.substitute(arg_subst)
        params = {id(p) for p in inlined.params}
        for inner in inlined.nodes:
            if id(inner) not in params:
                inner.name = f'{node.name}/{inner.name}'
                inner.control = inner.control + node.control
                nodes.append(inner)
        for i, ref in enumerate(inlined.outputs):
            subst[(id(node), i)] = ref
    program.nodes = nodes
    program.substitute(subst)
    return program
