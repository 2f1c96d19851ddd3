"""`ag.saved_model.save` / `ag.saved_model.load`: functions and variables without the source.

The directory holds `saved_model.pb`, TensorFlow's SavedModel message: one MetaGraphDef tagged
`serve` whose GraphDef holds every saved ConcreteFunction's ops under a name scope of its own
(arguments are Placeholders, captured tensors Consts, captured Variables `VarHandleOp`s whose
`shared_name` is the variable's attribute path), the library of If/While branch functions, and a
`signature_def` per signature. What Python needs to rebuild the object (attribute paths, each
function's argument and output structure) is JSON in the collection `autograph_rt/object_graph`.
Variable values are a TensorFlow checkpoint (`variables/variables.index` and `.data-00000-of-00001`,
keyed `<attribute path>/.ATTRIBUTES/VARIABLE_VALUE`, with the object graph TensorFlow matches
them by); directories from before that hold `variables/variables.npz`, which still loads.
SavedModels that TensorFlow 2 wrote load through their `SavedObjectGraph` (`_restore_tf2`).

Loading imports each function's nodes into a graph of its own (so calling one function runs
only its own side effects) through the runtime's op registry; nothing of the saving program is
imported or read. The same bytes carry ConcreteFunctions and Functions through `pickle`.
"""
import io
import json
import os
import zipfile
from dataclasses import dataclass

import numpy as np

from autograph.saved_model.object_graph import (
    OBJECT_GRAPH_CHECKPOINT_KEY,
    VARIABLE_VALUE,
    TFObjectGraph,
    add_control_outputs,
    argument_names,
    checkpoint_key,
    from_structured_value,
    match_objects,
    object_paths,
    output_encoding,
    output_keys,
)
from autograph.tracing.concrete import ConcreteFunction
from autograph.tracing.polymorphic_function import Function
from runtime.core import dtypes, nest
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor, SymbolicTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import ops as data_ops
from runtime.executor import compile_graph
from runtime.graph import serialization
from runtime.module import Module, walk
from runtime.ops.convert import convert_to_tensor
from runtime.ops.state import VAR_HANDLE
from runtime.variables import Variable

SAVED_MODEL_FILE = 'saved_model.pb'
VARIABLES_PREFIX = os.path.join('variables', 'variables')  # the checkpoint's files
VARIABLES_FILE = os.path.join('variables', 'variables.npz')  # the variables of older saves
OBJECT_GRAPH_KEY = 'autograph_rt/object_graph'
SERVING = 'serving_default'
_FORMAT = 1

__all__ = ['save', 'load', 'SAVED_MODEL_FILE', 'VARIABLES_FILE', 'VARIABLES_PREFIX']


# ================================================================================================
# saving
# ================================================================================================

def save(obj, export_dir, signatures=None):
    """Save `obj` (an rt.Module, an ag.Function or a ConcreteFunction) to `export_dir`."""
    package = _package(obj, signatures, strict=True)
    os.makedirs(os.path.join(export_dir, 'variables'), exist_ok=True)
    serialization.write_bundle(os.path.join(export_dir, VARIABLES_PREFIX), package.checkpoint)
    with open(os.path.join(export_dir, SAVED_MODEL_FILE), 'wb') as f:
        f.write(package.saved_model)


@dataclass(slots=True)
class _Package:
    """A save: saved_model.pb's bytes, the variables as npz bytes (what pickles carry) and as
    checkpoint tensors {key: (value, dtype)} (what the directory holds)."""
    saved_model: bytes
    variables: bytes
    checkpoint: dict


def _package(obj, signatures, strict):
    writer = _Writer(strict)
    if isinstance(obj, (Function, ConcreteFunction)):
        root = writer.function_node(obj, getattr(obj, '__name__', None) or
                                    getattr(obj, 'name', 'function'))
        if signatures is None:
            signatures = _single_concrete(obj)
    elif isinstance(obj, Module):
        root = writer.module(obj)
        if signatures is None:  # as TensorFlow: the one method with an input_signature
            with_signature = [f for _, f in _attributes(obj)
                              if isinstance(f, Function) and f.input_signature is not None]
            if len(with_signature) == 1:
                signatures = with_signature[0]
    else:
        raise TypeError(f'ag.saved_model.save saves an rt.Module, an ag.Function or a '
                        f'ConcreteFunction, got {type(obj).__name__}.')
    if isinstance(signatures, (ConcreteFunction, Function)):
        signatures = {SERVING: signatures}
    signature_defs = {}
    for name, fn in (signatures or {}).items():
        concrete = _single_concrete(fn) if isinstance(fn, Function) else fn
        if not isinstance(concrete, ConcreteFunction):
            raise TypeError(f'signatures[{name!r}] must be a ConcreteFunction (from '
                            f'f.get_concrete_function(...)), got {type(fn).__name__}.')
        signature_defs[name] = writer.signature(name, concrete)
    return writer.finish(root, signature_defs)


