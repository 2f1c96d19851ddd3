"""Loading SavedModels that TensorFlow 2's `tf.saved_model.save` wrote.

Their `SavedObjectGraph` gives the attributes, variables and concrete functions (each a
FunctionDef whose captured variables are its last inputs, `bound_inputs`), and the variables'
values are in the TensorBundle checkpoint `variables/variables.*`, matched to the objects by the
checkpoint's TrackableObjectGraph. The helpers at the end turn the object graph's messages
(StructuredValue signatures, FullArgSpecs, attribute paths) into Python.
"""
import os

from autograph.saved_model.custom_gradients import restore_gradients
from autograph.saved_model.meta_graph import GraphReader
from autograph.saved_model.restored import (
    Restored,
    RestoredConcreteFunction,
    RestoredFunction,
    RestoredSignature,
)
from runtime.core import nest
from runtime.core.shapes import TensorShape
from runtime.core.tensor_spec import TensorSpec
from runtime.graph import serialization
from runtime.graph.graph_def import FunctionRef, node_def
from runtime.graph.importer import import_graph_def
from runtime.graph.serialization.graph_io import AttrValue
from runtime.ops.state import VAR_HANDLE
from runtime.train.object_graph import (
    OBJECT_GRAPH_CHECKPOINT_KEY,
    VARIABLE_VALUE,
    match_objects,
)
from runtime.variables import Variable

# TensorFlow's wrappers of Python containers in an object graph, restored as the containers
_CONTAINERS = {'trackable_list_wrapper': list, 'trackable_tuple_wrapper': tuple,
               'trackable_dict_wrapper': dict}


def restore_tf2(meta_graph, path):
    """A SavedModel written by TensorFlow 2's `tf.saved_model.save`: the object graph
    (`SavedObjectGraph`) gives the attributes, variables and concrete functions; the variables'
    values are in the TensorBundle checkpoint `variables/variables.*`."""
    loader = _TF2Loader(meta_graph, path)
    try:
        loader.restore_variables(os.path.join(os.path.dirname(path), 'variables', 'variables'))
        root = loader.build_object(0, ())
        if not isinstance(root, Restored):
            holder = Restored('root')
            holder.__dict__['__call__'] = root
            root = holder
        root.signatures = loader.signatures(meta_graph)
    except (KeyError, IndexError, TypeError) as e:
        raise ValueError(f'{path}: the SavedModel is damaged ({type(e).__name__}: {e}).') \
            from None
    return root


