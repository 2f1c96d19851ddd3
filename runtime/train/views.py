"""`tf.train.TrackableView` and `tf.train.CheckpointView`: the object graph of live objects,
and that of a checkpoint file, walked as TensorFlow walks them (breadth first from the root,
children by local name), and matched against each other."""
from collections import deque

from runtime.train.checkpoint import checkpoint_prefix
from runtime.train.object_graph import ObjectGraph, is_trackable, read_checkpoint
from runtime.train.object_graph import trackable_children as children_of


class TrackableView:
    """The objects reachable from `root` (a Module, a Checkpoint, a Variable...)."""

    def __init__(self, root):
        self.root = root

    @classmethod
    def children(cls, obj, save_type='checkpoint', **kwargs):
        """{local name: child} of `obj`."""
        return dict(children_of(obj))

    def descendants(self):
        """Every object reachable from the root, the root first, breadth first."""
        return list(ObjectGraph.of(self.root).objects)


class CheckpointView:
    """The object graph saved in the checkpoint at `save_path` (a prefix, or a directory: its
    latest checkpoint)."""

    def __init__(self, save_path):
        _, self.nodes = read_checkpoint(checkpoint_prefix(save_path))

    def children(self, node_id):
        """{local name: node id} of the node's children."""
        return {c.get('local_name', ''): c.get('node_id', 0)
                for c in self.nodes[node_id].get('children', [])}

    def descendants(self):
        """Every node id reachable from node 0, breadth first."""
        found, queue = [0], deque([0])
        while queue:
            for child in self.nodes[queue.popleft()].get('children', []):
                node_id = child.get('node_id', 0)
                if node_id not in found:
                    found.append(node_id)
                    queue.append(node_id)
        return found

    def match(self, obj):
        """{node id: object} of the nodes of the checkpoint that `obj`'s object graph has."""
        if not is_trackable(obj):
            raise ValueError(f'Expected a Trackable, got {obj} of type {type(obj)}.')
        matched, queue, visited = {0: obj}, deque([(0, obj)]), set()
        while queue:
            node_id, current = queue.popleft()
            live = TrackableView.children(current)
            for name, child_id in self.children(node_id).items():
                if child_id in visited or child_id == 0 or name not in live:
                    continue
                if child_id not in matched:
                    matched[child_id] = live[name]
                    queue.append((child_id, live[name]))
            visited.add(node_id)
        return matched

    def diff(self, obj):
        """(`match(obj)`, the node ids only in the checkpoint, the objects only in `obj`'s
        graph)."""
        matched = self.match(obj)
        only_in_checkpoint = [n for n in self.descendants() if n not in matched]
        seen = {id(v) for v in matched.values()}
        only_in_objects = [t for t in TrackableView(obj).descendants() if id(t) not in seen]
        return matched, only_in_checkpoint, only_in_objects
