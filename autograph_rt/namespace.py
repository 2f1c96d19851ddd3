"""The modules of `autograph_rt`: each stands for one TensorFlow module (`tf`, `tf.math`,
`tf.config.experimental`, ...) and finds its names, on first use, in the project's modules
that provide them (`runtime.math` for `tf.math`, `autograph.saved_model` for `tf.saved_model`).

A name found is kept in the module's `__dict__`, so every later `tf.math.add` is a plain module
attribute read. A name not found raises `AttributeError` saying whether TensorFlow has it and,
if it does, whether it is out of scope (with the reason, from `autograph_rt.scope`) or not
implemented yet. `import autograph_rt.nn` and `from autograph_rt.math import add` work through
`NamespaceFinder`.
"""
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import types
from dataclasses import dataclass, field

from autograph_rt import scope

PACKAGE = 'autograph_rt'
NAMES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tf_names.json')
_tf_names = {}  # filled on first need: TensorFlow's path -> frozenset of its public names
_aliases = {}  # filled with it: a TensorFlow path -> the other paths of the same object


def tf_names(path):
    """The public names TensorFlow 2.21 has in the module `path` ('tf.math'), from the ledger
    (tools/tf_api_ledger.py)."""
    if not _tf_names:
        with open(NAMES_FILE) as f:
            document = json.load(f)
        modules = document['modules']
        _tf_names.update((p, frozenset(names)) for p, names in modules.items())
        for group in document['aliases']:
            for full in group:
                _aliases[full] = [other for other in group if other != full]
    return _tf_names.get(path, frozenset())


def aliases(full):
    """The other TensorFlow paths of the object at `full` (`tf.asinh` -> [`tf.math.asinh`])."""
    tf_names('tf')
    return _aliases.get(full, ())


def module_name(path):
    """'tf.math' -> 'autograph_rt.math'."""
    return PACKAGE + path[2:]


def resolve(spec):
    """The object a source spec names: 'runtime:config.experimental' is the attribute chain
    `config.experimental` of the module `runtime`; 'runtime:' the module itself."""
    module, _, chain = spec.partition(':')
    value = importlib.import_module(module)
    for part in filter(None, chain.split('.')):
        value = getattr(value, part)
    return value


def child_spec(spec, name):
    """The spec of attribute `name` of what `spec` names."""
    module, _, chain = spec.partition(':')
    return f"{module}:{chain + '.' if chain else ''}{name}"


def missing(path, name):
    """The AttributeError for `tf.<path>.<name>` not being here, saying why."""
    full = f'{path}.{name}'
    head = f'module {module_name(path)!r} has no attribute {name!r}'
    reason = scope.decision(full)
    if reason is not None and (name in tf_names(path) or scope.decision(full, False)):
        return AttributeError(f'{head}: {full} is out of scope ({reason.topic}: {reason.why}). '
                              f'Instead, {reason.instead}.')
    if name in tf_names(path):
        return AttributeError(f"{head}: TensorFlow's {full} is in scope but not implemented "
                              f'yet.')
    return AttributeError(head)


def _public(value, name, path, owner):
    """Whether a name found in a source module belongs to the TensorFlow module `path`:
    TensorFlow has it there, or the source lists it in `__all__`, or it is the project's own
    object (not a helper the source imported, nor one of its implementation submodules)."""
    if name in tf_names(path) or name in getattr(owner, '__all__', ()):
        return True
    if isinstance(value, types.ModuleType):
        return False
    module = getattr(value, '__module__', None) or ''
    return module.split('.')[0] in ('runtime', 'autograph')


_NOT_HERE = object()


def _through_aliases(full):
    """The value of the TensorFlow name `full` found under another of TensorFlow's paths for
    the same object (`tf.asinh` is `tf.math.asinh`), or _NOT_HERE."""
    for other in aliases(full):
        path, _, name = other.rpartition('.')
        if scope.decision(other) is not None:
            continue
        module = _namespaces['tf']
        try:
            for part in path.split('.')[1:]:
                module = getattr(module, part)
        except AttributeError:
            continue
        value = module._direct(name)
        if value is not _NOT_HERE:
            return value
    return _NOT_HERE


