"""TensorFlow 2's view of a SavedModel, written: its object graph.

`TFObjectGraph(writer).build(root)` gives the checkpoint's TrackableObjectGraph (the objects
TensorFlow matches checkpoint values to by attribute name), the SavedObjectGraph (the same objects
with the same ids, then functions and the signature map) and the FunctionDefs of the saved
concrete functions, which is what `tf.saved_model.load` needs to rebuild a Module. The
checkpoint's part (the keys, `VARIABLE_VALUE`, the object graph's key, matching objects) is
`runtime.train.object_graph`, shared with `rt.train.Checkpoint`; `load_tf2` reads what
TensorFlow writes.
"""
from runtime.core import nest
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.graph import serialization
from runtime.graph.graph_def import const_node_def, function_def
from runtime.ops.registry import REGISTRY
from runtime.train.object_graph import checkpoint_key, variable_node  # shared with rt.train

_USER_OBJECT_VERSION = {'producer': 1, 'min_consumer': 1}


class TFObjectGraph:
    """What TensorFlow 2's loader reads: the TrackableObjectGraph of the checkpoint (modules,
    lists and dicts down to the variables, matched to objects by attribute name), and the
    SavedObjectGraph (the same objects with the same ids, then the functions and the signature
    map) with each concrete function as a FunctionDef whose captured variables are its last
    inputs (`bound_inputs`) and whose captured constants are Const nodes."""

    def __init__(self, writer):
        self.writer = writer
        self.names = {p: v.name.split(':')[0] for p, v in writer.variables}
        self.variables = dict(writer.variables)
        self.trackable = [{}]
        self.saved = [{'user_object': {'identifier': '_generic_user_object',
                                       'version': _USER_OBJECT_VERSION}}]
        self.variable_ids = {}
        self.function_children = []  # (parent id, local name, function tree)
        self.functions = {}  # FunctionDef name -> FunctionDef
        self.concrete_functions = {}

    def build(self, root):
        self.visit(root, 0)
        for path in self.variables:  # captured by a pickled function, not an attribute
            if path not in self.variable_ids:
                self.visit({'kind': 'dict', 'items': {path.replace('/', '_'): {
                    'kind': 'variable', 'path': path}}}, 0)
        for parent, name, tree in self.function_children:
            self.child(parent, name, self.function(tree, name))
        if root['kind'] == 'function':  # a saved function is the root's __call__
            self.child(0, '__call__', self.function(root, '__call__'))
        signatures = self.add({'user_object': {'identifier': 'signature_map',
                                               'version': _USER_OBJECT_VERSION}})
        for name, concrete in sorted(self.writer.signature_objects.items()):
            self.child(signatures, name, self.signature(name, concrete))
        self.child(0, 'signatures', signatures)
        saved = {'nodes': self.saved, 'concrete_functions': self.concrete_functions}
        return {'nodes': self.trackable}, saved, list(self.functions.values())

    def add(self, node):
        self.saved.append(node)
        return len(self.saved) - 1

    def child(self, parent, name, node_id):
        self.saved[parent].setdefault('children', []).append(
            {'node_id': node_id, 'local_name': str(name)})

    def visit(self, tree, index):
        kind = tree['kind']
        if kind == 'module':
            items = tree['children'].items()
        elif kind == 'list':
            items = enumerate(tree['items'])
        elif kind == 'dict':
            items = tree['items'].items()
        else:
            return
        for name, child in items:
            if child is None:
                continue
            if child['kind'] == 'function':
                self.function_children.append((index, name, child))
                continue
            if child['kind'] == 'variable':
                node_id = self.variable_ids.get(child['path'])
                if node_id is None:
                    node_id = self.variable_ids[child['path']] = self.trackable_node(
                        self.variable_node(child['path']),
                        variable_node(self.names[child['path']], checkpoint_key(child['path'])))
            else:
                node_id = self.trackable_node({'user_object': {
                    'identifier': '_generic_user_object', 'version': _USER_OBJECT_VERSION}}, {})
                self.visit(child, node_id)
            self.child(index, name, node_id)
            self.trackable[index].setdefault('children', []).append(
                {'node_id': node_id, 'local_name': str(name)})

    def trackable_node(self, saved, trackable):
        self.trackable.append(trackable)
        return self.add(saved)

    def variable_node(self, path):
        variable = self.variables[path]
        return {'variable': {
            'dtype': variable.dtype.enum, 'trainable': bool(variable.trainable),
            'shape': serialization.graph_io.shape_to_proto(variable.shape),
            'name': self.names[path]}}

    # ---- functions -----------------------------------------------------------------------------

    def function(self, tree, name):
        names = [self.concrete(prefix) for prefix in tree['concrete']]
        meta = self.writer.concrete_meta[tree['concrete'][0]]
        input_signature = self.writer.input_signatures.get(tree['concrete'][0])
        spec = {'fullargspec': _full_arg_spec(meta['params']),
                'input_signature': structured_value(tuple(input_signature))
                if input_signature is not None else {'none_value': {}}}
        return self.add({'function': {'concrete_functions': names, 'function_spec': spec}})

    def concrete(self, prefix):
        concrete = self.writer.concrete_objects[prefix]
        name = concrete.graph.name
        if name not in self.functions:
            fdef, bound = self.function_def(concrete, name)
            args, _ = concrete.structured_input_signature
            self.functions[name] = fdef
            self.concrete_functions[name] = {
                'bound_inputs': bound,
                'canonicalized_input_signature': structured_value((tuple(args), {})),
                'output_signature': structured_value(concrete.structured_outputs)}
        return name

    def signature(self, key, concrete):
        """A bare concrete function taking keyword arguments and returning a dict, over a copy
        of the function whose inputs and outputs are in the order TensorFlow flattens them."""
        name = f'__inference_signature_wrapper_{concrete.graph.name.strip("_")}'
        fdef, bound = self.function_def(concrete, name)
        graph = concrete.graph
        n_args = len(graph.inputs) - len(graph.captures)
        inputs = fdef['signature']['input_arg']
        user = sorted(range(n_args), key=lambda i: inputs[i]['name'])
        fdef['signature']['input_arg'] = [inputs[i] for i in user] + inputs[n_args:]
        attrs = fdef.get('arg_attr', {})
        fdef['arg_attr'] = {new: attrs[old] for new, old in enumerate(
            user + list(range(n_args, len(inputs)))) if old in attrs}
        keyed = output_keys(concrete.structured_outputs)
        position = {id(t): i for i, t in enumerate(graph.outputs)}
        outputs = fdef['signature'].get('output_arg', [])
        order = [position[id(t)] for _, t in sorted(keyed, key=lambda kt: kt[0])]
        fdef['signature']['output_arg'] = [outputs[i] for i in order]
        self.functions[name] = fdef
        kwargs = {inputs[i]['name']: TensorSpec(graph.inputs[i].shape, graph.inputs[i].dtype,
                                                inputs[i]['name']) for i in user}
        self.concrete_functions[name] = {
            'bound_inputs': bound,
            'canonicalized_input_signature': structured_value(((), kwargs)),
            'output_signature': structured_value({k: TensorSpec(t.shape, t.dtype, k)
                                                   for k, t in keyed})}
        return self.add({'bare_concrete_function': {
            'concrete_function_name': name, 'argument_keywords': sorted(kwargs),
            'allowed_positional_arguments': 0}})

    def function_def(self, concrete, name):
        """The FunctionDef message of a concrete function and the object ids it captures."""
        graph = concrete.graph
        fdef = function_def(graph)
        fdef['signature']['name'] = name
        captures = {p.op.name: value for value, p in graph.captures}
        kept, consts, bound = [], {}, []
        for arg in fdef['signature'].get('input_arg', []):
            value = captures.get(arg['name'])
            if isinstance(value, EagerTensor):
                consts[arg['name']] = value
                continue
            if value is not None:
                path = self.writer.variable_paths[id(value)]
                bound.append(self.variable_ids[path])
            kept.append(arg)
        if consts:  # captured constants: Const nodes in the body
            renamed = {arg: f'{arg}_captured' for arg in consts}
            for node in fdef.get('node_def', []):
                node['input'] = [f'{renamed[i]}:output:0' if i in renamed else i
                                 for i in node.get('input', [])]
            fdef['ret'] = {k: f'{renamed[v]}:output:0' if v in renamed else v
                           for k, v in fdef.get('ret', {}).items()}
            for arg, value in consts.items():
                fdef.setdefault('node_def', []).append(
                    const_node_def(renamed[arg], value.numpy(), value.dtype))
            old = fdef['signature']['input_arg']
            attrs = fdef.get('arg_attr', {})
            fdef['arg_attr'] = {new: attrs[old.index(arg)] for new, arg in enumerate(kept)
                                if old.index(arg) in attrs}
            fdef['signature']['input_arg'] = kept
        return fdef, bound


