"""The executor's IR: a small, private copy of a graph that optimization passes may rewrite.

A `Program` is a list of `Node`s in program order (a topological order in which stateful nodes
keep the order the user wrote them), its parameter nodes (Placeholders fed by the caller), and
its outputs as `(node, index)` pairs. Lowering copies a graph, so the user's graph is never
changed; `str(program)` prints the optimized form, one node per line.
"""
import numpy as np

from runtime.ops.registry import CONST


class Node:
    """One op. Control flow nodes hold their functions as `branches`: (then, else) for an If,
    (cond, body) for a While, one per index for a Case; their params line up with the node's
    inputs after the predicate (an If's, a Case's index)."""

    __slots__ = ('op', 'opdef', 'name', 'inputs', 'control', 'attrs', 'payload', 'origin',
                 'specs', 'branches')

    def __init__(self, op, opdef, name, inputs, control, attrs, payload, origin, specs):
        self.op = op              # the graph Operation it copies (errors report it)
        self.opdef = opdef
        self.name = name
        self.inputs = inputs      # [(Node, output index)]
        self.control = control    # [Node] that must run first
        self.attrs = attrs
        self.payload = payload
        self.origin = origin      # (file, line) where the user created the op
        self.specs = specs        # [(dtype, shape)] of the outputs
        self.branches = ()

    @property
    def type(self):
        return self.opdef.name

    def make_const(self, value):
        """Turn this node into a Const holding `value` (a numpy value of its output dtype)."""
        self.opdef = CONST
        self.inputs = []
        self.control = []
        self.attrs = {'dtype': self.specs[0][0], 'value': value}
        self.payload = None


class Program:
    def __init__(self, name, nodes, params, outputs):
        self.name = name
        self.nodes = nodes
        self.params = params
        self.outputs = outputs

    def substitute(self, subst):
        """Redirect every use of `(node, i)` keys in `subst` (by id) to their replacements."""
        if not subst:
            return

        def resolve(ref):
            seen = 0
            while (id(ref[0]), ref[1]) in subst and seen < 1000:
                ref = subst[(id(ref[0]), ref[1])]
                seen += 1
            return ref

        for node in self.nodes:
            node.inputs = [resolve(ref) for ref in node.inputs]
        self.outputs = [resolve(ref) for ref in self.outputs]

    def __str__(self):
        return '\n'.join(self._lines(''))

    def _lines(self, pad):
        names = {}
        for i, node in enumerate(self.params):
            names[(id(node), 0)] = node.name
        lines = [f'{pad}program {self.name}'
                 f'({", ".join(_spec(n.name, n.specs[0]) for n in self.params)})']
        for node in self.nodes:
            if node in self.params:
                continue
            outs = [f'{node.name}:{i}' if len(node.specs) > 1 else node.name
                    for i in range(len(node.specs))]
            for i, out in enumerate(outs):
                names[(id(node), i)] = out
            args = ', '.join(names.get((id(n), i), f'{n.name}:{i}') for n, i in node.inputs)
            if node.opdef is CONST:
                args = np.array2string(np.asarray(node.attrs['value'], dtype=object), threshold=6)
            head = ', '.join(_spec(o, s) for o, s in zip(outs, node.specs)) or '_'
            lines.append(f'{pad}  {head} = {node.type}({args})')
            for branch in node.branches:
                lines.extend(branch._lines(pad + '    '))
        lines.append(f'{pad}  return ' + ', '.join(names.get((id(n), i), f'{n.name}:{i}')
                                                   for n, i in self.outputs))
        return lines


def _spec(name, spec):
    dtype, shape = spec
    return f'{name}:{dtype.name}{list(shape) if shape.rank is not None else "[?]"}'


def lower(graph, inputs, outputs):
    """A Program copying `graph`'s ops (and, into If/While nodes, their library functions);
    `inputs` become its parameters."""
    nodes = {}
    order = []
    for op in graph.operations:
        node = Node(op, op.opdef, op.name, [(nodes[id(t.op)], t.value_index) for t in op.inputs],
                    [nodes[id(c)] for c in op.control_inputs], dict(op.attrs), op.payload,
                    op.origin, [(t.dtype, t.shape) for t in op.outputs])
        if op.opdef.control_flow:
            node.branches = tuple(_lower_function(graph.library[ref.name])
                                  for ref in op.opdef.functions(op.attrs))
        nodes[id(op)] = node
        order.append(node)
    params = [nodes[id(t.op)] for t in inputs]
    outs = [(nodes[id(t.op)], t.value_index) for t in outputs]
    return Program(getattr(graph, 'name', 'graph'), order, params, outs)


def _lower_function(func_graph):
    return lower(func_graph, func_graph.inputs, func_graph.outputs)
