"""Pruning: keep only the nodes the outputs need, plus every stateful node (non-strict)."""


def prune(program):
    needed = set()
    stack = [node for node, _ in program.outputs]
    stack += [node for node in program.nodes if node.opdef.stateful]
    stack += program.params
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(n for n, _ in node.inputs)
        stack.extend(node.control)
    program.nodes = [node for node in program.nodes if id(node) in needed]
    return program
