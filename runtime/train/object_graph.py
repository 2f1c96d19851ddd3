"""The checkpoint's object graph (TensorFlow's TrackableObjectGraph), built and matched.

A TensorFlow checkpoint is a TensorBundle (runtime/graph/serialization/tensor_bundle.py) whose
key `_CHECKPOINTABLE_OBJECT_GRAPH` holds a TrackableObjectGraph: node 0 is the root object,
each node lists its children by local name (attribute name, list index, dict key) and the
values saved for it (`VARIABLE_VALUE` for a variable, under a checkpoint key made of the path
of local names from the root, each escaped, then `/.ATTRIBUTES/VARIABLE_VALUE`). Values are
matched to objects by walking that graph and the Python objects side by side, by local name,
so the program restoring need not be the one that saved. `ag.saved_model` writes the same graph
for a SavedModel's variables (its `variables/` directory is such a checkpoint).

`trackable_children(obj)` is what is walked: a Module's public attributes that hold Variables or
Modules (directly or in lists, tuples and dicts), in attribute order, unless the object says
otherwise with a `trackable_children()` method (the optimizers do, to take TensorFlow's names).
"""
from dataclasses import dataclass, field

import numpy as np

from runtime.core import dtypes
from runtime.graph import serialization
from runtime.module import Module
from runtime.variables import Variable

VARIABLE_VALUE = 'VARIABLE_VALUE'  # the attribute of a variable in a checkpoint's object graph
OBJECT_GRAPH_CHECKPOINT_KEY = '_CHECKPOINTABLE_OBJECT_GRAPH'
ATTRIBUTES = '.ATTRIBUTES'


def escape(local_name):
    """A local name as it appears in a checkpoint key (TensorFlow's escaping of . and /)."""
    return str(local_name).replace('.', '..').replace('/', '.S')


def checkpoint_key(path):
    """The checkpoint key of the variable at attribute path `path` (a '/'-joined string, or a
    tuple of local names), as TensorFlow names it."""
    if not isinstance(path, str):
        path = '/'.join(escape(p) for p in path)
    return f'{path}/{ATTRIBUTES}/{VARIABLE_VALUE}'


def variable_node(full_name, key):
    """The TrackableObject of a variable: its one saved value."""
    return {'attributes': [{'name': VARIABLE_VALUE, 'full_name': full_name,
                            'checkpoint_key': key}]}


def is_trackable(value):
    return isinstance(value, (Variable, Module)) or callable(
        getattr(value, 'trackable_children', None))


def _holds_trackables(value):
    if is_trackable(value):
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_trackables(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_trackables(v) for v in value.values())
    return False


def trackable_children(value):
    """[(local name, child)] of an object of the checkpoint's object graph."""
    own = getattr(value, 'trackable_children', None)
    if callable(own) and not isinstance(value, type):
        return list(own())
    if isinstance(value, Module):
        items = [(k, v) for k, v in vars(value).items() if not k.startswith('_')]
    elif isinstance(value, (list, tuple)):
        items = list(enumerate(value))
    elif isinstance(value, dict):
        items = list(value.items())
    else:
        return []
    return [(str(k), v) for k, v in items if _holds_trackables(v)]


@dataclass
class ObjectGraph:
    """The objects reachable from a root, breadth first as TensorFlow numbers them: `objects[i]`
    is node i, `paths[i]` its local names from the root (the first path that reaches it)."""
    objects: list = field(default_factory=list)
    paths: list = field(default_factory=list)
    children: list = field(default_factory=list)  # per node: [(local name, node id)]

    @classmethod
    def of(cls, root):
        graph = cls()
        ids = {}

        def add(value, path):
            ids[id(value)] = len(graph.objects)
            graph.objects.append(value)
            graph.paths.append(path)
            graph.children.append([])
            return ids[id(value)]

        add(root, ())
        queue = 0
        while queue < len(graph.objects):
            node, queue = queue, queue + 1
            if isinstance(graph.objects[node], Variable):
                continue
            for name, child in trackable_children(graph.objects[node]):
                child_id = ids.get(id(child))
                if child_id is None:
                    child_id = add(child, graph.paths[node] + (name,))
                graph.children[node].append((name, child_id))
        return graph

    def nodes(self):
        """The graph's nodes in the form `match_objects` walks."""
        return [{'children': [{'node_id': c, 'local_name': n} for n, c in children]}
                for children in self.children]

    def describe(self, node):
        return '.'.join(('(root)',) + self.paths[node])

    def proto(self):
        """The TrackableObjectGraph message, as a dict for `serialization.encode`."""
        nodes = []
        for i, value in enumerate(self.objects):
            node = variable_node(value.storage.name, checkpoint_key(self.paths[i])) \
                if isinstance(value, Variable) else {}
            if self.children[i]:
                node['children'] = [{'node_id': c, 'local_name': n} for n, c in self.children[i]]
            nodes.append(node)
        return {'nodes': nodes}

    def tensors(self):
        """{checkpoint key: (numpy value, dtype)} of every variable, and the object graph."""
        out = {}
        for i, value in enumerate(self.objects):
            if isinstance(value, Variable):
                array = np.asarray(value.storage.value)
                if value.dtype is dtypes.string:
                    array = np.asarray(array, dtype=object)
                out[checkpoint_key(self.paths[i])] = (array, value.dtype)
        out[OBJECT_GRAPH_CHECKPOINT_KEY] = (
            np.array(serialization.encode('TrackableObjectGraph', self.proto()), dtype=object),
            dtypes.string)
        return out


def read_checkpoint(prefix):
    """({checkpoint key: numpy value}, the TrackableObjectGraph's nodes) of the checkpoint at
    `prefix`; ValueError naming the file when it is damaged or has no object graph."""
    values = serialization.read_bundle(prefix)
    if OBJECT_GRAPH_CHECKPOINT_KEY not in values:
        raise ValueError(f'{prefix}.index: the checkpoint has no object graph '
                         f'({OBJECT_GRAPH_CHECKPOINT_KEY}); it was not written by a TF 2 '
                         f'tf.train.Checkpoint or rt.train.Checkpoint.')
    try:
        graph = serialization.decode('TrackableObjectGraph',
                                     values.pop(OBJECT_GRAPH_CHECKPOINT_KEY)[()])
    except ValueError as e:
        raise ValueError(f'{prefix}.index: the checkpoint\'s object graph is damaged '
                         f'({e}).') from None
    return values, graph.get('nodes', [])


def match_objects(saved, checkpointed, roots=(0, 0)):
    """{id in `saved`: id in `checkpointed`}, walking two object graphs (lists of nodes with
    `children`) from their roots (`roots`: a node of each) by local names."""
    found, queue = {roots[0]: roots[1]}, [roots[0]]
    while queue:
        node_id = queue.pop(0)
        theirs = {c.get('local_name', ''): c.get('node_id', 0)
                  for c in checkpointed[found[node_id]].get('children', [])}
        for child in saved[node_id].get('children', []):
            other = theirs.get(child.get('local_name', ''))
            if other is not None and child.get('node_id', 0) not in found and \
                    other < len(checkpointed):
                found[child['node_id']] = other
                queue.append(child['node_id'])
    return found


def saved_value(node, values):
    """The checkpoint key and value of a variable's node (None, None when it has none)."""
    for attribute in node.get('attributes', []):
        if attribute.get('name') == VARIABLE_VALUE:
            key = attribute.get('checkpoint_key', '')
            return key, values.get(key)
    return None, None
