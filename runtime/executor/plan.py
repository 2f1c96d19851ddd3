"""What to run: the ops the fetches need plus every stateful op, in program order."""


def needed_ops(graph, outputs):
    """Ops in creation order (which is topological and program order) that must run."""
    needed = set()
    stack = [t.op for t in outputs]
    stack.extend(op for op in graph._ops if op.opdef.stateful)
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return [op for op in graph._ops if op in needed]
