"""Native rules of the reductions: Sum Mean Prod Max Min Any All over every axis (and keepdims),
Sum and Mean of a matrix over one axis (and keepdims), ArgMax and ArgMin of a vector
(helpers.py holds the loops they call). A float sum over every axis of an elementwise op's
value is fused into the loops computing it (elementwise.fused_sum)."""
import numpy as np

from runtime.executor.native.rules import Unsupported, constant_value, lowers
from runtime.executor.native.rules.elementwise import fused_sum
from runtime.ops import reduce


def _reduction(function, start=None):
    """`function` is a helper reducing all elements (see helpers.py); `start`: the sum or
    product helpers take the accumulator's start, a float64 or int64 by the input's dtype."""
    def lower(lowering, node, inputs, depth):
        x = node.inputs[0]
        axes = constant_value(node.inputs[1])
        rank = x.shape.rank
        if axes is None or rank is None:
            raise Unsupported(node, 'its axes or its input rank are not known when tracing')
        axes = {int(a) % rank for a in np.ravel(axes)} if rank else set()
        first = '' if start is None else f', {float(start) if x.dtype.is_floating else start}'
        if rank == 0 or not axes:
            expr = inputs[0]
        elif axes == set(range(rank)):
            if x in lowering.fused:  # no array of the elements (its size is known)
                expr, size = fused_sum(lowering, x, depth), x.shape.num_elements()
            else:
                expr, size = f'{function}({inputs[0]}{first})', f'{inputs[0]}.size'
            if node.opdef is reduce.OPS['reduce_mean']:
                expr = f'{expr} / {size}'
            if node.attrs.get('keep_dims'):
                expr = f'np.full({(1,) * rank!r}, {expr})'
        elif rank == 2 and function == 'sum_all':
            axis = axes.pop()
            expr = f'sum_axis({inputs[0]}, {axis}{first})'
            if node.opdef is reduce.OPS['reduce_mean']:  # integer means truncate, as the cast
                expr = f'{expr} / {inputs[0]}.shape[{axis}]'
            if node.attrs.get('keep_dims'):
                kept = f'1, {inputs[0]}.shape[1]' if axis == 0 else f'{inputs[0]}.shape[0], 1'
                expr = f'reshaped({expr}, ({kept}))'
        else:
            raise Unsupported(node, 'native code reduces over all axes, or sums and averages '
                                    'a matrix over one')
        return lowering.assign(node, expr, depth)
    return lower


def _arg_reduction(function):
    def lower(lowering, node, inputs, depth):
        axis = constant_value(node.inputs[1])
        rank = node.inputs[0].shape.rank
        if axis is None or rank != 1:
            raise Unsupported(node, 'native code takes argmax/argmin of vectors')
        return lowering.assign(node, f"{function}({inputs[0]})", depth)
    return lower


for _op, _function, _start in (('reduce_sum', 'sum_all', 0), ('reduce_mean', 'sum_all', 0),
                               ('reduce_prod', 'prod_all', 1), ('reduce_max', 'max_all', None),
                               ('reduce_min', 'min_all', None), ('reduce_any', 'any_all', None),
                               ('reduce_all', 'all_all', None)):
    lowers(reduce.OPS[_op])(_reduction(_function, _start))
lowers(reduce.ARGMAX)(_arg_reduction('np.argmax'))
lowers(reduce.ARGMIN)(_arg_reduction('np.argmin'))