def _single_concrete(fn):
    if isinstance(fn, ConcreteFunction):
        return fn
    if fn.input_signature is not None:
        return fn.get_concrete_function()
    traced = fn.concrete_functions()
    if len(traced) != 1:
        raise ValueError(f'Cannot choose a signature for {fn.__name__}: it has '
                         f'{len(traced)} traced graphs. Give it an input_signature or pass '
                         f'signatures=f.get_concrete_function(...).')
    return traced[0]


class _Writer:
    def __init__(self, strict):
        self.strict = strict
        self.variables = []  # (path, Variable)
        self.variable_paths = {}  # id(storage) -> path
        self.concretes = {}  # id(ConcreteFunction) -> prefix
        self.concrete_meta = {}
        self.concrete_objects = {}  # prefix -> ConcreteFunction
        self.signature_objects = {}  # signature name -> ConcreteFunction
        self.input_signatures = {}  # prefix of a Function's first graph -> its input_signature
        self.nodes = []
        self.library = {}

    # ---- the object tree ---------------------------------------------------------------------

    def module(self, module):
        for path, value in walk(module):
            if isinstance(value, Variable):
                self.variable(value, '/'.join(map(str, path)))
        return self.tree(module)

    def variable(self, variable, path):
        key = id(variable.storage)
        if key not in self.variable_paths:
            self.variable_paths[key] = path
            self.variables.append((path, variable))
        return {'kind': 'variable', 'path': self.variable_paths[key]}

    def tree(self, value, path=''):
        if isinstance(value, Variable):
            return self.variable(value, path)
        if isinstance(value, (Function, ConcreteFunction)):
            return self.function_node(value, path)
        if isinstance(value, Module):
            children = {}
            for name, child in _attributes(value):
                node = self.tree(child, f'{path}/{name}' if path else name)
                if node is not None:
                    children[name] = node
            return {'kind': 'module', 'name': value.name, 'children': children}
        if isinstance(value, (list, tuple)):
            items = [self.tree(v, f'{path}/{i}') for i, v in enumerate(value)]
            if any(item is not None for item in items):
                return {'kind': 'list', 'items': items}
            return None
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            items = {k: self.tree(v, f'{path}/{k}') for k, v in value.items()}
            items = {k: v for k, v in items.items() if v is not None}
            return {'kind': 'dict', 'items': items} if items else None
        return None

    def function_node(self, fn, path):
        if isinstance(fn, ConcreteFunction):
            concretes = [fn]
        else:
            concretes = ([fn.get_concrete_function()] if fn.input_signature is not None
                         else fn.concrete_functions())
            if not concretes:
                return None  # never traced and no input_signature: nothing to save
        prefixes = [self.concrete(c, path) for c in concretes]
        if isinstance(fn, Function) and fn.input_signature is not None:
            self.input_signatures[prefixes[0]] = fn.input_signature
        return {'kind': 'function', 'concrete': prefixes}

    # ---- graphs --------------------------------------------------------------------------------

    def concrete(self, concrete, path):
        """The name scope of `concrete`'s nodes in the saved GraphDef, adding them once."""
        prefix = self.concretes.get(id(concrete))
        if prefix is not None:
            return prefix
        graph = concrete.graph
        data_ops.check_saveable(graph)
        prefix = self.concretes[id(concrete)] = graph.name.lstrip('_')  # TF: no leading _
        captures = graph.captures
        n_args = len(graph.inputs) - len(captures)
        replaced = {}
        for value, placeholder in captures:
            replaced[placeholder.op.name] = self.capture_node(value, placeholder, path)
        message = serialization.graph_def_message(graph)
        for node in message.get('node', []):
            name = node['name']
            if name in replaced:
                node = replaced[name]
            elif node['op'] == 'Placeholder' and _is_resource(node):
                raise ValueError(f'{path}: cannot save a function that takes a Variable as an '
                                 f'argument ({name!r}); read it outside or make it an '
                                 f'attribute the function uses.')
            node['name'] = f'{prefix}/{name}'
            node['input'] = [_prefixed(prefix, i) for i in node.get('input', [])]
            self.nodes.append(node)
        for function in message.get('library', {}).get('function', []):
            self.library.setdefault(function['signature']['name'], function)
        args, _ = concrete.structured_input_signature
        self.concrete_objects[prefix] = concrete
        self.concrete_meta[prefix] = {
            'label': path.rsplit('/', 1)[-1] or graph.name,
            'params': list(concrete.parameter_names),
            'args': [_encode_arg(a, path) for a in args],
            'inputs': [f'{prefix}/{t.op.name}:0' for t in graph.inputs[:n_args]],
            'outputs': _encode_output(concrete.structured_outputs, iter(range(1 << 30))),
            'output_tensors': [f'{prefix}/{t.name}' for t in graph.outputs],
        }
        return prefix

    def capture_node(self, value, placeholder, path):
        name = placeholder.op.name
        if isinstance(value, EagerTensor):
            return {'name': name, 'op': 'Const', 'attr': {
                'dtype': {'type': value.dtype.enum},
                'value': {'tensor': serialization.graph_io.tensor_to_proto(value.numpy(),
                                                                           value.dtype)}}}
        storage = value
        var_path = self.variable_paths.get(id(storage))
        if var_path is None:
            if self.strict:
                raise ValueError(
                    f'{path or "The function"} uses the Variable {storage.name!r}, which is not '
                    f'an attribute of the saved object, so its value would be lost. Assign it to '
                    f'an attribute of the Module (e.g. `module.{storage.name} = variable`) or '
                    f'save the Module that holds it.')
            var_path = f'captured/{len(self.variables)}'
            self.variable_paths[id(storage)] = var_path
            self.variables.append((var_path, _StorageView(storage)))
        return {'name': name, 'op': VAR_HANDLE.name, 'attr': {
            'dtype': {'type': storage.dtype.enum},
            'shape': {'shape': serialization.graph_io.shape_to_proto(storage.shape)},
            'shared_name': {'s': var_path.encode('utf-8')}, 'container': {'s': b''}}}

    def signature(self, name, concrete):
        prefix = self.concrete(concrete, f'signature {name!r}')
        self.signature_objects[name] = concrete
        graph = concrete.graph
        n_args = len(graph.inputs) - len(graph.captures)
        inputs = {}
        for t in graph.inputs[:n_args]:
            inputs[t.op.name] = _tensor_info(f'{prefix}/{t.op.name}:0', t)
        outputs = {}
        for key, t in output_keys(concrete.structured_outputs):
            outputs[key] = _tensor_info(f'{prefix}/{t.name}', t)
        return {'inputs': inputs, 'outputs': outputs,
                'method_name': 'tensorflow/serving/predict'}

    def finish(self, root, signature_defs):
        meta = {'format': _FORMAT, 'root': root, 'concrete': self.concrete_meta,
                'variables': [{'path': p, 'name': v.name.split(':')[0], 'dtype': v.dtype.name,
                               'shape': _shape_json(v.shape), 'trainable': v.trainable}
                              for p, v in self.variables]}
        graph_def = {'node': self.nodes, 'versions': {'producer': 1}}
        if self.library:
            graph_def['library'] = {'function': list(self.library.values())}
        meta_graph = {
            'meta_info_def': {'tags': ['serve'], 'meta_graph_version': 'autograph-rt'},
            'graph_def': graph_def,
            'signature_def': signature_defs,
            'collection_def': {OBJECT_GRAPH_KEY: {'bytes_list': {
                'value': [json.dumps(meta).encode('utf-8')]}}},
        }
        trackable, saved_objects, functions = TFObjectGraph(self).build(root)
        meta_graph['object_graph_def'] = saved_objects
        library = graph_def.setdefault('library', {'function': []})['function']
        library.extend(functions)
        for function in library:
            add_control_outputs(function)
        saved_model = serialization.encode('SavedModel', {'saved_model_schema_version': 1,
                                                          'meta_graphs': [meta_graph]})
        buffer = io.BytesIO()
        np.savez(buffer, **{f'v{i}': _plain_array(v) for i, (_, v) in
                            enumerate(self.variables)})
        checkpoint = {checkpoint_key(p): (_plain_array(v), v.dtype) for p, v in self.variables}
        checkpoint[OBJECT_GRAPH_CHECKPOINT_KEY] = (np.array(serialization.encode(
            'TrackableObjectGraph', trackable), dtype=object), dtypes.string)
        return _Package(saved_model, buffer.getvalue(), checkpoint)