class _TF2Loader:
    """Objects of a TensorFlow 2 SavedModel. Each concrete function is imported as a graph
    calling it (the call inlined by the importer) with its captured variables bound to
    VarHandleOps of the restored Variables."""

    def __init__(self, meta_graph, path):
        self.path = path
        objects = meta_graph['object_graph_def']
        self.objects = objects.get('nodes', [])
        self.concrete_meta = objects.get('concrete_functions', {})
        graph_def = meta_graph.get('graph_def', {})
        self.library = graph_def.get('library', {})
        self.functions = {f['signature']['name']: f for f in self.library.get('function', [])}
        self.graph_nodes = graph_def.get('node', [])
        self.paths = object_paths(self.objects)
        self.variable_objects = {}  # object id -> Variable
        self.storages = {}  # VarHandleOp shared_name -> variable storage
        self.built = {}
        self.concretes = {}

    def describe(self, node_id):
        return '.'.join(map(str, self.paths.get(node_id, ()))) or 'the root object'

    # ---- variables -----------------------------------------------------------------------------

    def restore_variables(self, prefix):
        ids = [i for i, node in enumerate(self.objects) if 'variable' in node]
        if not ids:
            return
        values = serialization.read_bundle(prefix)
        if OBJECT_GRAPH_CHECKPOINT_KEY not in values:
            raise ValueError(f'{prefix}.index: the checkpoint has no object graph '
                             f'({OBJECT_GRAPH_CHECKPOINT_KEY}).')
        try:
            checkpoint = serialization.decode('TrackableObjectGraph',
                                              values[OBJECT_GRAPH_CHECKPOINT_KEY][()])
        except ValueError as e:
            raise ValueError(f'{prefix}.index: the checkpoint\'s object graph is damaged '
                             f'({e}).') from None
        in_checkpoint = match_objects(self.objects, checkpoint.get('nodes', []))
        for i in ids:
            spec = self.objects[i]['variable']
            dtype = serialization.graph_io.as_dtype(spec.get('dtype', 0))
            trackable = checkpoint['nodes'][in_checkpoint[i]] if i in in_checkpoint else {}
            keys = [a['checkpoint_key'] for a in trackable.get('attributes', [])
                    if a.get('name') == VARIABLE_VALUE]
            if not keys or keys[0] not in values:
                raise ValueError(f'{prefix}.index: no value for the variable '
                                 f'{self.describe(i)}.')
            value = values[keys[0]]
            if value.dtype != dtype.np_dtype:
                raise ValueError(f'{prefix}.index: the variable {self.describe(i)} is '
                                 f'{value.dtype} in the checkpoint but {dtype.name} in the graph.')
            self.variable_objects[i] = Variable(
                value, dtype=dtype, name=spec.get('name') or self.describe(i),
                trainable=spec.get('trainable', False))
        self.map_handles()

    def map_handles(self):
        """Which Variable each VarHandleOp of the SavedModel's graph stands for: a call of a
        saved concrete function passes the variables it captured (`bound_inputs`) last."""
        handles = {n['name']: n for n in self.graph_nodes if n.get('op') == VAR_HANDLE.name}
        for node in self.graph_nodes:
            if node.get('op') not in serialization.graph_io.CALL_OPS:
                continue
            callee = node.get('attr', {}).get('f', {}).get('func', {}).get('name')
            bound = self.concrete_meta.get(callee, {}).get('bound_inputs', [])
            data = [i for i in node.get('input', []) if not i.startswith('^')]
            for text, object_id in zip(data[len(data) - len(bound):], bound):
                handle = handles.get(text.split(':')[0])
                if handle is not None and object_id in self.variable_objects:
                    shared = handle.get('attr', {}).get('shared_name', {}).get('s', b'')
                    self.storages[shared.decode('utf-8')] = \
                        self.variable_objects[object_id].storage
        by_name = {}
        for object_id, variable in self.variable_objects.items():
            self.storages[f'__bound_{object_id}'] = variable.storage
            by_name.setdefault(self.objects[object_id]['variable'].get('name'), []).append(
                variable.storage)
        for handle in handles.values():  # not passed to a call: matched by a unique name
            shared = handle.get('attr', {}).get('shared_name', {}).get('s', b'').decode('utf-8')
            if shared not in self.storages and len(by_name.get(shared, ())) == 1:
                self.storages[shared] = by_name[shared][0]

    def payload(self, op_type, attrs):
        if op_type == VAR_HANDLE.name:
            storage = self.storages.get(attrs.get('shared_name'))
            if storage is None:
                raise ValueError(f'{self.path}: the graph uses the variable '
                                 f'{attrs.get("shared_name")!r}, which the object graph does '
                                 f'not hold.')
            return storage
        return None

    # ---- functions -----------------------------------------------------------------------------

    def concrete(self, name, label, params=None, defaults=None):
        found = self.concretes.get(name)
        if found is not None:
            return found
        meta = self.concrete_meta.get(name)
        fdef = self.functions.get(name)
        if meta is None or fdef is None:
            raise ValueError(f'{self.path}: the concrete function {name!r} is missing.')
        args, kwargs = from_structured_value(meta.get('canonicalized_input_signature',
                                                      {'tuple_value': {}})) or ((), {})
        keywords = sorted(kwargs or {})
        args = tuple(args or ()) + tuple(kwargs[k] for k in keywords)  # keywords: by name
        flat = [a for a in nest.flatten(list(args)) if isinstance(a, TensorSpec)]
        bound = meta.get('bound_inputs', [])
        input_args = fdef['signature'].get('input_arg', [])
        if len(input_args) != len(flat) + len(bound):
            raise ValueError(f'{self.path}: function {name!r} takes {len(input_args)} inputs '
                             f'but its signature lists {len(flat)} tensors and {len(bound)} '
                             f'captures.')
        nodes, call_inputs = [], []
        for arg, spec in zip(input_args, flat):
            nodes.append(node_def(arg['name'], 'Placeholder', attrs={
                'dtype': AttrValue({'type': arg['type']}), 'shape': spec.shape}))
            call_inputs.append(arg['name'])
        for j, object_id in enumerate(bound):
            variable = self.variable_objects.get(object_id)
            if variable is None:
                kind = next(iter(k for k in self.objects[object_id] if k not in (
                    'children', 'dependencies')), 'object')
                raise ValueError(f'{self.path}: function {label} captures '
                                 f'{self.describe(object_id)} (a {kind}); only captured '
                                 f'variables can be loaded.')
            nodes.append(node_def(f'captured_{j}', VAR_HANDLE.name, attrs={
                'dtype': variable.dtype, 'shape': TensorShape(variable.shape),
                'shared_name': f'__bound_{object_id}'}))
            call_inputs.append(f'captured_{j}')
        nodes.append(node_def('call', 'StatefulPartitionedCall', call_inputs,
                              {'f': FunctionRef(name)}))
        outputs = fdef['signature'].get('output_arg', [])
        for k, arg in enumerate(outputs):
            nodes.append(node_def(f'output_{k}', 'Identity', [f'call:{k}'],
                                  {'T': AttrValue({'type': arg.get('type', 0)})}))
        try:
            graph = import_graph_def({'node': nodes, 'library': self.library},
                                                   self.payload)
        except ValueError as e:
            raise ValueError(f'{self.path}: cannot load function {label}: {e}') from None
        restore_gradients(graph, self.registered_gradients(), self.functions, self.payload)
        if params is None or len(params) != len(args):
            params = [a.name if isinstance(a, TensorSpec) and a.name else f'arg_{i}'
                      for i, a in enumerate(args[:len(args) - len(keywords)])] + keywords
        structure = output_encoding(meta.get('output_signature', {'none_value': {}}),
                                     iter(range(len(outputs))))
        found = self.concretes[name] = RestoredConcreteFunction(
            label, graph, params, list(args),
            [graph.get_tensor_by_name(f'{a["name"]}:0') for a in input_args[:len(flat)]],
            [graph.get_tensor_by_name(f'output_{k}:0') for k in range(len(outputs))],
            structure, defaults, variables=self.variable_objects.values())
        return found

    def registered_gradients(self):
        """{op type: {'function', 'given'}} of the custom gradients TensorFlow saved (the
        library's `registered_gradients`; `given`: the op inputs their outputs are for, from
        each function's output signature)."""
        found = {}
        for entry in self.library.get('registered_gradients', []):
            name = entry.get('gradient_func', '')
            signature = self.concrete_meta.get(name, {}).get('output_signature', {})
            items = signature.get('list_value', signature.get('tuple_value', {})).get('values')
            if name in self.functions and items is not None:
                found[entry.get('registered_op_type', '')] = {
                    'function': name, 'given': [i for i, v in enumerate(items)
                                                if 'none_value' not in v]}
        return found

    # ---- objects -------------------------------------------------------------------------------

    def build_object(self, node_id, path):
        if node_id in self.built:
            return self.built[node_id]
        node = self.objects[node_id]
        label = '.'.join(map(str, path)) or 'root'
        if 'variable' in node:
            obj = self.variable_objects[node_id]
        elif 'function' in node:
            function = node['function']
            params, defaults = argument_names(function.get('function_spec', {}))
            concretes = [self.concrete(n, path[-1] if path else label, params, defaults)
                         for n in function.get('concrete_functions', [])]
            obj = RestoredFunction(concretes, None)
        elif 'bare_concrete_function' in node:
            bare = node['bare_concrete_function']
            obj = self.concrete(bare['concrete_function_name'], label,
                                bare.get('argument_keywords'))
        elif node.get('user_object', {}).get('identifier') in _CONTAINERS:
            items = {c.get('local_name', ''): self.build_object(
                c['node_id'], path + (c.get('local_name', ''),)) for c in node.get('children', [])}
            kind = _CONTAINERS[node['user_object']['identifier']]
            if kind is dict:
                obj = items
            else:  # children named 0, 1, ...
                obj = kind(items[k] for k in sorted(items, key=lambda k: int(k) if k.isdigit()
                                                     else -1) if k.isdigit())
        elif 'user_object' in node:
            obj = Restored(path[-1] if path else 'root')
            self.built[node_id] = obj
            for child in node.get('children', []):
                name = child.get('local_name', '')
                target = self.objects[child['node_id']]
                if target.get('user_object', {}).get('identifier') == 'signature_map':
                    continue  # the signatures: `.signatures`, from the signature_defs
                value = self.build_object(child['node_id'], path + (name,))
                if value is not None:
                    setattr(obj, name, value)
        else:
            obj = None  # assets, constants and other resources are not restored
        self.built[node_id] = obj
        return obj

    def signatures(self, meta_graph):
        """The signatures of the object graph's signature map (as TensorFlow loads them); those
        only in `signature_def` from the graph's nodes."""
        mapped = {}
        root = self.objects[0] if self.objects else {}
        for child in root.get('children', []):
            target = self.objects[child['node_id']]
            if target.get('user_object', {}).get('identifier') == 'signature_map':
                for entry in target.get('children', []):
                    bare = self.objects[entry['node_id']].get('bare_concrete_function')
                    if bare is not None:
                        mapped[entry['local_name']] = self.signature(
                            entry['local_name'], bare['concrete_function_name'])
        reader = GraphReader(meta_graph, self.path, self.payload)
        return {**{name: reader.signature(name, sig)
                   for name, sig in meta_graph.get('signature_def', {}).items()
                   if name not in mapped and not name.startswith('__saved_model')}, **mapped}

    def signature(self, key, name):
        concrete = self.concrete(name, f'signature {key!r}')
        structure = concrete.structured_outputs
        if not isinstance(structure, dict):
            raise ValueError(f'{self.path}: signature {key!r} does not return a dict.')
        fetches = dict(zip(sorted(structure), concrete.outputs))
        return RestoredSignature(key, concrete.graph,
                                 dict(zip(concrete.parameter_names, concrete.inputs)), fetches)


