"""The SavedModel writer: ConcreteFunctions, their captures, signatures and variables as the bytes
of `saved_model.pb` and the tensors of the variables' checkpoint.

`saved_model.pb` is TensorFlow's SavedModel message: one MetaGraphDef tagged `serve` whose
GraphDef holds every saved ConcreteFunction's ops under a name scope of its own (arguments are
Placeholders, captured tensors Consts, captured Variables `VarHandleOp`s whose `shared_name` is
the variable's attribute path), the library of If/While branch functions, and a `signature_def`
per signature. What Python needs to rebuild the object (attribute paths, each function's argument
and output structure) is JSON in the collection `OBJECT_GRAPH_KEY`; TensorFlow 2's view of the
same objects is `object_graph`'s. `save` walks the saved object into the writer's object tree;
`pickling` writes one ConcreteFunction.
"""
import io
import json
import os
import re
from dataclasses import dataclass

import numpy as np

from autograph.saved_model.custom_gradients import saved_gradients
from autograph.saved_model.object_graph import TFObjectGraph, add_control_outputs, output_keys
from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import EagerTensor
from runtime.core.tensor_spec import TensorSpec
from runtime.data import ops as data_ops
from runtime.graph import serialization
from runtime.graph.graph_def import const_node_def, node_def
from runtime.ops.state import VAR_HANDLE
from runtime.train.object_graph import OBJECT_GRAPH_CHECKPOINT_KEY, checkpoint_key

SAVED_MODEL_FILE = 'saved_model.pb'
VARIABLES_PREFIX = os.path.join('variables', 'variables')  # the checkpoint's files
VARIABLES_FILE = os.path.join('variables', 'variables.npz')  # the variables of older saves
OBJECT_GRAPH_KEY = 'autograph_rt/object_graph'
SERVING = 'serving_default'
FORMAT = 1  # the version of the JSON object graph


@dataclass(slots=True)
class Package:
    """A save: saved_model.pb's bytes, the variables as npz bytes (what pickles carry) and as
    checkpoint tensors {key: (value, dtype)} (what the directory holds)."""
    saved_model: bytes
    variables: bytes
    checkpoint: dict


def package_concrete(concrete):
    """A pickle's SavedModel: one ConcreteFunction as the root's function and the
    `serving_default` signature, its captured variables saved under `captured/N`."""
    writer = Writer(strict=False)
    root = writer.function([concrete], concrete.name)
    return writer.finish(root, {SERVING: writer.signature(SERVING, concrete)})


