"""AutoGraph: a source-to-source compiler from Python control flow to graph ops, and tracing.

`import autograph` stays light: the compiler names (`to_code`, `do_not_convert`, ...) load
eagerly and never import numpy or `runtime`; the names that run code on tensors (`function`,
`to_graph`, `Function`, ...) load on first use, so `python -m autograph convert` starts fast.
"""
from importlib import import_module as _import_module

from autograph import experimental
from autograph.compiler.api import do_not_convert, to_code
from autograph.compiler.verbosity import get_verbosity, set_verbosity

_LAZY = {
    'function': 'autograph.tracing.polymorphic_function',
    'Function': 'autograph.tracing.polymorphic_function',
    'ConcreteFunction': 'autograph.tracing.polymorphic_function',
    'to_graph': 'autograph.operators.call',
    'explain': 'autograph.tracing.explain',
}


def __getattr__(name):
    if name == 'saved_model':  # a submodule that imports runtime: loaded on first use
        return _import_module('autograph.saved_model')
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'autograph' has no attribute {name!r}")
    value = getattr(_import_module(module), name)
    globals()[name] = value
    return value


__all__ = ['to_code', 'to_graph', 'do_not_convert', 'experimental', 'function', 'Function',
           'ConcreteFunction', 'saved_model', 'set_verbosity', 'get_verbosity', 'explain']


def __dir__():
    """Only the public names (`dir(ag)`), as `dir(tf.autograph)` shows."""
    return sorted(__all__)
