"""`ag.saved_model.save`: an rt.Module, an ag.Function or a ConcreteFunction into a directory.

The saved object is walked into the writer's object tree (Modules by attribute, lists, dicts,
Variables by attribute path, Functions with their traced graphs); `writer.Writer` turns the tree,
the graphs and the signatures into `saved_model.pb` and the variables' checkpoint.
"""
import os

from autograph.saved_model.custom_gradients import SaveOptions
from autograph.saved_model.writer import SAVED_MODEL_FILE, SERVING, VARIABLES_PREFIX, Writer
from autograph.tracing.concrete import ConcreteFunction
from autograph.tracing.polymorphic_function import Function
from runtime.graph import serialization
from runtime.module import Module, walk
from runtime.variables import Variable


def save(obj, export_dir, signatures=None, options=None):
    """Save `obj` (an rt.Module, an ag.Function or a ConcreteFunction) to `export_dir`;
    `options` an `ag.saved_model.SaveOptions`."""
    if options is None:
        options = SaveOptions()
    elif not isinstance(options, SaveOptions):
        raise TypeError(f'options must be an ag.saved_model.SaveOptions, got '
                        f'{type(options).__name__}.')
    package = _package(obj, signatures, options)
    os.makedirs(os.path.join(export_dir, 'variables'), exist_ok=True)
    serialization.write_bundle(os.path.join(export_dir, VARIABLES_PREFIX), package.checkpoint)
    with open(os.path.join(export_dir, SAVED_MODEL_FILE), 'wb') as f:
        f.write(package.saved_model)


def _package(obj, signatures, options):
    writer = _ObjectWriter(strict=True,
                           custom_gradients=bool(options.experimental_custom_gradients))
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


class _ObjectWriter(Writer):
    """The writer, walking the saved object: the parts that know Modules and ag.Functions."""

    def module(self, module):
        # As TensorFlow, the functions with an input_signature are traced first: the variables
        # a first trace creates (a model built on its first call) are saved too.
        for owner in [module] + [v for _, v in walk(module) if isinstance(v, Module)]:
            for _, fn in _attributes(owner):
                if isinstance(fn, Function) and fn.input_signature is not None:
                    fn.get_concrete_function()
        for path, value in walk(module):
            if isinstance(value, Variable):
                self.variable(value, '/'.join(map(str, path)))
        return self.tree(module)

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
            return self.function([fn], path)
        if fn.input_signature is not None:
            return self.function([fn.get_concrete_function()], path, fn.input_signature)
        concretes = fn.concrete_functions()
        if not concretes:
            return None  # never traced and no input_signature: nothing to save
        return self.function(concretes, path)


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

