"""Helpers the gradients of the `rt.math`/`rt.nn`/`rt.linalg` ops share.

`unbroadcast` sums a broadcasting op's output gradient back to an operand's shape (SPEC §4).
"""
from runtime.convert import convert_to_tensor
from runtime.ops.array import reshape, shape as shape_
from runtime.ops.reduce import reduce_sum


def unbroadcast(grad, x):
    """`grad` (of a broadcasting op's output) summed back to operand `x`'s shape.

    With both ranks known at trace time the summed axes are chosen now (no op when the shapes
    agree): the leading axes `x` lacks, and the axes where `x` has size 1 and `grad` does not.
    """
    x = convert_to_tensor(x)
    gs, xs = grad.shape, x.shape
    if gs.rank is None or xs.rank is None:
        raise ValueError(f'unbroadcast needs known ranks, got {gs} and {xs}')
    gl, xl = gs.as_list(), xs.as_list()
    if gl == xl and None not in gl:
        return grad
    lead = len(gl) - len(xl)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(xl)
                                if d == 1 and gl[lead + i] != 1]
    out = reduce_sum(grad, axes) if axes else grad
    if out.shape.as_list() == xl and None not in xl:
        return out
    return reshape(out, shape_(x))
