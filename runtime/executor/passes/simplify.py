"""Arithmetic simplification: `x*1`, `x/1`, `x+0`, `x-0`, `-(-x)` and Identity become `x`.

The identities are `OpDef` fields: `neutral` (a constant operand that gives back the other one)
and `involution` (f(f(x)) == x). A rewrite happens only when `x` already has the node's dtype
and shape, so broadcasting against the constant could not have changed the result's shape.
Then each op's own rewrite rule (`OpDef.rewrite`, like StridedSlice's `x[i]` -> ScalarIndex)
replaces the node's op and inputs in place.

A function's outputs wait on a NoOp that waits on its stateful ops (TensorFlow's automatic
control dependencies, which a traced function's graph shows as TensorFlow's does): the program
runs its stateful nodes in order and always, so those control edges order nothing; they go
first (the NoOp is then pruned, the output Identities simplified).
"""
import numpy as np

from runtime.core.dtypes import of_value
from runtime.core.shapes import TensorShape
from runtime.executor.ir import Node
from runtime.ops.control import NO_OP
from runtime.ops.registry import CONST, IDENTITY


def simplify(program):
    _drop_output_ordering(program)
    for node in list(program.nodes):
        opdef = node.opdef
        replacement = None
        if opdef is IDENTITY and not node.control:
            replacement = node.inputs[0]
        elif opdef.involution:
            source = node.inputs[0].node
            if source.opdef is opdef:
                replacement = source.inputs[0]
        elif opdef.neutral is not None:
            replacement = _neutral_operand(node, *opdef.neutral)
        if replacement is not None:
            program.replace_all_uses_with(node.outputs[0], replacement)
        elif node.opdef.rewrite is not None and not node.control:
            _apply_rewrite(program, node)
    return program


def _drop_output_ordering(program):
    """Control edges from Identities onto a NoOp that only waits on stateful nodes."""
    ordering = {node for node in program.nodes
                if node.opdef is NO_OP and node.control and not node.inputs and
                all(c.opdef.stateful for c in node.control)}
    if not ordering:
        return
    for node in program.nodes:
        if node.opdef is IDENTITY and node.control and all(c in ordering for c in node.control):
            node.control = []


def _apply_rewrite(program, node):
    rewritten = node.opdef.rewrite(node)
    if rewritten is None:
        return
    opdef, inputs = rewritten
    values = []
    for value in inputs:
        if not hasattr(value, 'users'):  # a numpy constant: a new Const node before `node`
            dtype = of_value(value)
            const = Node(node.op, CONST, f'{node.name}/{opdef.input_name(len(values))}', [],
                         [], {'dtype': dtype, 'value': value}, None, node.origin,
                         [(dtype, TensorShape(np.shape(value)))])
            program.nodes.insert(program.nodes.index(node), const)
            value = const.outputs[0]
        values.append(value)
    node.opdef = opdef
    node.inputs = values
    node.attrs = {}
    node.checks = ()


def _neutral_operand(node, neutral, positions):
    for pos in positions:
        value = node.inputs[pos].constant
        if value is None:
            continue
        value = np.asarray(value)
        if value.dtype == object or not np.all(value == neutral):
            continue
        other = node.inputs[1 - pos]
        out = node.outputs[0]
        if other.dtype is not out.dtype or not _keeps_shape(other.shape, value, out.shape):
            continue
        return other
    return None


def _keeps_shape(shape, value, out_shape):
    if shape.rank is None:
        return False
    if value.size == 1 and value.ndim <= shape.rank:
        return True
    return shape.is_fully_defined() and shape == out_shape
