"""`rt.math`: elementwise math, reductions and the other `tf.math` names.

The same function objects as the top-level names (`rt.math.sigmoid is rt.sigmoid`); the ops
live in `runtime/ops/` (math, elementwise, reduce, stats, scan, nn).
"""
from runtime import math_special as special  # noqa: F401 - the module rt.math.special
from runtime.ops.array_more import invert_permutation, rint, truncatediv, truncatemod
from runtime.ops.bitwise import angle, conj, imag, nextafter, real
from runtime.ops.compare import (
                                 equal,
                                 greater,
                                 greater_equal,
                                 less,
                                 less_equal,
                                 logical_and,
                                 logical_not,
                                 logical_or,
                                 not_equal,
)
from runtime.ops.composite_math import (
                                 accumulate_n,
                                 is_non_decreasing,
                                 is_strictly_increasing,
                                 lbeta,
                                 polyval,
                                 reciprocal_no_nan,
                                 segment_max,
                                 segment_mean,
                                 segment_min,
                                 unsorted_segment_max,
                                 unsorted_segment_mean,
                                 unsorted_segment_min,
                                 unsorted_segment_sqrt_n,
                                 xlog1py,
                                 zero_fraction,
)
from runtime.ops.elementwise import (
                                 acos,
                                 acosh,
                                 add_n,
                                 asin,
                                 asinh,
                                 atan,
                                 atan2,
                                 atanh,
                                 cosh,
                                 divide_no_nan,
                                 erf,
                                 erfc,
                                 expm1,
                                 is_finite,
                                 is_inf,
                                 is_nan,
                                 log1p,
                                 log_sigmoid,
                                 logical_xor,
                                 multiply_no_nan,
                                 reciprocal,
                                 rsqrt,
                                 sinh,
                                 softplus,
                                 squared_difference,
                                 tan,
                                 truediv,
                                 xdivy,
                                 xlogy,
)
from runtime.ops.math import (
                                 abs,
                                 add,
                                 ceil,
                                 cos,
                                 divide,
                                 exp,
                                 floor,
                                 floordiv,
                                 log,
                                 maximum,
                                 minimum,
                                 mod,
                                 multiply,
                                 negative,
                                 pow,
                                 relu,
                                 round,
                                 sigmoid,
                                 sign,
                                 sin,
                                 sqrt,
                                 square,
                                 subtract,
                                 tanh,
)
from runtime.ops.nn import log_softmax, softmax, softsign
from runtime.ops.reduce import (
                                 argmax,
                                 argmin,
                                 reduce_all,
                                 reduce_any,
                                 reduce_max,
                                 reduce_mean,
                                 reduce_min,
                                 reduce_prod,
                                 reduce_sum,
)
from runtime.ops.scan import (
                                 bincount,
                                 confusion_matrix,
                                 cumprod,
                                 cumsum,
                                 cumulative_logsumexp,
                                 in_top_k,
                                 segment_sum,
                                 top_k,
)
from runtime.ops.segment_prod import segment_prod, unsorted_segment_prod
from runtime.ops.slicing import unsorted_segment_sum
from runtime.ops.special import digamma, lgamma, polygamma
from runtime.ops.special_more import (
                                 bessel_i0,
                                 bessel_i0e,
                                 bessel_i1,
                                 bessel_i1e,
                                 betainc,
                                 erfcinv,
                                 erfinv,
                                 igamma,
                                 igammac,
                                 ndtri,
                                 zeta,
)
from runtime.ops.stats import (
                                 count_nonzero,
                                 l2_normalize,
                                 reduce_euclidean_norm,
                                 reduce_logsumexp,
                                 reduce_std,
                                 reduce_variance,
)
from runtime.structural import saturate_cast, scalar_mul

floormod = mod

__all__ = [
    'invert_permutation', 'nextafter', 'rint', 'truncatediv', 'truncatemod', 'accumulate_n',
    'is_non_decreasing', 'is_strictly_increasing', 'lbeta', 'polyval',
    'reciprocal_no_nan', 'saturate_cast', 'scalar_mul', 'segment_max', 'segment_mean',
    'segment_min', 'unsorted_segment_max', 'unsorted_segment_mean', 'unsorted_segment_min',
    'unsorted_segment_sqrt_n', 'xlog1py', 'zero_fraction',
    'abs', 'acos', 'acosh', 'add', 'add_n', 'argmax', 'argmin', 'asin', 'asinh', 'atan',
    'atan2', 'atanh', 'bincount', 'ceil', 'confusion_matrix', 'cos', 'cosh', 'count_nonzero',
    'cumprod', 'cumsum', 'cumulative_logsumexp', 'digamma', 'divide', 'divide_no_nan', 'equal',
    'erf', 'erfc', 'exp', 'expm1', 'floor', 'floordiv', 'floormod', 'greater', 'greater_equal',
    'in_top_k', 'is_finite', 'is_inf', 'is_nan', 'l2_normalize', 'less', 'less_equal', 'lgamma',
    'log', 'log1p', 'log_sigmoid', 'log_softmax', 'logical_and', 'logical_not', 'logical_or',
    'logical_xor', 'maximum', 'minimum', 'mod', 'multiply', 'multiply_no_nan', 'negative',
    'not_equal', 'polygamma', 'pow', 'reciprocal', 'reduce_all', 'reduce_any',
    'reduce_euclidean_norm', 'reduce_logsumexp', 'reduce_max', 'reduce_mean', 'reduce_min',
    'reduce_prod', 'reduce_std', 'reduce_sum', 'reduce_variance', 'relu', 'round', 'rsqrt',
    'segment_sum', 'sigmoid', 'sign', 'sin', 'sinh', 'softmax', 'softplus', 'softsign', 'sqrt',
    'square', 'squared_difference', 'subtract', 'tan', 'tanh', 'top_k', 'truediv',
    'unsorted_segment_sum', 'xdivy', 'xlogy',
]

__all__ += ['angle', 'conj', 'imag', 'real']  # the parts of complex numbers
__all__ += ['bessel_i0', 'bessel_i0e', 'bessel_i1', 'bessel_i1e', 'betainc', 'erfcinv', 'erfinv',
            'igamma', 'igammac', 'ndtri', 'segment_prod', 'unsorted_segment_prod', 'zeta']
