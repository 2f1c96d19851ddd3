"""A graph's GraphDef: its nodes, and its library of functions as FunctionDefs, as messages of the
one model (`runtime/graph/serialization/graph_io.py`).

`graph_def(graph)` is what `graph.as_graph_def()` returns: a `Message` whose fields read by their
protobuf names (`node`, `input`, `attr`, `library`, `signature`, `node_def`, `ret` ...) and whose
`str()` is the text format that `google.protobuf.text_format` parses into TensorFlow's message;
`wire.encode('GraphDef', ...)` of the same dict is the binary form. `node_def` builds one NodeDef
from runtime attr values; the SavedModel writer and loaders build their nodes with it too.
"""
from runtime.core import dtypes
from runtime.graph.serialization.graph_io import (
    AttrValue,
    FunctionRef,
    attr_value,
    message,
    tensor_to_proto,
)
from runtime.ops.registry import CONST
from runtime.version import GRAPH_DEF_VERSION

__all__ = ['FunctionRef', 'const_node_def', 'function_def', 'graph_def', 'node_def', 'op_node_def']


def node_def(name, op, inputs=(), attrs=None, dtype_hint=None, device=''):
    """A NodeDef message; `attrs` {name: runtime value or AttrValue}, None values left out
    (`dtype_hint`: the dtype of the `value` attr, a Const's tensor; `device`: the device the
    node asks for, `rt.device`)."""
    fields = {'name': name, 'op': op}
    if inputs:
        fields['input'] = list(inputs)
    if device:
        fields['device'] = device
    attr = {k: attr_value(v, dtype_hint if k == 'value' else None)
            for k, v in (attrs or {}).items() if v is not None}
    if attr:
        fields['attr'] = attr
    return message('NodeDef', fields)


def const_node_def(name, value, dtype):
    """A Const NodeDef with its value in `tensor_content`, as TensorFlow writes the constants a
    function captured."""
    return node_def(name, 'Const', attrs={
        'dtype': dtype, 'value': AttrValue({'tensor': tensor_to_proto(value, dtype)})})


def op_node_def(op, tensor_ref=None, ordered_after=()):
    """The NodeDef of operation `op`; `tensor_ref(t)` names an input tensor; `ordered_after`:
    more ops it runs after (control inputs)."""
    ref = tensor_ref or _graph_ref
    inputs = [ref(t) for t in op.inputs] + [f'^{c.name}' for c in op.control_inputs]
    for c in ordered_after:
        if f'^{c.name}' not in inputs:
            inputs.append(f'^{c.name}')
    return node_def(op.name, op.type, inputs, op.attrs,
                    op.attrs['dtype'] if op.opdef is CONST else None, op.device)


def _graph_ref(t):
    return t.op.name if t.value_index == 0 else f'{t.op.name}:{t.value_index}'


def graph_def(graph):
    """The GraphDef of `graph` and every function in its library."""
    fields = {'node': [op_node_def(op) for op in graph.operations]}
    functions = [function_def(fg) for _, fg in sorted(graph.library.items())]
    if functions:
        fields['library'] = message('FunctionDefLibrary', {'function': functions})
    fields['versions'] = message('VersionDef', {'producer': GRAPH_DEF_VERSION})
    return message('GraphDef', fields)


def automatic_control_dependencies(operations):
    """The control inputs TensorFlow's automatic control dependencies give the ops of a
    function, {id(op): [earlier ops]}: each op that uses a resource (a variable's handle) runs
    after the previous op that used it, and each other stateful op (a print, an assertion, a
    random draw) after the previous such op, so that TensorFlow's executor, which runs
    independent ops in any order, keeps program order. Our executor runs a graph's stateful
    ops in program order already; exported functions carry that order as edges."""
    last_use = {}  # id(resource tensor) -> the last op that used it
    last_stateful = None
    order = {}
    for op in operations:
        resources = [t for t in op.inputs if t.dtype is dtypes.resource]
        after = []
        if resources:
            for t in resources:
                previous = last_use.get(id(t))
                if previous is not None and previous not in after:
                    after.append(previous)
                last_use[id(t)] = op
        elif op.opdef.stateful:
            if last_stateful is not None:
                after.append(last_stateful)
            last_stateful = op
        if after:
            order[id(op)] = after
    return order


def function_def(fg):
    """A FunctionDef: inputs are args, inner inputs are `node:out_arg:index`."""
    arg_of = {id(t): t.op.name for t in fg.inputs}

    def ref(t):
        arg = arg_of.get(id(t))
        if arg is not None:
            return arg
        return f'{t.op.name}:{t.op.opdef.output_arg(t.value_index)}'

    order = automatic_control_dependencies(fg.operations)
    nodes = [op_node_def(op, ref, order.get(id(op), ())) for op in fg.operations
             if id(op.outputs[0] if op.outputs else op) not in arg_of]
    out_names = []
    used = set()
    for t in fg.outputs:
        base = t.op.name.replace('/', '_').lower()
        name, n = base, 1
        while name in used:
            name, n = f'{base}_{n}', n + 1
        used.add(name)
        out_names.append(name)
    signature = {'name': fg.name}
    if fg.inputs:
        signature['input_arg'] = [{'name': arg_of[id(t)], 'type': t.dtype.enum}
                                  for t in fg.inputs]
    if fg.outputs:
        signature['output_arg'] = [{'name': n, 'type': t.dtype.enum}
                                   for n, t in zip(out_names, fg.outputs)]
    if fg.is_stateful():
        signature['is_stateful'] = True
    fields = {'signature': message('OpDef', signature)}
    if nodes:
        fields['node_def'] = nodes
    if fg.outputs:
        fields['ret'] = {name: ref(t) for name, t in zip(out_names, fg.outputs)}
    if fg.inputs:
        fields['arg_attr'] = {i: {'attr': {'_output_shapes': attr_value([t.shape])}}
                              for i, t in enumerate(fg.inputs)}
    return message('FunctionDef', fields)