class Namespace(types.ModuleType):
    """One TensorFlow module. `_tf_path` is its TensorFlow path, `_sources` the specs of the
    objects whose attributes it offers, `_extras` name -> spec for names found elsewhere."""

    def __init__(self, path, sources=(), extras=None):
        super().__init__(module_name(path))
        self.__path__ = []  # a package, so that `import autograph_rt.config.experimental` works
        self._tf_path = path
        self._sources = tuple(sources)
        self._extras = dict(extras or {})

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(f'module {self.__name__!r} has no attribute {name!r}')
        value = self._lookup(name)
        setattr(self, name, value)
        return value

    def _lookup(self, name):
        value = self._direct(name)
        if value is _NOT_HERE:
            value = _through_aliases(f'{self._tf_path}.{name}')
        if value is _NOT_HERE:
            raise missing(self._tf_path, name)
        return value

    def _direct(self, name):
        """The value of `name` from this namespace's own sources, or _NOT_HERE."""
        path = self._tf_path
        child = f'{path}.{name}'
        if child in LAYOUT.sources or (child in tf_module_paths() and
                                       scope.decision(child) is None):
            return namespace(child, None if child in LAYOUT.sources else
                             tuple(child_spec(s, name) for s in self._sources))
        spec = self._extras.get(name)
        if spec is not None:
            return resolve(spec)
        for source, owner in self._owners():
            try:
                value = getattr(owner, name)
            except AttributeError:
                continue
            if not _public(value, name, path, owner):
                continue
            if isinstance(value, types.ModuleType):
                return namespace(child, (child_spec(source, name),))
            return value
        return _NOT_HERE

    def _owners(self):
        """(spec, object) for each source that exists (the runtime has no counterpart of some
        TensorFlow modules, `tf.bitwise` say)."""
        for source in self._sources:
            try:
                yield source, resolve(source)
            except AttributeError:
                continue

    def __dir__(self):
        names = set(self._extras)
        names.update(p.rpartition('.')[2] for p in (*LAYOUT.sources, *tf_module_paths())
                     if p.rpartition('.')[0] == self._tf_path)
        for _, owner in self._owners():
            names.update(n for n in dir(owner) if not n.startswith('_'))
        return sorted(n for n in names if _has(self, n))


def _has(module, name):
    try:
        getattr(module, name)
    except AttributeError:
        return False
    return True


def tf_module_paths():
    """TensorFlow's module paths the ledger walked."""
    tf_names('tf')
    return _tf_names.keys()


@dataclass
class Layout:
    """Where each TensorFlow module's names come from: `sources[path]` (the specs searched in
    order) and `extras[path]` (name -> spec). A TensorFlow module not listed searches the
    attribute of its name in each of its parent's sources (`tf.config.experimental` ->
    `runtime.config.experimental`)."""
    sources: dict = field(default_factory=dict)
    extras: dict = field(default_factory=dict)


LAYOUT = Layout()
_namespaces = {}


def make_root(module):
    """Turn the package module `autograph_rt` into the namespace of `tf` itself."""
    module.__class__ = Namespace
    module._tf_path = 'tf'
    module._sources = LAYOUT.sources['tf']
    module._extras = LAYOUT.extras['tf']
    _namespaces['tf'] = module
    if not any(isinstance(finder, NamespaceFinder) for finder in sys.meta_path):
        sys.meta_path.append(NamespaceFinder())


def namespace(path, sources=None):
    """The module for the TensorFlow module `path`, made once and registered for `import`."""
    module = _namespaces.get(path)
    if module is None:
        if sources is None:
            sources = LAYOUT.sources[path]
        module = Namespace(path, sources, LAYOUT.extras.get(path))
        _namespaces[path] = module
        sys.modules[module.__name__] = module
    return module


class NamespaceFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`import autograph_rt.math` (and `autograph_rt.config.experimental`): the module is the
    namespace of that TensorFlow path, or ModuleNotFoundError when there is none."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(PACKAGE + '.'):
            return None
        parent, _, name = fullname.rpartition('.')
        try:
            module = getattr(sys.modules[parent], name)
        except (KeyError, AttributeError):
            return None
        if not isinstance(module, Namespace):
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        parent, _, name = spec.name.rpartition('.')
        return getattr(sys.modules[parent], name)

    def exec_module(self, module):
        """Nothing to run: the namespace finds its names on first use."""
