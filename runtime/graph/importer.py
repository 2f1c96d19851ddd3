"""GraphDef messages into graphs: `import_graph_def` builds an `rt.Graph` from a GraphDef.

Import resolves every node's op type in the op registry, turns attrs back into runtime values
(dtypes, shapes, numpy arrays, function references: `graph_io.attr_from_proto`), and rebuilds
library functions (If/While branches, loop bodies) as FuncGraphs in the graph's library. Nodes may
come in any order; inputs are resolved by name.

Function calls (`PartitionedCall`, `StatefulPartitionedCall`, which TensorFlow 2 writes around
every tf.function) are inlined while importing: the callee's nodes become nodes of the importing
graph named `<call node>/<callee node>`, its arguments bound to the call's inputs, recursively;
the call's outputs are the callee's returned tensors, and a control dependency on the call waits
for every inlined node. (TensorFlow's `tensorflow/python/framework/importer.py` has this job.)
"""
import inspect
from dataclasses import dataclass

from runtime.core.context import current_graph
from runtime.core.shapes import TensorShape
from runtime.graph.graph import FuncGraph, Graph
from runtime.graph.serialization.graph_io import CALL_OPS, FunctionRef, as_dtype, attr_from_proto
from runtime.ops.registry import ANY_VALUE, REGISTRY


@dataclass(slots=True)
class Inlined:
    """What a name stands for while importing when it is not one op: an inlined call (its
    outputs are the callee's results, `ops` everything it ran) or a bound function argument."""
    name: str
    type: str
    outputs: list
    ops: list


def import_graph_def(graph_def, payloads=None, return_elements=None):
    """A new `rt.Graph` holding the nodes (and library functions) of a GraphDef message.

    `payloads(op_type, attrs)` may return the Python object a node's kernel needs (a variable's
    storage for a VarHandleOp). With `return_elements` (tensor names `node:i` of the GraphDef,
    which also name the outputs of inlined calls), returns `(graph, [tensors])`. Raises
    ValueError naming the node for an op type the registry does not have, a missing input, or a
    malformed attr.
    """
    graph = Graph()
    library = {f['signature']['name']: f
               for f in graph_def.get('library', {}).get('function', [])}
    importer = Importer(graph, library, payloads)
    built = {}
    importer.nodes(graph, graph_def.get('node', []), graph_ref, built)
    if return_elements is None:
        return graph
    return graph, [graph_ref(built, name, 'return_elements') for name in return_elements]


def call_function(library, name, inputs, payloads=None):
    """The outputs of library function `name` (a FunctionDef of `library`, {name: FunctionDef})
    called on `inputs`: its nodes inlined into the graph being built (the default graph), as
    a call node's are while importing."""
    graph = current_graph()
    if graph is None:
        raise ValueError(f'call_function({name!r}) builds ops: it needs a graph being built.')
    fdef = library.get(name)
    if fdef is None:
        raise ValueError(f'The library does not define function {name!r}.')
    importer = Importer(graph, library, payloads)
    return importer.call(graph, name, fdef, list(inputs), {},
                         graph.unique_name(name.lstrip('_')) + '/')


def graph_ref(built, text, node_name):
    name, _, index = text.partition(':')
    op = built.get(name)
    if op is None:
        raise ValueError(f'Node {node_name!r} has input {text!r}, but the graph has no node '
                         f'named {name!r}.')
    return _output(op, int(index) if index else 0, node_name, text)


def _output(op, index, node_name, text):
    if index >= len(op.outputs):
        raise ValueError(f'Node {node_name!r} has input {text!r}, but {op.name!r} ({op.type}) '
                         f'has {len(op.outputs)} outputs.')
    return op.outputs[index]


def _function_ref(built, text, node_name):
    """`node:out_arg:index` (or an argument name) inside a FunctionDef."""
    parts = text.split(':')
    op = built.get(parts[0])
    if op is None:
        raise ValueError(f'Node {node_name!r} has input {text!r}, but the function has no node '
                         f'or argument named {parts[0]!r}.')
    if len(parts) == 1:
        return _output(op, 0, node_name, text)
    if len(parts) == 2:  # a GraphDef-style reference, which some writers use in functions
        return _output(op, int(parts[1]), node_name, text)
    arg, index = parts[1], int(parts[2])
    outputs = None if isinstance(op, Inlined) else op.opdef.outputs
    if outputs is None or isinstance(outputs, str):  # a call's outputs: one list arg
        position = index
    elif arg not in outputs and len(outputs) == 1:
        position = index  # one output arg, which another writer names differently
    else:
        if arg not in outputs:
            raise ValueError(f'Node {node_name!r} has input {text!r}, but {op.type} has no '
                             f'output arg {arg!r} (it has {list(outputs)}).')
        position = outputs.index(arg) + index
    return _output(op, position, node_name, text)


