"""Arithmetic simplification: `x*1`, `x/1`, `x+0`, `x-0`, `-(-x)` and Identity become `x`.

A rewrite happens only when `x` already has the node's dtype and shape, so broadcasting
against the constant could not have changed the result's shape.
"""
import numpy as np

_NEUTRAL = {  # op: (neutral value, operand positions the constant may take)
    'AddV2': (0, (0, 1)),
    'Sub': (0, (1,)),
    'Mul': (1, (0, 1)),
    'RealDiv': (1, (1,)),
}


def simplify(program):
    subst = {}
    for node in program.nodes:
        node.inputs = [subst.get((id(n), i), (n, i)) for n, i in node.inputs]
        kind = node.type
        replacement = None
        if kind == 'Identity' and not node.control:
            replacement = node.inputs[0]
        elif kind == 'Neg':
            source, _ = node.inputs[0]
            if source.type == 'Neg':
                replacement = source.inputs[0]
        elif kind in _NEUTRAL:
            replacement = _neutral_operand(node, *_NEUTRAL[kind])
        if replacement is not None:
            subst[(id(node), 0)] = replacement
    program.substitute(subst)
    return program


def _neutral_operand(node, neutral, positions):
    for pos in positions:
        const, _ = node.inputs[pos]
        if const.type != 'Const':
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
