"""A worklist solver for set-valued dataflow problems on a cfg.Graph."""
import collections


def solve(graph, transfer, forward, initial=frozenset(), entry_value=frozenset()):
    """Returns {node: value after the node in the direction of the analysis}.

    For a forward problem, a node's input is the union of its predecessors' values (the entry
    node starts from `entry_value`); for a backward one, the union of its successors'.
    `transfer(node, input)` gives the node's value.
    """
    values = {node: initial for node in graph.nodes}
    inputs_of = (lambda n: n.prev) if forward else (lambda n: n.next)
    outputs_of = (lambda n: n.next) if forward else (lambda n: n.prev)
    worklist = collections.deque(graph.nodes if forward else reversed(graph.nodes))
    pending = set(worklist)
    while worklist:
        node = worklist.popleft()
        pending.discard(node)
        incoming = entry_value if forward and node is graph.entry else frozenset()
        for other in inputs_of(node):
            incoming = incoming | values[other]
        value = frozenset(transfer(node, incoming))
        if value != values[node]:
            values[node] = value
            for other in outputs_of(node):
                if other not in pending:
                    pending.add(other)
                    worklist.append(other)
    return values
