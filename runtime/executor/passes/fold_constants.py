"""Constant folding: a stateless node whose inputs are all constants is computed once.

A node whose run-time check (`OpDef.nonzero`) fails on its constants is left to fail when it
runs; a check on a constant input that passes is dropped (`Node.checks`), so an integer
division by a non-zero constant runs no guard.
"""
import numpy as np

from runtime.ops.registry import check_nonzero


def fold_constants(program):
    for node in program.nodes:
        _drop_passing_checks(node)
        opdef = node.opdef
        if (not opdef.foldable or opdef.kernel is None or opdef.bind_kernel is not None or
                opdef.control_flow or not node.inputs or len(node.outputs) != 1 or
                node.control or node.checks or
                any(value.constant is None for value in node.inputs)):
            continue
        dtype, shape = node.outputs[0].dtype, node.outputs[0].shape
        if not (dtype.is_numeric or dtype.is_bool):
            continue
        try:
            value = opdef.kernel(*[v.constant for v in node.inputs],
                                 **opdef.kernel_attrs(node.attrs))
        except Exception:  # noqa: BLE001 - the op raises when (and only if) it runs
            continue
        value = np.asarray(value, dtype=dtype.np_dtype)
        if not shape.is_compatible_with(value.shape):
            continue
        node.make_const(value[()] if value.ndim == 0 else value)
    return program


def _drop_passing_checks(node):
    kept = []
    for i in node.checks:
        divisor = node.inputs[i].constant
        try:
            if divisor is None:
                raise ValueError  # not known before run time
            check_nonzero(np.asarray(divisor))
        except Exception:  # noqa: BLE001 - it stays, to fail (or pass) at run time
            kept.append(i)
    node.checks = tuple(kept)
