"""Folding an If whose predicate is a constant: the chosen branch's nodes replace it."""


def fold_if(program):
    nodes = []
    for node in program.nodes:
        pred = node.inputs[0].constant if node.opdef.control_flow == 'if' else None
        if pred is None:
            nodes.append(node)
            continue
        inlined = node.branches[0 if pred else 1]
        for param, arg in zip(inlined.params, node.inputs[1:]):
            inlined.replace_all_uses_with(param.outputs[0], arg)
        for inner in inlined.nodes:
            if inner not in inlined.params:
                inner.name = f'{node.name}/{inner.name}'
                inner.control = inner.control + node.control
                nodes.append(inner)
        for old, new in zip(node.outputs, inlined.outputs):
            program.replace_all_uses_with(old, new)
        node.detach()
    program.nodes = nodes
    return program
