"""Common-subexpression elimination: identical stateless nodes on identical inputs run once."""
import numpy as np

from runtime.core.dtypes import DType
from runtime.ops.registry import CONST, PLACEHOLDER

_MAX_CONST_BYTES = 4096  # larger constants are not compared byte by byte


def cse(program):
    seen = {}
    merged = set()
    for node in program.nodes:
        key = _key(node)
        if key is None:
            continue
        first = seen.setdefault(key, node)
        if first is not node:
            for old, new in zip(node.outputs, first.outputs):
                program.replace_all_uses_with(old, new)
            merged.add(node)
    program.retain(lambda node: node not in merged)
    return program


def _key(node):
    opdef = node.opdef
    if opdef.stateful or node.payload is not None or opdef is PLACEHOLDER or node.control:
        return None
    if opdef is CONST:
        value = np.asarray(node.attrs['value'])
        if value.dtype == object or value.nbytes > _MAX_CONST_BYTES:
            return None
        return (CONST, node.attrs['dtype'].name, value.shape, value.tobytes())
    try:
        attrs = tuple(sorted((k, _freeze(v)) for k, v in node.attrs.items()))
        hash(attrs)
    except TypeError:
        return None
    # Values hash by identity; the inputs of a node come before it, so they are final here.
    return (opdef.name, tuple(node.inputs), attrs, node.checks)


def _freeze(value):
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, DType):
        return value.name
    if isinstance(value, (np.ndarray, np.generic)):
        return (str(value.dtype), np.shape(value), np.asarray(value).tobytes())
    return value
