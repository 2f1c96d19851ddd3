"""What every gradient rule uses: `defgradient`, `not_differentiable`, and `unbroadcast`.

The op modules (runtime/ops/) declare ops without their gradients; the modules of this package
attach one to each OpDef after the ops exist, as JAX's `ad.defjvp` and TensorFlow's
`*_grad.py` files do. A rule is built from the public op functions, so a gradient graph is an
ordinary graph (docs/gradients.md).
"""
import builtins

import numpy as np

from runtime.ops.dispatch import apply
from runtime.ops.infer import known_shape
from runtime.ops.reduce import BROADCAST_GRADIENT_ARGS, REDUCE_SUM, reduce_sum
from runtime.ops.registry import NO_GRADIENT
from runtime.ops.shaping import RESHAPE
from runtime.ops.shaping import reshape as reshape_
from runtime.ops.shaping import shape as shape_


def defgradient(*opdefs, takes_none=False):
    """A decorator: `fn(op, *output_grads) -> [input gradient, ...]` becomes the `gradient` of
    each of `opdefs`. An op that already has one is a ValueError (one rule per op).
    `takes_none`: `fn` takes None for an output nothing depends on (`OpDef.gradient_takes_none`)
    instead of zeros."""
    def attach(fn):
        for opdef in opdefs:
            if opdef.gradient is not None:
                raise ValueError(f'The gradient of {opdef.name} is declared twice.')
            opdef.gradient = fn
            opdef.gradient_takes_none = takes_none
        return fn
    return attach


def not_differentiable(*opdefs):
    """Declare `opdefs` deliberately not differentiable (`NO_GRADIENT`): comparisons, integer
    results, shapes, random numbers, side effects (TensorFlow's `ops.NotDifferentiable`)."""
    defgradient(*opdefs)(NO_GRADIENT)


_UNBROADCAST_PLANS = {}  # (grad shape, operand shape) -> what unbroadcast adds between them


_KEEP_DIMS = {'keep_dims': True}


def _unbroadcast_plan(gl, xl):
    """(axes to sum or None, the Sum's attrs, shape to reshape to or None) from `gl` back to
    `xl`, the vectors read-only int32 (they are shared by every call with these shapes). Of
    equal ranks the Sum keeps the summed dims (as 1s: `x`'s shape, no Reshape)."""
    lead = len(gl) - len(xl)
    axes = list(builtins.range(lead)) + [lead + i for i, d in enumerate(xl)
                                          if d == 1 and gl[lead + i] != 1]
    summed = [d for i, d in enumerate(gl) if i not in axes]
    keep = bool(axes) and lead == 0
    axes_vector = np.array(axes, dtype=np.int32) if axes else None
    shape = None if keep or summed == list(xl) else np.array(xl, dtype=np.int32)
    for a in (axes_vector, shape):
        if a is not None:
            a.flags.writeable = False
    return axes_vector, _KEEP_DIMS if keep else None, shape


def unbroadcast(grad, x):
    """`grad` (of a broadcasting op's output) summed back to operand `x`'s shape.

    With both shapes known at trace time this is at most one Sum and one Reshape chosen now (no
    op at all when the shapes agree); otherwise op `BroadcastGradientArgs` picks the axes when
    the graph runs.
    """
    gl, xl = known_shape(grad), known_shape(x)
    if gl is not None and xl is not None:
        if gl == xl:
            return grad
        plan = _UNBROADCAST_PLANS.get((gl, xl))
        if plan is None:
            if len(_UNBROADCAST_PLANS) > 4096:  # shapes that vary without end: start over
                _UNBROADCAST_PLANS.clear()
            plan = _UNBROADCAST_PLANS[gl, xl] = _unbroadcast_plan(gl, xl)
        axes, attrs, shape = plan
        out = grad if axes is None else apply(REDUCE_SUM, [grad, axes], attrs)
        return out if shape is None else apply(RESHAPE, [out, shape])
    full = shape_(x)
    axes, _ = apply(BROADCAST_GRADIENT_ARGS, [full, shape_(grad)])
    return reshape_(reduce_sum(grad, axes), full)
