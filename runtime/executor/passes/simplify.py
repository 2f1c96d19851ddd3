"""Arithmetic simplification: `x*1`, `x/1`, `x+0`, `x-0`, `-(-x)` and Identity become `x`.

The identities are `OpDef` fields: `neutral` (a constant operand that gives back the other one)
and `involution` (f(f(x)) == x). A rewrite happens only when `x` already has the node's dtype
and shape, so broadcasting against the constant could not have changed the result's shape.
"""
import numpy as np

from runtime.ops.registry import CONST, IDENTITY


def simplify(program):
    subst = {}
    for node in program.nodes:
        node.inputs = [subst.get((id(n), i), (n, i)) for n, i in node.inputs]
        opdef = node.opdef
        replacement = None
        if opdef is IDENTITY and not node.control:
            replacement = node.inputs[0]
        elif opdef.involution:
            source, _ = node.inputs[0]
            if source.opdef is opdef:
                replacement = source.inputs[0]
        elif opdef.neutral is not None:
            replacement = _neutral_operand(node, *opdef.neutral)
        if replacement is not None:
            subst[(id(node), 0)] = replacement
    program.substitute(subst)
    return program


def _neutral_operand(node, neutral, positions):
    for pos in positions:
        const, _ = node.inputs[pos]
        if const.opdef is not CONST:
            continue
        value = np.asarray(const.attrs['value'])
        if value.dtype == object or not np.all(value == neutral):
            continue
        other_node, other_index = node.inputs[1 - pos]
        dtype, shape = other_node.specs[other_index]
        if dtype is not node.specs[0][0] or not _keeps_shape(shape, value, node.specs[0][1]):
            continue
        return node.inputs[1 - pos]
    return None


def _keeps_shape(shape, value, out_shape):
    if shape.rank is None:
        return False
    if value.size == 1 and value.ndim <= shape.rank:
        return True
    return shape.is_fully_defined() and shape == out_shape
