"""`ag.saved_model.load`: the object a SavedModel directory holds, without the saving program.

Our SavedModels rebuild from the JSON object graph in the collection `OBJECT_GRAPH_KEY`: each
function's nodes are imported into a graph of their own (so calling one function runs only its
own side effects) through the runtime's op registry, the variables come from the checkpoint
(`variables/variables.*`, keyed by attribute path) or, in directories from before that, from
`variables/variables.npz`. SavedModels TensorFlow 2 wrote load through `load_tf2`; others give
their signatures only. Nothing of the saving program is imported or read. `restore_pickled` is
what a pickled function calls in the process that unpickles it.
"""
import io
import json
import os
import zipfile

import numpy as np

from autograph.saved_model.constants import SERVING, LoadOptions
from autograph.saved_model.custom_gradients import restore_gradients
from autograph.saved_model.load_tf2 import restore_tf2
from autograph.saved_model.meta_graph import GraphReader
from autograph.saved_model.restored import (
    Origin,
    Restored,
    RestoredConcreteFunction,
    RestoredFunction,
    decode_arg,
)
from autograph.saved_model.writer import (
    FORMAT,
    OBJECT_GRAPH_KEY,
    SAVED_MODEL_FILE,
    VARIABLES_FILE,
    VARIABLES_PREFIX,
)
from runtime.core import dtypes
from runtime.graph import serialization
from runtime.graph.importer import import_graph_def
from runtime.train.object_graph import checkpoint_key
from runtime.variables import Variable


def load(export_dir, tags=None, options=None):
    """The object saved in `export_dir`: its attributes, functions, variables and signatures.
    `tags` (TensorFlow's) names the MetaGraphDef to load: SavedModels hold one, tagged
    'serve', and other tags raise ValueError; `options` is an `ag.saved_model.LoadOptions`."""
    if options is not None and not isinstance(options, LoadOptions):
        raise TypeError(f'options must be an ag.saved_model.LoadOptions, got '
                        f'{type(options).__name__}.')
    wanted = {tags} if isinstance(tags, str) else set(tags or ())
    if wanted - {SERVING}:
        raise ValueError(f'{export_dir}: the SavedModel has one MetaGraphDef, tagged '
                         f'{SERVING!r}; no MetaGraphDef with the tags {sorted(wanted)}.')
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
    return restore(saved_model, variables, path, variables_path)


def restore(saved_model, variables, path, variables_path):
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
        if meta.get('format') != FORMAT:
            raise ValueError(f'format {meta.get("format")!r}')
    except (KeyError, IndexError, ValueError) as e:
        if isinstance(e, KeyError) and 'object_graph_def' in meta_graph:
            return restore_tf2(meta_graph, path)
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
    root = Restored('root')
    root.signatures = GraphReader(meta_graph, path).signatures(meta_graph)
    return root


class _Loader(GraphReader):
    """Builds the loaded object from a SavedModel message: each function's graph imported once,
    variables created from the variables file."""

    def __init__(self, meta, meta_graph, path, saved_model):
        super().__init__(meta_graph, path)
        self.meta = meta
        self.saved_model = saved_model  # the bytes, so restored functions pickle again
        self.variable_objects = {}
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

    def graph(self, prefix):
        graph = self.graphs.get(prefix)
        if graph is None:
            nodes = self.by_prefix.get(prefix)
            if nodes is None:
                raise ValueError(f'{self.path}: the graph has no nodes for function '
                                 f'{prefix!r}.')
            graph = self.graphs[prefix] = import_graph_def(
                {'node': nodes, 'library': self.library}, self.payload)
            functions = {f['signature']['name']: f for f in self.library.get('function', [])}
            restore_gradients(graph, self.meta.get('gradients', {}), functions, self.payload)
        return graph

    def function_graph(self, prefix):
        return self.graph(prefix) if prefix in self.meta['concrete'] else None

    def concrete(self, prefix):
        found = self.functions.get(prefix)
        if found is None:
            meta = self.meta['concrete'][prefix]
            graph = self.graph(prefix)
            inputs = [graph.get_tensor_by_name(n) for n in meta['inputs']]
            outputs = [graph.get_tensor_by_name(n) for n in meta['output_tensors']]
            found = self.functions[prefix] = RestoredConcreteFunction(
                meta['label'], graph, meta['params'], [decode_arg(a) for a in meta['args']],
                inputs, outputs, meta['outputs'], variables=self.variable_objects.values())
        return found

    def build(self, node, path):
        kind = node['kind']
        if kind == 'variable':
            return self.variable_objects[node['path']]
        if kind == 'function':
            concretes = [self.concrete(p) for p in node['concrete']]
            return RestoredFunction(concretes, Origin(
                self.saved_model, [self.variable_objects[spec['path']]
                                   for spec in self.meta['variables']], path, restore_pickled))
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


def restore_pickled(payload):
    """The function a pickle carries (SavedModel bytes, variables, its path from the root)."""
    saved_model, variables, *rest = payload
    obj = restore(saved_model, variables, '<pickled function>', '<pickled variables>')
    for key in (rest[0] if rest else ()):
        obj = obj[key] if isinstance(obj, (list, dict)) else getattr(obj, key)
    return obj
