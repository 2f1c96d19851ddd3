"""Helpers the gradients of the `rt.math`/`rt.nn`/`rt.linalg` ops share.

`unbroadcast` sums a broadcasting op's output gradient back to an operand's shape (SPEC §4).
"""
from runtime import dtypes
from runtime.convert import convert_to_tensor
from runtime.ops.array import reshape, shape as shape_
from runtime.ops.compare import equal, logical_and, not_equal, where
from runtime.ops.math import cast
from runtime.ops.reduce import reduce_sum


def unbroadcast(grad, x):
    """`grad` (of a broadcasting op's output) summed back to operand `x`'s shape.

    The leading axes `x` lacks are summed; so are the axes where `x` has size 1 and `grad` does
    not: chosen now when both sizes are known at trace time (no op at all when the shapes
    agree), else by ops that compare the shapes when the graph runs.
    """
    x = convert_to_tensor(x)
    gs, xs = grad.shape, x.shape
    if gs.rank is None or xs.rank is None:
        raise ValueError(f'A broadcasting gradient needs operands of known rank, got shapes '
                         f'{gs} and {xs}.')
    gl, xl = gs.as_list(), xs.as_list()
    if gl == xl and None not in gl:
        return grad
    lead = len(gl) - len(xl)
    if lead:
        grad = reduce_sum(grad, list(range(lead)))
    gl = gl[lead:]
    if None not in xl and None not in gl:
        axes = [i for i, d in enumerate(xl) if d == 1 and gl[i] != 1]
        return reshape(reduce_sum(grad, axes), xl) if axes else grad
    full = shape_(x)
    ones = logical_and(equal(full, 1), not_equal(shape_(grad), 1))
    axes = reshape(cast(where(ones), dtypes.int32), [-1])
    return reshape(reduce_sum(grad, axes, keepdims=True), full)
