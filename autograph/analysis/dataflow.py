"""A worklist solver for set-valued dataflow problems on a cfg.Graph."""
import collections
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:   # the graph, for its type only (cfg imports nothing of this module)
    from autograph.analysis import cfg


# the value at a node: a set of names (or of (name, bound) definitions)
Names = frozenset[Any]


def solve(graph: 'cfg.Graph', transfer: Callable[[Any, Names], Iterable[Any]], forward: bool,
          initial: Names = frozenset(), entry_value: Names = frozenset()
          ) -> dict[Any, Names]:
    """Returns {node: value after the node in the direction of the analysis}.

    For a forward problem, a node's input is the union of its predecessors' values (the entry
    node starts from `entry_value`); for a backward one, the union of its successors'.
    `transfer(node, input)` gives the node's value.
    """
    values = dict.fromkeys(graph.nodes, initial)
    entry = graph.entry if forward else None
    order = graph.nodes if forward else graph.nodes[::-1]
    worklist = collections.deque(order)
    pending = set(order)
    empty: Names = frozenset()
    while worklist:
        node = worklist.popleft()
        pending.discard(node)
        inputs, outputs = (node.prev, node.next) if forward else (node.next, node.prev)
        if len(inputs) == 1 and node is not entry:
            incoming = values[inputs[0]]     # the union of one set is that set
        else:
            incoming = entry_value if node is entry else empty
            for other in inputs:
                incoming = incoming | values[other]
        value = frozenset(transfer(node, incoming))
        if value != values[node]:
            values[node] = value
            for other in outputs:
                if other not in pending:
                    pending.add(other)
                    worklist.append(other)
    return values
