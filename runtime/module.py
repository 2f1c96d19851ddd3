"""`rt.Module`: a container of Variables, sub-Modules and functions, found by walking attributes.

As `tf.Module`: `variables` and `trainable_variables` are the module's own (its attributes, and
lists, tuples and dicts in them, by attribute name), then each submodule's in turn, recursively,
each once; `submodules` is breadth first; `name_scope` names the ops built under it.
`ag.saved_model.save` and `rt.train.Checkpoint` track the same attributes. A subclass whose
`__init__` never calls `super().__init__()` still has a name (its class's, in snake case), a
name scope, variables and submodules.
"""
import re

from runtime.core import context
from runtime.variables import Variable

_VALID_NAME = re.compile(r'^[A-Za-z_][\w.-]*$')

# Checkpoint values waiting for an object's attributes (rt.train's deferred restoration):
# id(object) -> a callable run after a Variable or Module attribute is set on the object.
deferred_restores = {}


def notify_new_children(obj):
    """Tell a pending restore that `obj` gained variables (an optimizer's new slot)."""
    callback = deferred_restores.get(id(obj))
    if callback is not None:
        callback()


class Module:
    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if deferred_restores and id(self) in deferred_restores and \
                isinstance(value, (Variable, Module, list, tuple, dict)):
            deferred_restores[id(self)]()

    def __init__(self, name=None):
        if name is None:
            name = _snake(type(self).__name__)
        elif not _VALID_NAME.match(name):
            raise ValueError(f'{name!r} is not a valid module name: use letters, digits and '
                             f'_ . - and start with a letter or _.')
        self._name = name
        # As tf.Module: the scope is fixed when the module is made (`outer/name/` under an
        # enclosing scope) and the same object is entered each time.
        with context.name_scope(name) as scope:
            self._name_scope = context.name_scope(scope)

    def _ensure_named(self):
        """A subclass that never called `super().__init__()` gets its default name here."""
        if '_name' not in vars(self):
            Module.__init__(self)

    @property
    def name(self):
        self._ensure_named()
        return self._name

    @property
    def name_scope(self):
        """`with self.name_scope:` names the ops built inside `<module name>/...` and the
        Variables created inside `<module name>/<variable name>:0` (rt.name_scope)."""
        self._ensure_named()
        return self._name_scope

    @property
    def variables(self):
        """Every Variable of this module, then of each submodule in turn (TensorFlow's order)."""
        return tuple(v for v in flatten(self) if isinstance(v, Variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def submodules(self):
        """Every Module reachable from this one's attributes (not itself), each once, breadth
        first (attributes by name)."""
        seen, order, queue = {id(self)}, [], [self]
        while queue:
            module = queue.pop(0)
            for leaf in _leaves(module):
                if isinstance(leaf, Module) and id(leaf) not in seen:
                    seen.add(id(leaf))
                    order.append(leaf)
                    queue.append(leaf)
        return tuple(order)


def _leaves(module):
    """The values held by a module's public attributes, by attribute name (dicts by key, as
    TensorFlow's nest flattens them)."""
    out = []
    for key in sorted(k for k in vars(module) if not k.startswith('_')):
        _flat(vars(module)[key], out)
    return out


def _flat(value, out):
    if isinstance(value, (list, tuple)):
        for item in value:
            _flat(item, out)
    elif isinstance(value, dict):
        for key in sorted(value, key=str):
            _flat(value[key], out)
    else:
        out.append(value)


def flatten(root):
    """The Variables and Modules of `root` in TensorFlow's order: the module's own leaves by
    attribute name, then each submodule's in turn, recursively; each object once."""
    seen, out = {id(root)}, []

    def visit(module):
        submodules = []
        for leaf in _leaves(module):
            if id(leaf) in seen or not isinstance(leaf, (Variable, Module)):
                continue
            seen.add(id(leaf))
            out.append(leaf)
            if isinstance(leaf, Module):
                submodules.append(leaf)
        for submodule in submodules:
            visit(submodule)

    visit(root)
    return out


def walk(root):
    """(attribute path, value) for the Variables and Modules reachable from `root`'s attributes,
    depth first in attribute order; a path is a tuple of attribute names, list indices and dict
    keys. Each object is reported once, under the first path that reaches it."""
    seen = {id(root)}
    out = []
    _walk(root, (), seen, out)
    return out


def _children(value):
    if isinstance(value, Module):
        return [(k, v) for k, v in vars(value).items() if not k.startswith('_')]
    if isinstance(value, (list, tuple)):
        return list(enumerate(value))
    if isinstance(value, dict):
        return list(value.items())
    return []


def _walk(value, path, seen, out):
    for key, child in _children(value):
        if id(child) in seen:
            continue
        if isinstance(child, (Variable, Module)):
            seen.add(id(child))
            out.append((path + (key,), child))
        if isinstance(child, (Module, list, tuple, dict)):
            seen.add(id(child))
            _walk(child, path + (key,), seen, out)


def _snake(name):
    return re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()