class Importer:
    def __init__(self, graph, library, payloads):
        self.graph = graph
        self.library = library
        self.payloads = payloads
        self.calling = []  # the functions being inlined, innermost last

    def inline(self, graph, node, ref, built, prefix):
        """Import the body of the function a call node calls, in place of the call."""
        name = node.get('name', '')
        callee = attr_from_proto(node.get('attr', {}).get('f', {}))
        if not isinstance(callee, FunctionRef):
            raise ValueError(f'Node {name!r} ({node.get("op")}) does not name the function it '
                             f'calls (attr f).')
        fdef = self.library.get(callee.name)
        if fdef is None:
            raise ValueError(f'Node {name!r} calls function {callee.name!r}, which the library '
                             f'does not define.')
        if callee.name in self.calling:
            raise ValueError(f'Node {name!r}: function {callee.name!r} calls itself; recursive '
                             f'functions cannot be imported.')
        data, control = self.inputs(node, ref, built)
        ops_before = len(graph.get_operations())
        outputs = self.call(graph, callee.name, fdef, data, control, f'{prefix}{name}/', name)
        built[name] = Inlined(name, node.get('op', ''), outputs,
                              graph.get_operations()[ops_before:])

    def call(self, graph, callee, fdef, data, control, prefix, name=None):
        """The outputs of FunctionDef `fdef` with its nodes imported into `graph` under
        `prefix`, its arguments bound to the tensors `data`; nodes without inputs wait for the
        ops `control`."""
        args = fdef['signature'].get('input_arg', [])
        if len(args) != len(data):
            caller = f'Node {name!r} passes' if name else 'The call passes'
            raise ValueError(f'{caller} {len(data)} inputs to {callee!r}, which takes '
                             f'{len(args)}.')
        local = {arg['name']: Inlined(arg['name'], 'argument', [t], [t.op])
                 for arg, t in zip(args, data)}
        first = len(graph.get_operations())
        self.calling.append(callee)
        try:
            self.nodes(graph, fdef.get('node_def', []), _function_ref, local, prefix=prefix)
        finally:
            self.calling.pop()
        for op in graph.get_operations()[first:]:
            if not op.inputs and not op.control_inputs:
                op.control_inputs = list(control)
        ret = fdef.get('ret', {})
        outputs = []
        for arg in fdef['signature'].get('output_arg', []):
            if arg['name'] not in ret:
                raise ValueError(f'Function {callee!r} does not say which tensor is its '
                                 f'output {arg["name"]!r}.')
            outputs.append(_function_ref(local, ret[arg['name']], f'{callee}/return'))
        return outputs

    def inputs(self, node, ref, built):
        """A node's data inputs (tensors) and control inputs (ops)."""
        data, control = [], []
        name = node.get('name', '')
        for text in node.get('input', []):
            if text.startswith('^'):
                target = built.get(text[1:].split(':')[0])
                if isinstance(target, Inlined):
                    control.extend(target.ops)
                elif target is not None:  # an op, which may have no outputs (NoOp)
                    control.append(target)
                else:
                    control.append(ref(built, text[1:], name).op)  # raises: no such node
            else:
                data.append(ref(built, text, name))
        return data, control

    def function(self, name):
        """The FuncGraph of library function `name`, imported once into the graph's library."""
        found = self.graph.library.get(name)
        if found is not None:
            return found
        fdef = self.library.get(name)
        if fdef is None:
            raise ValueError(f'The graph calls function {name!r}, which its library does not '
                             f'define.')
        fg = FuncGraph(name, self.graph)
        signature = fdef['signature']
        built = {}
        arg_attrs = fdef.get('arg_attr', {})
        for i, arg in enumerate(signature.get('input_arg', [])):
            if 'type' not in arg:
                raise ValueError(f'Function {name!r}: argument {arg.get("name")!r} has a '
                                 f'polymorphic type ({arg.get("type_attr")!r}); only functions '
                                 f'with concrete argument types can be imported.')
            shapes = arg_attrs.get(i, {}).get('attr', {}).get('_output_shapes')
            shape = TensorShape(None)
            if shapes:
                listed = attr_from_proto(shapes)
                if listed:
                    shape = listed[0]
            with fg.exact_scope(''):
                t = fg.add_input(as_dtype(arg['type']), shape, arg['name'])
            built[arg['name']] = t.op
        self.nodes(fg, fdef.get('node_def', []), _function_ref, built)
        ret = fdef.get('ret', {})
        outputs = []
        for arg in signature.get('output_arg', []):
            if arg['name'] not in ret:
                raise ValueError(f'Function {name!r} does not say which tensor is its output '
                                 f'{arg["name"]!r}.')
            outputs.append(_function_ref(built, ret[arg['name']], f'{name}/return'))
        fg.outputs = outputs
        self.graph.library[name] = fg
        return fg

    def nodes(self, graph, node_defs, ref, built=None, prefix=''):
        built = {} if built is None else built
        for node in _topological(node_defs):
            if node.get('op') in CALL_OPS:
                self.inline(graph, node, ref, built, prefix)
            else:
                self.node(graph, node, ref, built, prefix)

    def node(self, graph, node, ref, built, prefix=''):
        name, op_type = node.get('name', ''), node.get('op', '')
        opdef = REGISTRY.get(op_type)
        if opdef is None:
            raise ValueError(f'Node {name!r} has op type {op_type!r}, which the runtime does not '
                             f'have; it cannot import this graph.')
        try:
            attrs = {k: attr_from_proto(v) for k, v in node.get('attr', {}).items()}
        except ValueError as e:
            raise ValueError(f'Node {name!r} ({op_type}): {e}') from None
        attrs = {k: v for k, v in attrs.items() if v is not None}
        data, control = self.inputs(node, ref, built)
        for ref in opdef.functions(attrs):  # a control flow op's functions, imported first
            if isinstance(ref, FunctionRef):
                self.function(ref.name)
        payload = self.payloads(op_type, attrs) if self.payloads else None
        specs = self._output_specs(opdef, data, attrs, name, payload)
        if graph.unique_name(prefix + name) != prefix + name:
            raise ValueError(f'Two nodes are named {prefix + name!r}.')
        attrs = supported_attrs(opdef, attrs, name)
        op = graph.create_op(opdef, data, attrs, prefix + name, specs, payload)
        op.control_inputs = control
        op.origin = None
        op.device = node.get('device', '') or op.device  # the device the node asked for
        built[name] = op

    def _output_specs(self, opdef, inputs, attrs, name, payload):
        if opdef.control_flow:
            types = attrs.get('T' if opdef.control_flow == 'while' else 'Tout', [])
            shapes = attrs.get('output_shapes') or [TensorShape(None)] * len(types)
            return list(zip(types, shapes))
        if opdef.infer is None:
            raise ValueError(f'Node {name!r}: op {opdef.name} cannot be imported (it has no shape '
                             f'inference).')
        try:
            return opdef.infer(inputs, attrs)
        except KeyError as e:
            raise ValueError(f'Node {name!r} ({opdef.name}) lacks the attr {e}.') from None
        except (ValueError, TypeError, IndexError) as e:
            raise ValueError(f'Node {name!r} ({opdef.name}) with input shapes '
                             f'{[str(t.shape) for t in inputs]}: {e}') from None


