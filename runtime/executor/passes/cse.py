"""Common-subexpression elimination: identical stateless nodes on identical inputs run once."""
import numpy as np

from runtime.dtypes import DType
from runtime.ops.registry import CONST, PLACEHOLDER

_MAX_CONST_BYTES = 4096  # larger constants are not compared byte by byte


def cse(program):
    seen = {}
    subst = {}
    kept = []
    for node in program.nodes:
        program_inputs = [_resolve(subst, ref) for ref in node.inputs]
        node.inputs = program_inputs
        key = _key(node)
        if key is not None:
            first = seen.get(key)
            if first is not None:
                for i in range(len(node.specs)):
                    subst[(id(node), i)] = (first, i)
                continue
            seen[key] = node
        kept.append(node)
    program.nodes = kept
    program.substitute(subst)
    return program


def _resolve(subst, ref):
    return subst.get((id(ref[0]), ref[1]), ref)


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
    return (opdef.name, tuple((id(n), i) for n, i in node.inputs), attrs)


def _freeze(value):
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, DType):
        return value.name
    if isinstance(value, (np.ndarray, np.generic)):
        return (str(value.dtype), np.shape(value), np.asarray(value).tobytes())
    return value