class _StorageView:
    """A captured variable storage presented like a Variable (for pickled functions)."""

    def __init__(self, storage):
        self.storage = storage
        self.name = storage.name
        self.dtype = storage.dtype
        self.shape = storage.shape
        self.trainable = True

    def numpy(self):
        return self.storage.value


def _plain_array(variable):
    value = np.asarray(variable.numpy())
    if value.dtype == object:
        raise ValueError(f'Cannot save the string Variable {variable.name!r}: string variables '
                         f'are not supported by the variables file.')
    return value


def _attributes(module):
    """A Module's public attributes, then the ag.Functions defined on its class (methods)."""
    out = [(k, v) for k, v in vars(module).items() if not k.startswith('_')]
    names = {k for k, _ in out}
    for cls in type(module).__mro__:
        for k, v in vars(cls).items():
            if isinstance(v, Function) and k not in names and (not k.startswith('_') or
                                                                k == '__call__'):
                names.add(k)
                out.append((k, getattr(module, k)))
    return out


def _is_resource(node):
    return node.get('attr', {}).get('dtype', {}).get('type') == dtypes.resource.enum


def _prefixed(prefix, text):
    if text.startswith('^'):
        return f'^{prefix}/{text[1:]}'
    return f'{prefix}/{text}'


def _shape_json(shape):
    shape = TensorShape(shape)
    return None if shape.rank is None else shape.as_list()