def add_control_outputs(fdef):
    """Name the stateful nodes of a FunctionDef as its control outputs, so that TensorFlow runs
    them when a call does not use their results (it prunes everything else)."""
    stateful = [n['name'] for n in fdef.get('node_def', [])
                if n['op'] in REGISTRY and REGISTRY[n['op']].stateful]
    if stateful:
        fdef['control_ret'] = {name: name for name in stateful}
        fdef['signature']['control_output'] = stateful


def structured_value(value):
    """A Python structure of TensorSpecs and plain values as a StructuredValue message."""
    if value is None:
        return {'none_value': {}}
    if isinstance(value, TensorSpec):
        spec = {'shape': serialization.graph_io.shape_to_proto(value.shape),
                'dtype': value.dtype.enum}
        if value.name:
            spec['name'] = value.name
        return {'tensor_spec_value': spec}
    if isinstance(value, (EagerTensor, SymbolicTensor)):
        return {'tensor_spec_value': {
            'shape': serialization.graph_io.shape_to_proto(value.shape),
            'dtype': value.dtype.enum}}
    if isinstance(value, dict):
        return {'dict_value': {'fields': {str(k): structured_value(v)
                                          for k, v in value.items()}}}
    if isinstance(value, tuple):
        return {'tuple_value': {'values': [structured_value(v) for v in value]}}
    if isinstance(value, list):
        return {'list_value': {'values': [structured_value(v) for v in value]}}
    if isinstance(value, bool):
        return {'bool_value': value}
    if isinstance(value, int):
        return {'int64_value': value}
    if isinstance(value, float):
        return {'float64_value': value}
    if isinstance(value, str):
        return {'string_value': value}
    raise ValueError(f'cannot describe {value!r} in a saved signature')


def _full_arg_spec(params):
    """Python's FullArgSpec of a function taking `params` positionally, as TensorFlow saves it."""
    none = {'none_value': {}}
    fields = [('args', {'list_value': {'values': [{'string_value': p} for p in params]}}),
              ('varargs', none), ('varkw', none), ('defaults', none),
              ('kwonlyargs', {'list_value': {}}), ('kwonlydefaults', none),
              ('annotations', {'dict_value': {}})]
    return {'named_tuple_value': {'name': 'FullArgSpec', 'values': [
        {'key': k, 'value': v} for k, v in fields]}}


def output_keys(structured):
    """(signature output key, tensor) as TensorFlow names them."""
    if isinstance(structured, dict):
        keyed = []
        for k in sorted(structured, key=str):
            leaves = [t for t in nest.flatten(structured[k]) if t is not None]
            if len(leaves) == 1:
                keyed.append((str(k), leaves[0]))
            else:
                keyed.extend((f'{k}_{i}', t) for i, t in enumerate(leaves))
        return keyed
    leaves = [t for t in nest.flatten(structured) if t is not None]
    return [(f'output_{i}', t) for i, t in enumerate(leaves)]