def object_paths(objects):
    """The attribute path of every object reachable from the root (the shortest)."""
    paths, queue = {0: ()}, [0]
    while queue:
        node_id = queue.pop(0)
        for child in objects[node_id].get('children', []) if node_id < len(objects) else []:
            if child.get('node_id', 0) not in paths:
                paths[child.get('node_id', 0)] = paths[node_id] + (child.get('local_name', ''),)
                queue.append(child.get('node_id', 0))
    return paths



def from_structured_value(value):
    """A StructuredValue as Python: TensorSpecs, tuples, lists, dicts and plain values."""
    (kind, body), = value.items() if value else (('none_value', {}),)
    if kind == 'none_value':
        return None
    if kind == 'tensor_spec_value':
        return TensorSpec(serialization.graph_io.shape_from_proto(body.get('shape', {})),
                          serialization.graph_io.as_dtype(body.get('dtype', 0)),
                          body.get('name') or None)
    if kind in ('tuple_value', 'list_value'):
        items = [from_structured_value(v) for v in body.get('values', [])]
        return tuple(items) if kind == 'tuple_value' else items
    if kind == 'dict_value':
        return {k: from_structured_value(v) for k, v in body.get('fields', {}).items()}
    if kind == 'named_tuple_value':
        return tuple(from_structured_value(p.get('value', {})) for p in body.get('values', []))
    if kind in ('float64_value', 'int64_value', 'string_value', 'bool_value'):
        return body
    raise ValueError(f'a saved function\'s signature holds a {kind}, which cannot be loaded')


