"""`rt.import_graph_def`, as TensorFlow's: a GraphDef's nodes imported into the graph being
built (`with rt.Graph().as_default():`, or a function being traced) under a name prefix,
with `input_map` replacing some of its tensors by tensors of that graph, and the ops or tensors
`return_elements` names returned. (runtime.graph.importer builds a new graph from a GraphDef;
this imports into an existing one with the same machinery.)
"""
from runtime.core.context import current_graph
from runtime.core.tensor import Tensor
from runtime.graph.importer import Importer, Inlined, graph_ref
from runtime.graph.serialization import wire


def _message(graph_def):
    """A GraphDef as a message dict, from a dict, its serialized bytes, or a protobuf object."""
    if hasattr(graph_def, 'SerializeToString'):
        graph_def = graph_def.SerializeToString()
    if isinstance(graph_def, (bytes, bytearray)):
        return wire.decode('GraphDef', bytes(graph_def))
    if not isinstance(graph_def, dict):
        raise TypeError(f'graph_def must be a GraphDef, got {type(graph_def).__name__}.')
    return graph_def


def _tensor_name(name):
    node, _, index = name.partition(':')
    return node, int(index) if index else 0


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Import `graph_def`'s nodes into the graph being built, named `<name>/<node>` (`name`
    defaults to 'import'; '' imports the names as they are). `input_map` maps tensor names of
    the GraphDef ('x:0', or 'x' for its first output) to tensors that replace them. Returns the
    ops ('node') and tensors ('node:i') `return_elements` names, or None. `op_dict` and
    `producer_op_list` (deprecated in TensorFlow) change nothing."""
    graph = current_graph()
    if graph is None:
        raise RuntimeError('import_graph_def imports into the graph being built: call it '
                           'inside `with tf.Graph().as_default():` or a tf.function.')
    message = _message(graph_def)
    mapped = {}
    for key, tensor in (input_map or {}).items():
        if not isinstance(tensor, Tensor) or getattr(tensor, 'graph', None) is not graph:
            raise ValueError(f'input_map[{key!r}] must be a tensor of the graph being built, '
                             f'got {tensor!r}.')
        mapped[_tensor_name(key)] = tensor
    # the inputs input_map replaces read `__input_map_<k>:0`, a name bound to its tensor
    built, renames = {}, {}
    for k, ((node, index), tensor) in enumerate(mapped.items()):
        key = f'__input_map_{k}'
        built[key] = Inlined(key, 'input_map', [tensor], [tensor.op])
        renames[(node, index)] = f'{key}:0'
    nodes = []
    for node in message.get('node', []):
        inputs = []
        for text in node.get('input', []):
            if not text.startswith('^'):
                text = renames.get(_tensor_name(text), text)
            inputs.append(text)
        nodes.append({**node, 'input': inputs})
    used = {node for node, _ in mapped} - {n.get('name') for n in message.get('node', [])}
    if used:
        raise ValueError(f'Attempted to map inputs that were not found in graph_def: '
                         f'{sorted(used)}')
    scope = 'import' if name is None else name
    prefix = graph.unique_name(scope) + '/' if scope else ''
    importer = Importer(graph, {f['signature']['name']: f for f in
                                 message.get('library', {}).get('function', [])}, None)
    importer.nodes(graph, nodes, graph_ref, built, prefix)
    if return_elements is None:
        return None
    out = []
    for element in return_elements:
        if ':' in element:
            out.append(graph_ref(built, element, 'return_elements'))
            continue
        op = built.get(element)
        if op is None or isinstance(op, Inlined):
            raise ValueError(f'Requested return_element {element!r} not found in graph_def.')
        out.append(op)
    return out