def _encode_arg(value, path):
    if isinstance(value, TensorSpec):
        return {'t': 'spec', 'dtype': value.dtype.name, 'shape': _shape_json(value.shape),
                'name': value.name}
    if isinstance(value, dict):
        return {'t': 'dict', 'items': [[k, _encode_arg(v, path)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return {'t': 'list' if isinstance(value, list) else 'tuple',
                'items': [_encode_arg(v, path) for v in value]}
    if value is None or isinstance(value, (bool, int, float, str)):
        return {'t': 'value', 'v': value}
    raise ValueError(f'{path}: cannot save a graph traced for the Python argument {value!r}; '
                     f'only tensors and None/bool/int/float/str arguments can be saved.')


def _encode_output(value, counter):
    if value is None:
        return {'t': 'none'}
    if isinstance(value, dict):
        return {'t': 'dict', 'items': [[k, _encode_output(value[k], counter)]
                                       for k in sorted(value, key=str)]}
    if isinstance(value, (list, tuple)):
        return {'t': 'list' if isinstance(value, list) else 'tuple',
                'items': [_encode_output(v, counter) for v in value]}
    return {'t': 'tensor', 'i': next(counter)}


def _tensor_info(name, tensor):
    return {'name': name, 'dtype': tensor.dtype.enum,
            'tensor_shape': serialization.graph_io.shape_to_proto(tensor.shape)}


# ================================================================================================
# loading
# ================================================================================================

def load(export_dir):
    """The object saved in `export_dir`: its attributes, functions, variables and signatures."""
    path = os.path.join(export_dir, SAVED_MODEL_FILE)
    if not os.path.isdir(export_dir):
        raise OSError(f'{export_dir}: no such SavedModel directory.')
    with open(path, 'rb') as f:
        saved_model = f.read()
    prefix = os.path.join(export_dir, VARIABLES_PREFIX)
    variables_path = os.path.join(export_dir, VARIABLES_FILE)
    variables = None
    if os.path.exists(prefix + '.index'):
        variables, variables_path = prefix, prefix + '.index'  # read when the object graph needs
    elif os.path.exists(variables_path):
        with open(variables_path, 'rb') as f:
            variables = f.read()
    else:
        variables_path = prefix + '.index'
    return _restore(saved_model, variables, path, variables_path)


def _restore(saved_model, variables, path, variables_path):
    try:
        message = serialization.decode('SavedModel', saved_model)
    except ValueError as e:
        raise ValueError(f'{path}: not a valid SavedModel file (corrupt or truncated): '
                         f'{e}') from None
    meta_graphs = [m for m in message.get('meta_graphs', [])
                   if 'serve' in m.get('meta_info_def', {}).get('tags', [])]
    if not meta_graphs:
        raise ValueError(f'{path}: the SavedModel has no MetaGraphDef tagged "serve".')
    meta_graph = meta_graphs[0]
    try:
        meta = json.loads(meta_graph['collection_def'][OBJECT_GRAPH_KEY]['bytes_list']
                          ['value'][0])
        if meta.get('format') != _FORMAT:
            raise ValueError(f'format {meta.get("format")!r}')
    except (KeyError, IndexError, ValueError) as e:
        if isinstance(e, KeyError) and 'object_graph_def' in meta_graph:
            return _restore_tf2(meta_graph, path)
        if isinstance(e, KeyError):
            return _restore_signatures_only(meta_graph, path)
        raise ValueError(f'{path}: the object graph of the SavedModel is damaged ({e}).') \
            from None
    try:
        loader = _Loader(meta, meta_graph, path, saved_model)
        loader.variables(variables, variables_path)
        root = loader.build(meta['root'], ())
        root.signatures = loader.signatures(meta_graph)
    except (KeyError, IndexError, TypeError) as e:
        raise ValueError(f'{path}: the SavedModel is damaged ({type(e).__name__}: {e}).') \
            from None
    return root


def _restore_signatures_only(meta_graph, path):
    """A SavedModel written by another program (no object graph): its signatures only."""
    loader = _Loader({'concrete': {}, 'variables': []}, meta_graph, path, None)
    root = Restored('root')
    root.signatures = loader.signatures(meta_graph)
    return root


# ---- SavedModels written by TensorFlow 2 -------------------------------------------------------

# TensorFlow's wrappers of Python containers in an object graph, restored as the containers
_CONTAINERS = {'trackable_list_wrapper': list, 'trackable_tuple_wrapper': tuple,
               'trackable_dict_wrapper': dict}


def _restore_tf2(meta_graph, path):
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
            nodes.append({'name': arg['name'], 'op': 'Placeholder', 'attr': {
                'dtype': {'type': arg['type']},
                'shape': {'shape': serialization.graph_io.shape_to_proto(spec.shape)}}})
            call_inputs.append(arg['name'])
        for j, object_id in enumerate(bound):
            variable = self.variable_objects.get(object_id)
            if variable is None:
                kind = next(iter(k for k in self.objects[object_id] if k not in (
                    'children', 'dependencies')), 'object')
                raise ValueError(f'{self.path}: function {label} captures '
                                 f'{self.describe(object_id)} (a {kind}); only captured '
                                 f'variables can be loaded.')
            nodes.append({'name': f'captured_{j}', 'op': VAR_HANDLE.name, 'attr': {
                'dtype': {'type': variable.dtype.enum},
                'shape': {'shape': serialization.graph_io.shape_to_proto(variable.shape)},
                'shared_name': {'s': f'__bound_{object_id}'.encode('utf-8')}}})
            call_inputs.append(f'captured_{j}')
        nodes.append({'name': 'call', 'op': 'StatefulPartitionedCall', 'input': call_inputs,
                      'attr': {'f': {'func': {'name': name}}}})
        outputs = fdef['signature'].get('output_arg', [])
        for k, arg in enumerate(outputs):
            nodes.append({'name': f'output_{k}', 'op': 'Identity', 'input': [f'call:{k}'],
                          'attr': {'T': {'type': arg.get('type', 0)}}})
        try:
            graph = serialization.import_graph_def({'node': nodes, 'library': self.library},
                                                   self.payload)
        except ValueError as e:
            raise ValueError(f'{self.path}: cannot load function {label}: {e}') from None
        if params is None or len(params) != len(args):
            params = [a.name if isinstance(a, TensorSpec) and a.name else f'arg_{i}'
                      for i, a in enumerate(args[:len(args) - len(keywords)])] + keywords
        structure = output_encoding(meta.get('output_signature', {'none_value': {}}),
                                     iter(range(len(outputs))))
        found = self.concretes[name] = RestoredConcreteFunction(
            label, graph, params, list(args),
            [graph.get_tensor_by_name(f'{a["name"]}:0') for a in input_args[:len(flat)]],
            [graph.get_tensor_by_name(f'output_{k}:0') for k in range(len(outputs))],
            structure, defaults)
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
        loader = _Loader({'concrete': {}, 'variables': []}, meta_graph, self.path, None)
        loader.payload = self.payload
        return {**{name: loader.signature(name, sig)
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


class Restored(Module):
    """A loaded object: attributes as saved; callable when it saved a `__call__` function.
    An rt.Module, so `.variables`, `.trainable_variables` and `.submodules` work."""

    def __call__(self, *args, **kwargs):
        function = self.__dict__.get('__call__')
        if function is None:
            raise TypeError('This loaded object is not callable (no __call__ was saved).')
        return function(*args, **kwargs)

    def __repr__(self):
        names = sorted(k for k in vars(self) if k != 'signatures' and
                       (not k.startswith('_') or k == '__call__'))
        return f'<ag.saved_model loaded object with {", ".join(names) or "no attributes"}>'


class _Loader:
    """Builds the loaded object from a SavedModel message: each function's graph imported once,
    variables created from the variables file."""

    def __init__(self, meta, meta_graph, path, saved_model):
        self.meta = meta
        self.path = path
        self.saved_model = saved_model  # the bytes, so restored functions pickle again
        graph_def = meta_graph.get('graph_def', {})
        self.library = graph_def.get('library', {})
        self.by_prefix = {}
        for node in graph_def.get('node', []):
            self.by_prefix.setdefault(node['name'].split('/', 1)[0], []).append(node)
        self.storages = {}
        self.variable_objects = {}
        self.graphs = {}
        self.functions = {}

    def variables(self, data, variables_path):
        specs = self.meta['variables']
        if not specs:
            return
        if data is None:
            raise OSError(f'{variables_path}: the variables file is missing.')
        if isinstance(data, str):  # the prefix of a checkpoint
            checkpoint = serialization.read_bundle(data)
            missing = [s['path'] for s in specs if checkpoint_key(s['path']) not in checkpoint]
            if missing:
                raise ValueError(f'{variables_path}: the checkpoint has no value for the '
                                 f'variables {missing}.')
            values = [checkpoint[checkpoint_key(s['path'])] for s in specs]
        else:
            try:
                with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
                    values = [arrays[f'v{i}'] for i in range(len(specs))]
            except (zipfile.BadZipFile, ValueError, KeyError, OSError, EOFError) as e:
                raise ValueError(f'{variables_path}: not a valid variables file (corrupt or '
                                 f'truncated): {e}') from None
        for spec, value in zip(specs, values):
            dtype = dtypes.as_dtype(spec['dtype'])
            if value.dtype != dtype.np_dtype or list(value.shape) != (spec['shape'] or []):
                raise ValueError(f'{variables_path}: variable {spec["path"]!r} has dtype '
                                 f'{value.dtype} and shape {value.shape} in the file, but the '
                                 f'graph expects {dtype.name} {spec["shape"]}.')
            variable = Variable(value[()] if value.ndim == 0 else value, dtype=dtype,
                                name=spec['name'], trainable=spec['trainable'])
            self.variable_objects[spec['path']] = variable
            self.storages[spec['path']] = variable.storage

    def payload(self, op_type, attrs):
        if op_type == VAR_HANDLE.name:
            storage = self.storages.get(attrs.get('shared_name'))
            if storage is None:
                raise ValueError(f'{self.path}: the graph uses variable '
                                 f'{attrs.get("shared_name")!r}, which was not saved.')
            return storage
        return None

    def graph(self, prefix):
        graph = self.graphs.get(prefix)
        if graph is None:
            nodes = self.by_prefix.get(prefix)
            if nodes is None:
                raise ValueError(f'{self.path}: the graph has no nodes for function '
                                 f'{prefix!r}.')
            graph = self.graphs[prefix] = serialization.import_graph_def(
                {'node': nodes, 'library': self.library}, self.payload)
        return graph

    def concrete(self, prefix):
        found = self.functions.get(prefix)
        if found is None:
            meta = self.meta['concrete'][prefix]
            graph = self.graph(prefix)
            inputs = [graph.get_tensor_by_name(n) for n in meta['inputs']]
            outputs = [graph.get_tensor_by_name(n) for n in meta['output_tensors']]
            found = self.functions[prefix] = RestoredConcreteFunction(
                meta['label'], graph, meta['params'], [_decode_arg(a) for a in meta['args']],
                inputs, outputs, meta['outputs'])
        return found

    def build(self, node, path):
        kind = node['kind']
        if kind == 'variable':
            return self.variable_objects[node['path']]
        if kind == 'function':
            concretes = [self.concrete(p) for p in node['concrete']]
            return RestoredFunction(concretes, _Origin(self, path))
        if kind == 'list':
            return [None if item is None else self.build(item, path + (i,))
                    for i, item in enumerate(node['items'])]
        if kind == 'dict':
            return {k: self.build(v, path + (k,)) for k, v in node['items'].items()}
        if kind == 'module':
            obj = Restored(node.get('name') or 'module')
            for name, child in node['children'].items():
                setattr(obj, name, self.build(child, path + (name,)))
            return obj
        raise ValueError(f'unknown object kind {kind!r}')

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
        prefix = prefixes.pop() if len(prefixes) == 1 else None
        if prefix in self.meta['concrete']:
            graph = self.graph(prefix)
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
        graph, tensors = serialization.import_graph_def(
            {'node': nodes, 'library': self.library}, self.payload,
            [n if ':' in n else f'{n}:0' for n in tensor_names])
        self.graphs[name] = graph
        return graph, tensors


def _decode_arg(encoded):
    t = encoded['t']
    if t == 'spec':
        return TensorSpec(encoded['shape'], dtypes.as_dtype(encoded['dtype']), encoded['name'])
    if t == 'value':
        return encoded['v']
    if t == 'dict':
        return {k: _decode_arg(v) for k, v in encoded['items']}
    items = [_decode_arg(v) for v in encoded['items']]
    return items if t == 'list' else tuple(items)


def _decode_output(encoded, values):
    t = encoded['t']
    if t == 'none':
        return None
    if t == 'tensor':
        return values[encoded['i']]
    if t == 'dict':
        return {k: _decode_output(v, values) for k, v in encoded['items']}
    items = [_decode_output(v, values) for v in encoded['items']]
    return items if t == 'list' else tuple(items)


class RestoredConcreteFunction:
    """One loaded graph: call it with the arguments it was traced for."""

    def __init__(self, name, graph, params, args, inputs, outputs, output_structure,
                 defaults=None):
        self.name = name
        self.defaults = defaults or {}  # parameter name -> default value (TensorFlow's saves)
        self.graph = graph
        self.parameter_names = tuple(params)
        self.structured_input_signature = (tuple(args), {})
        self.inputs = inputs
        self.outputs = outputs
        self._output_structure = output_structure
        specs = [TensorSpec(t.shape, t.dtype) for t in outputs]
        self.structured_outputs = _decode_output(output_structure, specs)
        self._run = compile_graph(graph, inputs, outputs)

    def feeds(self, args, kwargs):
        """The flat input values for a call; TypeError/ValueError when it does not fit."""
        params = self.parameter_names
        specs = self.structured_input_signature[0]
        if len(args) > len(params):
            raise TypeError(f'{self.name}() takes {len(params)} arguments ({", ".join(params)}) '
                            f'but {len(args)} were given.')
        values = list(args) + [_MISSING] * (len(params) - len(args))
        for key, value in kwargs.items():
            if key not in params:
                raise TypeError(f'{self.name}() got an unexpected keyword argument {key!r}; '
                                f'its parameters are {list(params)}.')
            i = params.index(key)
            if values[i] is not _MISSING:
                raise TypeError(f'{self.name}() got multiple values for argument {key!r}.')
            values[i] = value
        feeds = []
        for name, spec, value in zip(params, specs, values):
            if value is _MISSING:
                if isinstance(spec, TensorSpec) or isinstance(spec, (list, tuple, dict)):
                    raise TypeError(f'{self.name}() missing a required argument: {name!r}.')
                # the default, else the Python value the graph was traced for
                value = self.defaults.get(name, spec)
            _match(spec, value, name, self.name, feeds)
        return feeds

    def call_flat(self, feeds):
        values = self._run(*feeds)
        tensors = [EagerTensor(v, t.dtype) for v, t in zip(values, self.outputs)]
        return _decode_output(self._output_structure, tensors)

    def __call__(self, *args, **kwargs):
        return self.call_flat(self.feeds(args, kwargs))

    def __repr__(self):
        return f'<restored ConcreteFunction {self.name}>'

    def __reduce__(self):
        raise TypeError('Pickle the loaded object\'s functions (not their graphs).')


_MISSING = object()


def _match(spec, value, label, function_name, feeds):
    if isinstance(spec, TensorSpec):
        feeds.append(_tensor_feed(spec, value, label, function_name))
    elif isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise ValueError(f'{function_name}(): argument {label!r} must be a dict with keys '
                             f'{sorted(spec)}, got {value!r}.')
        for k in sorted(spec, key=str):
            _match(spec[k], value[k], f'{label}[{k!r}]', function_name, feeds)
    elif isinstance(spec, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(spec):
            raise ValueError(f'{function_name}(): argument {label!r} must be a sequence of '
                             f'{len(spec)} items, got {value!r}.')
        for i, (s, v) in enumerate(zip(spec, value)):
            _match(s, v, f'{label}[{i}]', function_name, feeds)
    elif isinstance(value, (EagerTensor, Variable)) or type(value) is not type(spec) or \
            value != spec:
        raise ValueError(f'{function_name}(): argument {label!r} is {value!r}, but this graph '
                         f'was saved for the Python value {spec!r}.')


def _tensor_feed(spec, value, label, function_name):
    if isinstance(value, SymbolicTensor):
        raise TypeError(f'{function_name}(): a loaded function runs eagerly; argument {label!r} '
                        f'is the symbolic tensor {value.name!r}.')
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, EagerTensor):
        if value.dtype is not spec.dtype:
            raise TypeError(f'{function_name}(): argument {label!r} has dtype '
                            f'{value.dtype.name}, but the saved graph takes {spec.dtype.name}.')
    else:
        value = convert_to_tensor(value, spec.dtype)
    if not spec.shape.is_compatible_with(value.shape):
        raise ValueError(f'{function_name}(): argument {label!r} has shape {value.shape}, but '
                         f'the saved graph takes shape {spec.shape}.')
    return value.numpy()


class RestoredFunction:
    """A loaded ag.Function: the graphs it had, chosen by the arguments of each call."""

    def __init__(self, concretes, origin):
        self.concrete_functions = list(concretes)
        self._origin = origin
        self.__name__ = concretes[0].name if concretes else 'restored'

    def __call__(self, *args, **kwargs):
        errors = []
        for concrete in self.concrete_functions:
            try:
                feeds = concrete.feeds(args, kwargs)
            except (TypeError, ValueError) as e:
                errors.append(e)
                continue
            return concrete.call_flat(feeds)
        if len(errors) == 1:
            raise errors[0]
        expected = '\n  '.join(_describe_signature(c) for c in self.concrete_functions)
        raise ValueError(f'No saved graph of this function accepts these arguments: {args!r} '
                   f'{kwargs!r}. The saved graphs take:\n  {expected}')

    def get_concrete_function(self, *args, **kwargs):
        for concrete in self.concrete_functions:
            try:
                concrete.feeds(args, kwargs)
                return concrete
            except (TypeError, ValueError):
                continue
        raise ValueError('No saved graph of this function accepts these arguments.')

    def __reduce__(self):
        # Pickles as the SavedModel it came from, with the current values of its variables.
        if self._origin is None:
            raise TypeError(f'Cannot pickle {self.__name__}: it was loaded from a SavedModel '
                            f'TensorFlow wrote; pickle the directory\'s path and load it.')
        return _restore_pickled, (self._origin.payload(),)

    def __repr__(self):
        return f'<restored ag.Function with {len(self.concrete_functions)} graph(s)>'


def _describe_signature(concrete):
    args = concrete.structured_input_signature[0]
    return '(' + ', '.join(f'{n}={a!r}' for n, a in zip(concrete.parameter_names, args)) + ')'


class RestoredSignature:
    """A loaded signature: keyword arguments in, a dict of named outputs back."""

    def __init__(self, name, graph, feeds, fetches):
        self.name = name
        self.graph = graph
        self._feeds = feeds
        self._fetches = fetches
        self.structured_input_signature = ((), {k: TensorSpec(t.shape, t.dtype, k)
                                                for k, t in feeds.items()})
        self.structured_outputs = {k: TensorSpec(t.shape, t.dtype, k) for k, t in fetches.items()}
        self._run = compile_graph(graph, list(feeds.values()), list(fetches.values()))

    def __call__(self, *args, **kwargs):
        if args:
            raise TypeError(f'The signature {self.name!r} takes keyword arguments only '
                            f'({", ".join(self._feeds)}), got {len(args)} positional.')
        missing = [k for k in self._feeds if k not in kwargs]
        extra = [k for k in kwargs if k not in self._feeds]
        if missing or extra:
            raise TypeError(f'The signature {self.name!r} takes the keyword arguments '
                            f'{sorted(self._feeds)}; missing {missing}, unexpected {extra}.')
        specs = self.structured_input_signature[1]
        values = [_tensor_feed(specs[k], kwargs[k], k, self.name) for k in self._feeds]
        out = self._run(*values)
        return {k: EagerTensor(v, t.dtype)
                for (k, t), v in zip(self._fetches.items(), out)}

    def __repr__(self):
        return f'<restored signature {self.name}({", ".join(self._feeds)})>'


# ================================================================================================
# pickle
# ================================================================================================

def reduce_function(fn):
    """`__reduce__` of a ConcreteFunction or an ag.Function: through the serialized graph."""
    if isinstance(fn, Function) and fn.input_signature is None:
        raise TypeError(f'Cannot pickle ag.Function {fn.__name__}: only Functions with an '
                        f'input_signature (and ConcreteFunctions) pickle, since a graph must '
                        f'be fixed before it is shipped. Use ag.function(f, input_signature=...) '
                        f'or pickle f.get_concrete_function(...).')
    return _restore_pickled, (_pickle_payload(fn),)


def _pickle_payload(fn):
    package = _package(_single_concrete(fn), None, strict=False)
    return package.saved_model, package.variables


class _Origin:
    """Where a restored function came from: the SavedModel bytes, the loaded variables and the
    function's path from the root object."""

    __slots__ = ('saved_model', 'variables', 'path')

    def __init__(self, loader, path):
        self.saved_model = loader.saved_model
        self.variables = [loader.variable_objects[spec['path']]
                          for spec in loader.meta['variables']]
        self.path = path

    def payload(self):
        buffer = io.BytesIO()
        np.savez(buffer, **{f'v{i}': _plain_array(v) for i, v in enumerate(self.variables)})
        return self.saved_model, buffer.getvalue(), self.path


def _restore_pickled(payload):
    saved_model, variables, *rest = payload
    obj = _restore(saved_model, variables, '<pickled function>', '<pickled variables>')
    for key in (rest[0] if rest else ()):
        obj = obj[key] if isinstance(obj, (list, dict)) else getattr(obj, key)
    return obj
