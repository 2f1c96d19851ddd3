"""`rt.Module`: a container of Variables, sub-Modules and functions, found by walking attributes.

As `tf.Module`: `variables`, `trainable_variables` and `submodules` are collected from the
object's attributes (and lists, tuples and dicts in them), depth first, each object once;
`name_scope` names the ops built under it. `ag.saved_model.save` tracks the same attributes.
"""
import re

from runtime.core import context
from runtime.variables import Variable

_VALID_NAME = re.compile(r'^[A-Za-z_][\w.-]*$')


class Module:
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

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """`with self.name_scope:` names the ops built inside `<module name>/...` and the
        Variables created inside `<module name>/<variable name>:0` (rt.name_scope)."""
        return self._name_scope

    @property
    def variables(self):
        """Every Variable of this module and its submodules, each once, in attribute order."""
        return tuple(v for _, v in walk(self) if isinstance(v, Variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def submodules(self):
        """Every Module reachable from this one's attributes (not itself), each once."""
        return tuple(m for _, m in walk(self) if isinstance(m, Module))

    def __repr__(self):
        return f'<rt.Module {self._name!r}>'


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
