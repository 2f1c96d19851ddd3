"""A SavedModel's MetaGraphDef, read for loading: its GraphDef's nodes grouped by the name scope
of the function they belong to, its function library, and each `signature_def` restored from the
nodes its tensors need. Both loaders (`load`, `load_tf2`) read signatures through it.
"""
from autograph.saved_model.restored import RestoredSignature
from runtime.graph.importer import import_graph_def
from runtime.ops.state import VAR_HANDLE


class GraphReader:
    """The nodes and library of a MetaGraphDef; `storages` {shared_name: variable storage} bind
    its VarHandleOps (`payload`, unless one is given)."""

    def __init__(self, meta_graph, path, payload=None):
        self.path = path
        graph_def = meta_graph.get('graph_def', {})
        self.library = graph_def.get('library', {})
        self.by_prefix = {}
        for node in graph_def.get('node', []):
            self.by_prefix.setdefault(node['name'].split('/', 1)[0], []).append(node)
        self.storages = {}
        self.graphs = {}
        self.payload = payload or self.saved_variable

    def saved_variable(self, op_type, attrs):
        """The payload of an imported node: a VarHandleOp's variable storage."""
        if op_type == VAR_HANDLE.name:
            storage = self.storages.get(attrs.get('shared_name'))
            if storage is None:
                raise ValueError(f'{self.path}: the graph uses variable '
                                 f'{attrs.get("shared_name")!r}, which was not saved.')
            return storage
        return None

    def function_graph(self, prefix):
        """The imported graph of the saved function whose nodes are under `prefix`, or None when
        the reader knows no such function (a signature then imports the nodes it needs)."""
        return None

    def signatures(self, meta_graph):
        """The loaded signatures (not TensorFlow's `__saved_model_init_op` entry)."""
        return {name: self.signature(name, sig)
                for name, sig in meta_graph.get('signature_def', {}).items()
                if not name.startswith('__saved_model')}

    def signature(self, name, signature_def):
        inputs = signature_def.get('inputs', {})
        outputs = signature_def.get('outputs', {})
        tensor_names = [info['name'] for info in inputs.values()] + [
            info['name'] for info in outputs.values()]
        prefixes = {n.split('/', 1)[0] for n in tensor_names}
        graph = self.function_graph(prefixes.pop()) if len(prefixes) == 1 else None
        if graph is not None:
            tensors = [graph.get_tensor_by_name(n) for n in tensor_names]
        else:  # written by another program: the nodes the signature's outputs need
            graph, tensors = self.needed_graph(name, tensor_names)
        feeds = dict(zip(inputs, tensors[:len(inputs)]))
        fetches = dict(zip(outputs, tensors[len(inputs):]))
        return RestoredSignature(name, graph, feeds, fetches)

    def needed_graph(self, name, tensor_names):
        """A graph of the nodes `tensor_names` need, and those tensors."""
        roots = [n.split(':')[0] for n in tensor_names]
        by_name = {n['name']: n for group in self.by_prefix.values() for n in group}
        needed, stack = {}, list(roots)
        while stack:
            node = by_name.get(stack.pop())
            if node is not None and node['name'] not in needed:
                needed[node['name']] = node
                stack.extend(i.lstrip('^').split(':')[0] for i in node.get('input', []))
        nodes = [n for n in by_name.values() if n['name'] in needed]
        graph, tensors = import_graph_def(
            {'node': nodes, 'library': self.library}, self.payload,
            [n if ':' in n else f'{n}:0' for n in tensor_names])
        self.graphs[name] = graph
        return graph, tensors
