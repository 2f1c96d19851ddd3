"""`pickle` of ConcreteFunctions and of ag.Functions with an input_signature: through the same
serialized graph a SavedModel holds, so workers (multiprocessing, dask) need no source.

`reduce_concrete` is all that `autograph.tracing` imports (inside `__reduce__`); it knows no
tracing types, so saving sits above tracing with no cycle. A function loaded from our SavedModel
pickles through its `restored.Origin`; both unpickle through `load.restore_pickled`.
"""
from autograph.saved_model.load import restore_pickled
from autograph.saved_model.writer import package_concrete


def reduce_concrete(concrete):
    """`__reduce__` of a ConcreteFunction (an ag.Function's: of its input_signature's graph)."""
    package = package_concrete(concrete)
    return restore_pickled, ((package.saved_model, package.variables),)