class Writer:
    """Collects what a SavedModel holds: each ConcreteFunction's nodes under a name scope of its
    own, their captures (Consts, VarHandleOps of the saved variables), the function library, the
    signatures and the variables; `finish` encodes it all. It reads ConcreteFunctions by their
    attributes only, so `pickling` uses it without importing `autograph.tracing`."""

    def __init__(self, strict, custom_gradients=True):
        self.strict = strict
        self.custom_gradients = custom_gradients  # SaveOptions.experimental_custom_gradients
        self.variables = []  # (path, Variable)
        self.variable_paths = {}  # id(storage) -> path
        self.concretes = {}  # id(ConcreteFunction) -> prefix
        self.concrete_meta = {}
        self.concrete_objects = {}  # prefix -> ConcreteFunction
        self.signature_objects = {}  # signature name -> ConcreteFunction
        self.input_signatures = {}  # prefix of a Function's first graph -> its input_signature
        self.nodes = []
        self.library = {}

    def variable(self, variable, path):
        """The object-tree node of `variable`, saved once under the first path it is met at."""
        key = id(variable.storage)
        if key not in self.variable_paths:
            self.variable_paths[key] = path
            self.variables.append((path, variable))
        return {'kind': 'variable', 'path': self.variable_paths[key]}

    def function(self, concretes, path, input_signature=None):
        """The object-tree node of a function with these graphs (the first one traced for
        `input_signature`, when it has one)."""
        prefixes = [self.concrete(c, path) for c in concretes]
        if input_signature is not None:
            self.input_signatures[prefixes[0]] = input_signature
        return {'kind': 'function', 'concrete': prefixes}

    # ---- graphs --------------------------------------------------------------------------------

    def concrete(self, concrete, path):
        """The name scope of `concrete`'s nodes in the saved GraphDef, adding them once."""
        prefix = self.concretes.get(id(concrete))
        if prefix is not None:
            return prefix
        graph = concrete.graph
        data_ops.check_saveable(graph)
        # the scope is a node name: TF's has no leading _, and a lambda's `<lambda>` becomes
        # `_lambda_` (graph names are unique, so the scopes stay apart)
        prefix = self.concretes[id(concrete)] = re.sub(r'[^A-Za-z0-9_.\-]', '_',
                                                       graph.name).lstrip('_')
        captures = graph.captures
        n_args = len(graph.inputs) - len(captures)
        replaced = {}
        for value, placeholder in captures:
            replaced[placeholder.op.name] = self.capture_node(value, placeholder, path)
        message = graph.as_graph_def()
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
            return const_node_def(name, value.numpy(), value.dtype)
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
            self.variables.append((var_path, StorageView(storage)))
        return node_def(name, VAR_HANDLE.name, attrs={
            'dtype': storage.dtype, 'shape': TensorShape(storage.shape), 'shared_name': var_path,
            'container': ''})

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
        meta = {'format': FORMAT, 'root': root, 'concrete': self.concrete_meta,
                'variables': [{'path': p, 'name': v.name.split(':')[0], 'dtype': v.dtype.name,
                               'shape': _shape_json(v.shape), 'trainable': v.trainable}
                              for p, v in self.variables]}
        graph_def = {'node': self.nodes, 'versions': {'producer': 1}}
        if self.custom_gradients:
            gradients = saved_gradients([c.graph for c in self.concrete_objects.values()])
            for function in gradients.functions:
                self.library[function['signature']['name']] = function
            meta['gradients'] = gradients.meta
        if self.library:
            graph_def['library'] = {'function': list(self.library.values())}
        if self.custom_gradients and gradients.registered:
            graph_def['library']['registered_gradients'] = gradients.registered
        meta_graph = {
            'meta_info_def': {'tags': ['serve'], 'meta_graph_version': 'autograph-rt'},
            'graph_def': graph_def,
            'signature_def': signature_defs,
            'collection_def': {OBJECT_GRAPH_KEY: {'bytes_list': {
                'value': [json.dumps(meta).encode('utf-8')]}}},
        }
        trackable, saved_objects, functions = TFObjectGraph(self).build(root)
        if self.custom_gradients:
            saved_objects['concrete_functions'].update(gradients.concrete_functions)
        meta_graph['object_graph_def'] = saved_objects
        library = graph_def.setdefault('library', {'function': []})['function']
        library.extend(functions)
        for function in library:
            add_control_outputs(function)
        saved_model = serialization.encode('SavedModel', {'saved_model_schema_version': 1,
                                                          'meta_graphs': [meta_graph]})
        buffer = io.BytesIO()
        np.savez(buffer, **{f'v{i}': plain_array(v) for i, (_, v) in
                            enumerate(self.variables)})
        checkpoint = {checkpoint_key(p): (plain_array(v), v.dtype) for p, v in self.variables}
        checkpoint[OBJECT_GRAPH_CHECKPOINT_KEY] = (np.array(serialization.encode(
            'TrackableObjectGraph', trackable), dtype=object), dtypes.string)
        return Package(saved_model, buffer.getvalue(), checkpoint)


class StorageView:
    """A captured variable storage presented like a Variable (for pickled functions)."""

    def __init__(self, storage):
        self.storage = storage
        self.name = storage.name
        self.dtype = storage.dtype
        self.shape = storage.shape
        self.trainable = True

    def numpy(self):
        return self.storage.value


def plain_array(variable):
    value = np.asarray(variable.numpy())
    if value.dtype == object:
        raise ValueError(f'Cannot save the string Variable {variable.name!r}: string variables '
                         f'are not supported by the variables file.')
    return value


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
