"""Pruning: keep only the nodes the outputs need, plus every stateful node (non-strict)."""


def reachable(program, roots, with_stateful=True):
    """ids of the nodes that `roots` (and the stateful nodes of `program`) depend on."""
    seen = set()
    stack = list(roots)
    if with_stateful:
        stack += [node for node in program.nodes if node.opdef.stateful]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(n for n, _ in node.inputs)
        stack.extend(node.control)
    return seen


def prune(program):
    needed = reachable(program, [node for node, _ in program.outputs] + program.params)
    program.nodes = [node for node in program.nodes if id(node) in needed]
    return program
