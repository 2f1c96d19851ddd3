"""Graphs as pictures: Graphviz DOT text for an `rt.Graph` or a FuncGraph.

Every op is a box showing its name, its op type and the dtype and shape of each output; edges
carry data from an output to an input (dashed: a control dependency). An If/While op is drawn
inside a cluster with one nested cluster per library function it runs (then/else branch,
loop condition and body), drawn the same way, so nested control flow nests; dotted edges show
which outer tensors feed which function arguments. `graph.to_dot()` calls `to_dot`.
"""

from dataclasses import dataclass

from runtime.core import errors

_COLORS = {'input': '#cfe2ff', 'const': '#e9ecef', 'control': '#ffe5b4', 'stateful': '#f8d7da',
           'op': '#ffffff'}


@dataclass(frozen=True, slots=True)
class NodeInfo:
    """What a picture shows of one op (the HTML page lists these)."""
    node_id: str
    name: str
    type: str
    outputs: list
    inputs: list
    attrs: dict
    origin: str
    scope: str


def spec_text(tensor):
    shape = tensor.shape
    dims = '?' if shape.rank is None else ','.join('?' if d is None else str(d) for d in shape)
    return f'{tensor.dtype.name}[{dims}]'


def _branches(op):
    """(label, FunctionRef or None) for each function of a control flow op: the attr's name
    (`then_branch`), or `branch k` for the k-th of a list-valued attr."""
    out = []
    for attr in op.opdef.function_attrs:
        value = op.attrs.get(attr)
        if isinstance(value, (list, tuple)):
            out.extend((f'branch {k}', ref) for k, ref in enumerate(value))
        else:
            out.append((attr, value))
    return out


def kind(op):
    if op.type == 'Placeholder':
        return 'input'
    if op.type == 'Const':
        return 'const'
    if op.opdef.control_flow:
        return 'control'
    if op.stateful:
        return 'stateful'
    return 'op'


def _quote(text):
    return '"' + str(text).replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"'


class _Writer:
    def __init__(self):
        self.lines = []
        self.infos = []
        self.count = 0

    def fresh(self, stem):
        self.count += 1
        return f'{stem}{self.count}'

    def graph(self, graph, depth, scope):
        """Write `graph`'s ops; returns {id(op): node id} for edges into it."""
        pad = '  ' * depth
        ids = {}
        for op in graph.get_operations():
            node_id = ids[id(op)] = self.fresh('n')
            if op.opdef.control_flow:
                self.structured(graph, op, node_id, depth, scope)
            else:
                self.lines.append(f'{pad}{node_id} [label={_quote(_label(op))}, '
                                  f'fillcolor="{_COLORS[kind(op)]}", tooltip={_quote(op.name)}];')
            self.infos.append(_info(op, node_id, scope))
        for op in graph.get_operations():
            for i, t in enumerate(op.inputs):
                source = ids.get(id(t.op))
                if source is not None:
                    self.lines.append(f'{pad}{source} -> {ids[id(op)]} '
                                      f'[label={_quote(spec_text(t))}];')
            for c in op.control_inputs:
                if id(c) in ids:
                    self.lines.append(f'{pad}{ids[id(c)]} -> {ids[id(op)]} [style=dashed];')
        return ids

    def structured(self, graph, op, node_id, depth, scope):
        pad = '  ' * depth
        self.lines.append(f'{pad}subgraph cluster_{node_id} {{')
        self.lines.append(f'{pad}  label={_quote(f"{op.name} ({op.type})")}; style="rounded"; '
                          f'color="#d9822b";')
        self.lines.append(f'{pad}  {node_id} [label={_quote(_label(op))}, '
                          f'fillcolor="{_COLORS["control"]}", shape=hexagon];')
        first_data = 0 if op.opdef.control_flow == 'while' else 1  # after a predicate/index
        for attr, ref in _branches(op):
            function = graph.library.get(ref.name) if ref is not None else None
            if function is None:
                continue
            cluster = self.fresh('f')
            self.lines.append(f'{pad}  subgraph cluster_{cluster} {{')
            self.lines.append(f'{pad}    label={_quote(f"{attr}: {function.name}")}; '
                              f'style="dashed,rounded"; color="#6c757d";')
            inner = self.graph(function, depth + 2, f'{scope}{function.name}/')
            self.lines.append(f'{pad}  }}')
            for t, arg in zip(op.inputs[first_data:], function.inputs):
                if id(arg.op) in inner:
                    self.lines.append(f'{pad}  {node_id} -> {inner[id(arg.op)]} '
                                      f'[style=dotted, arrowhead=none, color="#6c757d"];')
        self.lines.append(f'{pad}}}')


def _label(op):
    outputs = ', '.join(spec_text(t) for t in op.outputs)
    return f'{op.name}\n{op.type}' + (f'\n{outputs}' if outputs else '')


def _info(op, node_id, scope):
    attrs = {}
    for key, value in sorted(op.attrs.items()):
        if key == 'value':
            text = repr(value)
            attrs[key] = text if len(text) <= 200 else text[:200] + ' ...'
        else:
            attrs[key] = str(value.name) if hasattr(value, 'name') and not isinstance(
                value, str) else str(value)
    origin = ''
    if op.origin:
        filename, lineno = errors.user_location(*op.origin)  # generated code -> user's line
        origin = f'{filename}:{lineno}'
    return NodeInfo(node_id, op.name, op.type, [spec_text(t) for t in op.outputs],
                    [t.name for t in op.inputs] + [f'^{c.name}' for c in op.control_inputs],
                    attrs, origin, scope)


def to_dot(graph, name=None):
    """Graphviz DOT text of `graph` (If/While functions as nested clusters)."""
    return picture(graph, name)[0]


def picture(graph, name=None):
    """(DOT text, [NodeInfo] for every op drawn, nested functions included)."""
    writer = _Writer()
    title = name or getattr(graph, 'name', None) or 'graph'
    writer.lines.append(f'digraph {_quote(title)} {{')
    writer.lines.append(f'  label={_quote(title)}; labelloc=t; rankdir=TB; compound=true;')
    writer.lines.append('  node [shape=box, style="rounded,filled", fontname="Helvetica", '
                        'fontsize=10];')
    writer.lines.append('  edge [fontname="Helvetica", fontsize=8, color="#495057"];')
    writer.graph(graph, 1, '')
    writer.lines.append('}')
    return '\n'.join(writer.lines) + '\n', writer.infos
