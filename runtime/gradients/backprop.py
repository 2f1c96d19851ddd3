"""The backward walk shared by gradient tapes and the gradients of If/While bodies.

`backprop(ops, targets, target_grads, sources)` walks recorded ops (graph Operations, or the
eager tape's `EagerOp` records) in reverse, asks each op's `OpDef.gradient` for its input
gradients and sums what reaches each tensor. Only ops on a path from a source to a target run
their gradient functions, and only float tensors (and variable handles) receive gradients.
"""
from dataclasses import dataclass
from typing import Any

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.ops import list_ops
from runtime.ops.creation import zeros_like
from runtime.ops.math import add
from runtime.ops.registry import NO_GRADIENT, OpDef


@dataclass(slots=True, eq=False)
class EagerOp:
    """The eager tape's record of an op that ran: what a gradient function reads from a graph
    Operation (`inputs`, `outputs`, `attrs` with the op's defaults, `get_attr`, `opdef`)."""

    opdef: OpDef
    inputs: list
    given_attrs: dict | None  # as the caller passed them; `attrs` adds the defaults
    outputs: list
    reached: Any = None  # set by `backprop`: the ids of the tensors gradients flow into

    @property
    def type(self):
        return self.opdef.name

    @property
    def attrs(self):
        return {**self.opdef.defaults, **(self.given_attrs or {})}

    def get_attr(self, name):
        given = self.given_attrs
        if given and name in given:
            return given[name]
        try:
            return self.opdef.defaults[name]
        except KeyError:
            raise ValueError(f'Op {self.opdef.name} has no attr {name!r}; it has '
                             f'{sorted(self.attrs)}.') from None


_DIFFERENTIABLE = frozenset([d for d in dtypes.PUBLIC if d.is_floating or d.is_complex] +
                            [dtypes.resource, dtypes.variant])


def differentiable(t: Any):
    """Whether gradients flow into `t`: float tensors, variable handles (a graph's resource
    tensor or, eagerly, the variable's storage, whose dtype is the variable's) and TensorLists
    (`variant`; their gradient is the list of their elements' gradients)."""
    return getattr(t, 'dtype', None) in _DIFFERENTIABLE


def needs_gradient(op: Any, i: int) -> bool:
    """Whether the gradient of `op`'s input `i` is wanted by the backward walk running: False
    only when it is known unused (the input depends on no source, or is not differentiable),
    so a rule may leave it out (TensorFlow's `skip_input_indices`, which its eager tape gives
    the rules); a graph's gradient ops that nothing uses are pruned anyway."""
    reached = getattr(op, 'reached', None)
    if reached is None:
        return True
    t = op.inputs[i]
    return id(t) in reached and getattr(t, 'dtype', None) in _DIFFERENTIABLE


def _total(grads):
    total = grads[0]
    for g in grads[1:]:
        total = add_gradients(total, g)
    return total


def add_gradients(a, b):
    """a + b for two gradients of one tensor (elementwise for TensorList gradients)."""
    if a.dtype is dtypes.variant:
        x = list_ops.stack_list(a, b.dtype, TensorShape(None))
        return list_ops.from_tensor(x + list_ops.stack_list(b, b.dtype, TensorShape(None)))
    return add(a, b)


def backprop(ops, targets, target_grads, sources):
    """Gradients of `targets` (with incoming gradients `target_grads`) for each of `sources`.

    `ops` are in the order they ran. Returns one entry per source: the summed gradient, or None
    when no gradient reaches it.
    """
    source_ids = {id(s) for s in sources}
    reached = set(source_ids)
    live = []
    for op in ops:  # forward: the ops that depend on a source
        if op.opdef.gradient is NO_GRADIENT:
            continue  # no gradient flows back through it (StopGradient, comparisons)
        for t in op.inputs:
            if id(t) in reached:
                live.append(op)
                for out in op.outputs:
                    reached.add(id(out))
                break
    pending = {}  # id(tensor) -> gradients that reached it, not yet summed
    for t, g in zip(targets, target_grads):
        if g is not None and id(t) in reached:
            pending.setdefault(id(t), []).append(g)
    for op in reversed(live):
        outputs = op.outputs
        if len(outputs) == 1:  # the common case, without the lists
            key = id(outputs[0])
            gs = pending.get(key) if key in source_ids else pending.pop(key, None)
            if not gs:
                continue
            grads = [gs[0] if len(gs) == 1 else _total(gs)]
        else:
            incoming = [pending.get(id(t)) for t in outputs]
            if not any(incoming):
                continue
            zeros = not op.opdef.gradient_takes_none
            grads = [(gs[0] if len(gs) == 1 else _total(gs)) if gs else
                     zeros_like(t) if zeros and t.dtype.is_floating else None  # unused output
                     for t, gs in zip(outputs, incoming)]
        opdef = op.opdef
        if type(op) is EagerOp:
            op.reached = reached  # for `needs_gradient`
        if opdef.gradient is None:
            origin = getattr(op, 'origin', None)
            where = f' (created at {origin[0]}:{origin[1]})' if origin else ''
            raise LookupError(
                f'No gradient is declared for op {opdef.name!r}{where}, which the gradient '
                f'passes through; declare one with `defgradient` (or `not_differentiable`) in '
                f'runtime/gradients/rules/ (docs/gradients.md), or wrap its input in '
                f'rt.stop_gradient.')
        input_grads = opdef.gradient(op, *grads)
        for t, g in zip(op.inputs, input_grads):
            if g is not None:
                key = id(t)
                if key in reached and getattr(t, 'dtype', None) in _DIFFERENTIABLE:
                    gs = pending.get(key)
                    if gs is None:
                        pending[key] = [g]
                    else:
                        gs.append(g)
    result = []
    for s in sources:
        gs = pending.get(id(s))
        result.append(None if not gs else _total(gs) if len(gs) > 1 else gs[0])
    return result
