"""Pruning: keep only the nodes the outputs need, plus every stateful node (non-strict)."""


def reachable(program, roots, with_stateful=True):
    """The set of nodes that the nodes `roots` (and the stateful nodes of `program`) depend on."""
    seen = set()
    stack = list(roots)
    if with_stateful:
        stack += [node for node in program.nodes if node.opdef.stateful]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(value.node for value in node.inputs)
        stack.extend(node.control)
    return seen


def prune(program):
    needed = reachable(program, [value.node for value in program.outputs] + program.params)
    program.retain(needed.__contains__)
    return program