def _kernel_parameters(opdef):
    """The keyword parameters of `opdef`'s kernel, or None when it takes any (or has none)."""
    if opdef.kernel is None:
        return None
    try:
        parameters = inspect.signature(opdef.kernel).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters}


def supported_attrs(opdef, attrs, node_name):
    """`attrs` without the ones another writer (TensorFlow) records but this runtime's kernel
    does not take, when they leave the result unchanged: the values `opdef.foreign_attrs`
    declares, or a zero value (`grad_a: false`); any other attr the kernel cannot honour is an
    error naming the op, the attr and its value."""
    accepted = _kernel_parameters(opdef)
    if accepted is None:
        return attrs
    kept = {}
    type_attrs = {name for name, _ in opdef.type_attrs}
    foreign = opdef.foreign_attrs
    for key, value in attrs.items():
        if key in accepted or key in type_attrs or key.startswith('_') or key in opdef.defaults:
            kept[key] = value
        elif key in foreign and (foreign[key] is ANY_VALUE or value in foreign[key]):
            continue
        elif isinstance(value, (bool, int, str, bytes, list)) and not value:
            continue
        else:
            raise ValueError(f'Node {node_name!r} ({opdef.name}) has attr {key}={value!r}, which '
                             f'the runtime\'s {opdef.name} does not support.')
    return kept


def _topological(node_defs):
    """The nodes in an order where every node comes after its inputs (stable otherwise)."""
    names = {n.get('name'): n for n in node_defs}
    done, order = set(), []
    for start in node_defs:
        stack = [(start, False)]
        while stack:
            node, expanded = stack.pop()
            name = node.get('name')
            if name in done:
                continue
            if expanded:
                done.add(name)
                order.append(node)
                continue
            stack.append((node, True))
            for text in reversed(node.get('input', [])):
                dep = names.get(text.lstrip('^').split(':')[0])
                if dep is not None and dep.get('name') not in done and dep is not node:
                    stack.append((dep, False))
    return order