def output_encoding(value, counter):
    """A StructuredValue of outputs in the encoding `restored.RestoredConcreteFunction` reads."""
    (kind, body), = value.items() if value else (('none_value', {}),)
    if kind == 'tensor_spec_value':
        return {'t': 'tensor', 'i': next(counter)}
    if kind in ('tuple_value', 'list_value', 'named_tuple_value'):
        items = body.get('values', [])
        if kind == 'named_tuple_value':
            items = [p.get('value', {}) for p in items]
        return {'t': 'list' if kind == 'list_value' else 'tuple',
                'items': [output_encoding(v, counter) for v in items]}
    if kind == 'dict_value':
        fields = body.get('fields', {})
        return {'t': 'dict', 'items': [[k, output_encoding(fields[k], counter)]
                                       for k in sorted(fields)]}
    if kind == 'none_value':
        return {'t': 'none'}
    raise ValueError(f'a saved function returns a {kind}, which cannot be loaded')


def argument_names(function_spec):
    """(parameter names, {name: default value}) of a FunctionSpec's FullArgSpec (without
    `self`); (None, {}) when it has none."""
    spec = function_spec.get('fullargspec', {}).get('named_tuple_value', {})
    fields = {pair.get('key'): pair.get('value', {}) for pair in spec.get('values', [])}
    if 'args' not in fields:
        return None, {}
    names = [v.get('string_value', '') for v in
             fields['args'].get('list_value', {}).get('values', [])]
    defaults = from_structured_value(fields.get('defaults', {'none_value': {}})) or ()
    by_name = dict(zip(names[len(names) - len(defaults):], defaults))
    return (names[1:] if names[:1] == ['self'] else names), by_name
