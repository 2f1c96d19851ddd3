"""AutoGraph: a source-to-source compiler from Python control flow to graph ops, and tracing.

`import autograph` stays light: the compiler names (`to_code`, `do_not_convert`, ...) load
eagerly and never import numpy or `runtime`; the names that run code on tensors (`function`,
`to_graph`, `Function`, ...) load on first use, so `python -m autograph convert` starts fast.
"""
import importlib

from autograph.api import to_code, do_not_convert
from autograph import experimental

_LAZY = {
    'function': 'autograph.function',
    'Function': 'autograph.function',
    'ConcreteFunction': 'autograph.function',
    'to_graph': 'autograph.operators.call',
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'autograph' has no attribute {name!r}")
    loaded = importlib.import_module(module)
    # Bind every name this module serves: importing `autograph.function` sets the package
    # attribute `function` to the module itself, which must not shadow `ag.function`.
    for lazy_name, lazy_module in _LAZY.items():
        if lazy_module == module:
            globals()[lazy_name] = getattr(loaded, lazy_name)
    return globals()[name]


__all__ = ['to_code', 'to_graph', 'do_not_convert', 'experimental', 'function', 'Function',
           'ConcreteFunction']
