"""Entries of the elementwise, reduction, special-function and bitwise ops."""
from typing import Any, Callable

import numpy as np

from tools.opinfo.samples import (
    ALL_FLOATS,
    FLOATS,
    INF,
    INTS,
    NAN,
    NUMBERS,
    REALS,
    DType,
    OpInfo,
    R,
    Sample,
    T,
    binary,
    cases,
    reduction,
    s,
    t,
    unary,
    values,
)


def unary_entries() -> list[OpInfo]:
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ('Abs', 'math.abs', {'dtypes': REALS}), ('Neg', 'math.negative', {'dtypes': REALS}),
        ('Sign', 'math.sign', {'dtypes': REALS}), ('Square', 'math.square', {'dtypes': REALS}),
        ('Acos', 'math.acos', {'lo': -0.9, 'hi': 0.9, 'edges': (0.0, 1.0, -1.0)}),
        ('Asin', 'math.asin', {'lo': -0.9, 'hi': 0.9, 'edges': (0.0, 1.0, -1.0)}),
        ('Atanh', 'math.atanh', {'lo': -0.9, 'hi': 0.9}),
        ('Acosh', 'math.acosh', {'lo': 1.1, 'hi': 3.0, 'edges': (1.0,)}),
        ('Asinh', 'math.asinh', {}), ('Atan', 'math.atan', {}), ('Cos', 'math.cos', {}),
        ('Cosh', 'math.cosh', {}), ('Sin', 'math.sin', {}), ('Sinh', 'math.sinh', {}),
        ('Tan', 'math.tan', {'lo': -1.2, 'hi': 1.2}), ('Tanh', 'math.tanh', {}),
        ('Exp', 'math.exp', {}), ('Expm1', 'math.expm1', {}), ('Erf', 'math.erf', {}),
        ('Erfc', 'math.erfc', {}), ('Sigmoid', 'math.sigmoid', {}),
        ('Log', 'math.log', {'lo': 0.1, 'hi': 3.0}),
        ('Log1p', 'math.log1p', {'lo': -0.9, 'hi': 3.0, 'edges': (0.0, -0.0, -1.0)}),
        ('Sqrt', 'math.sqrt', {'lo': 0.1, 'hi': 3.0}),
        ('Rsqrt', 'math.rsqrt', {'lo': 0.1, 'hi': 3.0}),
        ('Reciprocal', 'math.reciprocal', {'lo': 0.5, 'hi': 3.0}),
        ('Lgamma', 'math.lgamma', {'lo': 0.2, 'hi': 4.0, 'edges': (1.0, 2.0, 0.0, -1.0)}),
        ('Digamma', 'math.digamma', {'lo': 0.2, 'hi': 4.0, 'edges': (1.0, 0.0, -1.0)}),
        ('Floor', 'math.floor', {'edges': (0.0, -0.0, 0.5, -0.5, 1.0)}),
        ('Ceil', 'math.ceil', {'edges': (0.0, -0.0, 0.5, -0.5, 1.0)}),
        ('Round', 'math.round', {'edges': (0.5, 1.5, 2.5, -0.5, -1.5, 0.0, -0.0)}),
        ('Softplus', 'math.softplus', {'edges': (0.0, 30.0, -30.0)}),
        ('Softsign', 'math.softsign', {}),
        ('Relu', 'nn.relu', {'dtypes': REALS}),
        ('Relu6', 'nn.relu6', {'dtypes': REALS, 'lo': -2.0, 'hi': 8.0,
                               'edges': (0.0, -0.0, 6.0)}),
        ('Elu', 'nn.elu', {}), ('Selu', 'nn.selu', {}),
        ('LeakyRelu', 'nn.leaky_relu', {'alpha': 0.3}),
        ('IsFinite', 'math.is_finite', {}), ('IsInf', 'math.is_inf', {}),
        ('IsNan', 'math.is_nan', {}),
    ]
    smooth_second = {'Abs', 'Neg', 'Square', 'Sin', 'Cos', 'Tanh', 'Exp', 'Log', 'Sigmoid',
                     'Sqrt', 'Relu', 'Elu', 'Selu', 'LeakyRelu', 'Softplus', 'Reciprocal',
                     'Rsqrt', 'Atan', 'Erf'}
    gradient_ops = {'Relu': ('ReluGrad',), 'LeakyRelu': ('LeakyReluGrad',)}  # by grad2
    return [OpInfo(op, call, unary(**kw), 'unary', grad2=op in smooth_second,
                   ops=gradient_ops.get(op, ())) for op, call, kw in rows]


def binary_entries() -> list[OpInfo]:
    compare = {'dtypes': REALS}
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ('AddV2', 'math.add', {'dtypes': NUMBERS}),
        ('Sub', 'math.subtract', {'dtypes': NUMBERS}),
        ('Mul', 'math.multiply', {'dtypes': NUMBERS}),
        ('RealDiv', 'math.divide', {'dtypes': ALL_FLOATS, 'lo': 0.5, 'hi': 2.0}),
        ('Maximum', 'math.maximum', {}), ('Minimum', 'math.minimum', {}),
        ('Pow', 'math.pow', {'dtypes': FLOATS, 'lo': 0.5, 'hi': 2.0,
                             'edges': (0.0, 1.0, -1.0, 2.0)}),
        ('Atan2', 'math.atan2', {'dtypes': FLOATS}),
        ('FloorDiv', 'math.floordiv', {'dtypes': REALS, 'lo': 1.0, 'hi': 5.0}),
        ('FloorMod', 'math.floormod', {'dtypes': REALS, 'lo': 1.0, 'hi': 5.0}),
        ('SquaredDifference', 'math.squared_difference', {'dtypes': REALS}),
        ('DivNoNan', 'math.divide_no_nan', {'dtypes': FLOATS}),
        ('MulNoNan', 'math.multiply_no_nan', {'dtypes': FLOATS}),
        ('Xlogy', 'math.xlogy', {'dtypes': FLOATS, 'lo': 0.1, 'hi': 2.0}),
        ('Xdivy', 'math.xdivy', {'dtypes': FLOATS, 'lo': 0.1, 'hi': 2.0}),
        ('Equal', 'math.equal', compare), ('NotEqual', 'math.not_equal', compare),
        ('Greater', 'math.greater', compare), ('GreaterEqual', 'math.greater_equal', compare),
        ('Less', 'math.less', compare), ('LessEqual', 'math.less_equal', compare),
        ('LogicalAnd', 'math.logical_and', {'dtypes': ('bool',), 'edges': ()}),
        ('LogicalOr', 'math.logical_or', {'dtypes': ('bool',), 'edges': ()}),
    ]
    second = {'AddV2', 'Sub', 'Mul', 'RealDiv', 'Maximum', 'Minimum', 'Pow',
              'SquaredDifference'}
    entries = [OpInfo(op, call, binary(**kw), 'binary', grad2=op in second)
               for op, call, kw in rows]
    order = t([[0.0], [1.0], [2.0]], 'float64')  # polygamma's whole orders
    entries.append(OpInfo('Polygamma', 'math.polygamma', cases(
        s('random', order, R((3, 4), 'float64', 0.5, 3.0)),
        s('float32', t([1.0, 3.0], 'float32'), R((2,), 'float32', 0.5, 3.0)),
        s('broadcast', t(1.0, 'float64'), R((4,), 'float64', 0.5, 3.0)),
        s('poles', t([1.0, 2.0, 1.0, 0.0, 1.5], 'float64'),
          t([0.0, -1.0, -2.5, -3.0, 1.0], 'float64')),
        s('ints-invalid', t([1], 'int32'), t([2], 'int32'))), 'binary'))
    entries.append(OpInfo('math.logical_xor', 'math.logical_xor',
                          binary(dtypes=('bool',), edges=()), 'binary'))
    entries.append(OpInfo('LogicalNot', 'math.logical_not',
                          unary(dtypes=('bool',), edges=(), specials=()), 'unary'))
    return entries


def _clip(rng: np.random.Generator) -> list[Sample]:
    x = values(rng, (3, 4), 'float32')
    edges = t([-1.0, -0.5, 0.0, 0.5, 1.0, 2.0], 'float32')
    return [Sample('random', (T(x), -0.5, 0.5), smooth=True),
            Sample('bounds', (edges, -0.5, 1.0)),
            Sample('tensor-bounds', (edges, t([-1.0] * 6, 'float32'), t([0.0] * 6, 'float32'))),
            Sample('int64', (t([1, 5, -3], 'int64'), 0, 2)),
            Sample('empty', (T(values(rng, (0,), 'float32')), 0.0, 1.0))]


def reduction_entries() -> list[OpInfo]:
    zeros = ((1.0, 0.0, 2.0), (0.0, 0.0, 3.0))
    ties = ((1.0, 1.0, 0.5), (2.0, 2.0, 2.0))
    rows: list[tuple[str, str, dict[str, Any], bool]] = [
        ('Sum', 'math.reduce_sum', {'dtypes': NUMBERS}, True),
        ('Mean', 'math.reduce_mean', {'dtypes': REALS}, True),
        ('Prod', 'math.reduce_prod', {'dtypes': REALS, 'edges': zeros}, False),
        ('Max', 'math.reduce_max', {'edges': ties}, False),
        ('Min', 'math.reduce_min', {'edges': ties}, False),
        ('EuclideanNorm', 'math.reduce_euclidean_norm', {'dtypes': FLOATS,
                                                         'edges': zeros}, False),
        ('All', 'math.reduce_all', {'dtypes': ('bool',)}, False),
        ('Any', 'math.reduce_any', {'dtypes': ('bool',)}, False),
        ('math.reduce_logsumexp', 'math.reduce_logsumexp', {'dtypes': FLOATS}, False),
        ('math.reduce_variance', 'math.reduce_variance', {'dtypes': FLOATS}, False),
        ('math.reduce_std', 'math.reduce_std', {'dtypes': FLOATS, 'edges': ties}, False),
        ('math.count_nonzero', 'math.count_nonzero', {'dtypes': REALS, 'edges': zeros},
         False),
    ]
    entries = [OpInfo(op, call, reduction(**kw), 'reduce', grad2=second)
               for op, call, kw, second in rows]
    for op, call in (('ArgMax', 'math.argmax'), ('ArgMin', 'math.argmin')):
        entries.append(OpInfo(op, call, cases(
            s('random', R((3, 4))), s('axis1', R((3, 4), 'int32', -3, 3), axis=1),
            s('ties', t([[1.0, 1.0, 0.0], [2.0, 3.0, 3.0]], 'float32'), axis=1),
            s('int64-axis', R((3, 4), 'float64'), axis=t(0, 'int64')),
            s('output-int32', R((3, 4)), output_type=DType('int32')),
            s('axis-invalid', R((3, 4)), axis=2)), 'reduce'))
    for op, call, kw in (('Cumsum', 'math.cumsum', {}), ('Cumprod', 'math.cumprod', {}),
                         ('CumulativeLogsumexp', 'math.cumulative_logsumexp', {})):
        d = 'float64'
        entries.append(OpInfo(op, call, cases(
            s('random', R((3, 4), d), axis=1),
            s('zeros', t([[1.0, 0.0, 2.0, 3.0], [0.0, 2.0, 0.0, 1.0]], d), axis=1),
            s('exclusive-reverse', R((3, 4), d), axis=0, exclusive=True, reverse=True),
            s('int64-axis', R((3, 4), d), axis=t(1, 'int64')),
            s('int32', R((3, 4), 'int32'), axis=0) if op != 'CumulativeLogsumexp' else
            s('float32', R((3, 4)), axis=0),
            s('axis-invalid', R((3, 4), d), axis=2)), 'reduce', grad2=op == 'Cumsum'))
    entries.append(OpInfo('ClipByValue', 'clip_by_value', _clip, 'binary'))
    return entries


def special_entries() -> list[OpInfo]:
    """The special functions and segment products of runtime/ops/special_more.py and
    runtime/ops/segment_prod.py (fixture family `special`)."""
    d = 'float64'
    unary_rows: list[tuple[str, str, dict[str, Any]]] = [
        ('Erfinv', 'math.erfinv', {'lo': -0.95, 'hi': 0.95, 'edges': (0.0, -0.0, 1.0, -1.0),
                                   'dtypes': FLOATS}),
        ('Ndtri', 'math.ndtri', {'lo': 0.02, 'hi': 0.98, 'edges': (0.0, 0.5, 1.0),
                                 'dtypes': FLOATS}),
        ('math.erfcinv', 'math.erfcinv', {'lo': 0.05, 'hi': 1.95, 'edges': (0.0, 1.0, 2.0),
                                          'dtypes': FLOATS}),
        ('BesselI0', 'math.bessel_i0', {'lo': -4.0, 'hi': 4.0}),
        ('BesselI0e', 'math.bessel_i0e', {'lo': -40.0, 'hi': 40.0}),
        ('BesselI1', 'math.bessel_i1', {'lo': -4.0, 'hi': 4.0}),
        ('BesselI1e', 'math.bessel_i1e', {'lo': -40.0, 'hi': 40.0}),
        ('BesselJ0', 'math.special.bessel_j0', {'lo': -30.0, 'hi': 30.0}),
        ('BesselJ1', 'math.special.bessel_j1', {'lo': -30.0, 'hi': 30.0}),
        ('BesselY0', 'math.special.bessel_y0', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselY1', 'math.special.bessel_y1', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselK0', 'math.special.bessel_k0', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselK0e', 'math.special.bessel_k0e', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0,)}),
        ('BesselK1', 'math.special.bessel_k1', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0, 2.0)}),
        ('BesselK1e', 'math.special.bessel_k1e', {'lo': 0.1, 'hi': 30.0, 'edges': (0.0,)}),
        ('Dawsn', 'math.special.dawsn', {'lo': -8.0, 'hi': 8.0, 'dtypes': FLOATS}),
        ('Expint', 'math.special.expint', {'lo': 0.1, 'hi': 8.0, 'edges': (0.0, -1.0, 50.0),
                                           'dtypes': FLOATS}),
        ('FresnelCos', 'math.special.fresnel_cos', {'lo': -7.0, 'hi': 7.0, 'dtypes': FLOATS}),
        ('FresnelSin', 'math.special.fresnel_sin', {'lo': -7.0, 'hi': 7.0, 'dtypes': FLOATS}),
        ('Spence', 'math.special.spence', {'lo': 0.05, 'hi': 4.0, 'edges': (0.0, 1.0, 0.5),
                                           'dtypes': FLOATS}),
    ]
    out = [OpInfo(op, call, unary(**kw), 'special') for op, call, kw in unary_rows]
    grid_a, grid_x = (g.ravel() for g in np.meshgrid([0.0, 1.0, 3.0, 0.5], [0.0, 1.0, 3.0, 0.5]))

    def incomplete_gamma() -> Callable[[np.random.Generator], list[Sample]]:
        return cases(
            s('random-float64', R((3, 4), d, 0.3, 4.0), R((3, 4), d, 0.3, 4.0)),
            s('random-float32', R((3, 4), 'float32', 0.3, 4.0), R((3, 4), 'float32', 0.3, 4.0)),
            s('broadcast', R((3, 1), d, 0.3, 4.0), R((4,), d, 0.3, 4.0)),
            s('edges', t(grid_a, d), t(grid_x, d)))
    out += [
        OpInfo('Igamma', 'math.igamma', incomplete_gamma(), 'special', ops=('IgammaGradA',)),
        OpInfo('Igammac', 'math.igammac', incomplete_gamma(), 'special'),
        OpInfo('Zeta', 'math.zeta', cases(
            s('random', R((3, 4), d, 1.5, 5.0), R((3, 4), d, 0.5, 3.0)),
            s('random-float32', R((2, 3), 'float32', 1.5, 5.0), R((2, 3), 'float32', 0.5, 3.0)),
            s('edges', t([1.0, 2.0, 2.0, 0.5, 3.0], d), t([1.0, -1.0, -1.5, 2.0, 0.25], d))),
               'special'),
        OpInfo('Betainc', 'math.betainc', cases(
            s('random', R((3, 4), d, 0.5, 4.0), R((3, 4), d, 0.5, 4.0), R((3, 4), d, 0.05, 0.95)),
            s('random-float32', R((4,), 'float32', 0.5, 4.0), R((4,), 'float32', 0.5, 4.0),
              R((4,), 'float32', 0.05, 0.95)),
            s('edges', t([1.0, 2.0, 0.5, 3.0], d), t([1.0, 3.0, 0.5, 2.0], d),
              t([0.0, 1.0, 0.5, 0.999], d))), 'special'),
        OpInfo('SegmentProd', 'math.segment_prod', cases(
            s('random', R((5, 2), d, 0.5, 2.0), t([0, 0, 1, 1, 3], 'int32')),
            s('zeros', t([[1.0, 0.0], [2.0, 0.0], [0.0, 3.0]], d), t([0, 0, 0], 'int64')),
            s('int32', R((4,), 'int32', -3, 3), t([0, 1, 1, 2], 'int32')),
            s('unsorted-invalid', R((3,), d), t([1, 0, 1], 'int32'))), 'special'),
        OpInfo('UnsortedSegmentProd', 'math.unsorted_segment_prod', cases(
            s('random', R((5, 2), d, 0.5, 2.0), t([2, 0, 2, -1, 0], 'int32'), 4),
            s('zeros', t([1.0, 0.0, 2.0, 0.0, 0.0, 5.0], d), t([0, 0, 1, 1, 2, 2], 'int64'), 3),
            s('float32', R((4, 3), 'float32', 0.5, 2.0), t([1, 1, 0, 1], 'int32'), 2)),
               'special'),
    ]
    return out


def bitwise_complex_entries() -> list[OpInfo]:
    """The bitwise, complex-number and integer-rounding elementwise ops."""
    ints = INTS + ('uint8',)
    shifts = {'dtypes': INTS, 'lo': 0.0, 'hi': 5.0, 'edges': ()}
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]]]] = [
        ('BitwiseAnd', 'bitwise.bitwise_and', binary(INTS, -8.0, 8.0, edges=())),
        ('BitwiseOr', 'bitwise.bitwise_or', binary(INTS, -8.0, 8.0, edges=())),
        ('BitwiseXor', 'bitwise.bitwise_xor', binary(INTS, -8.0, 8.0, edges=())),
        ('LeftShift', 'bitwise.left_shift', binary(**shifts)),
        ('RightShift', 'bitwise.right_shift', binary(**shifts)),
        ('Invert', 'bitwise.invert', unary(ints, -8.0, 8.0, edges=(), specials=())),
        ('NextAfter', 'math.nextafter', binary(FLOATS, edges=(0.0, -0.0, 1.0, INF, NAN))),
        ('Rint', 'math.rint', unary(FLOATS, edges=(0.5, 1.5, 2.5, -0.5, -1.5, 0.0, -0.0))),
    ]
    entries = [OpInfo(op, call, gen, 'bitwise', grad=op == 'Rint') for op, call, gen in rows]
    for op, call in (('TruncateDiv', 'truncatediv'), ('TruncateMod', 'truncatemod')):
        entries.append(OpInfo(op, call, cases(
            s('random', R((3, 4), 'int32', 1.0, 9.0), R((3, 4), 'int32', 1.0, 4.0)),
            s('negative', t([-7, 7, -7, 7, 0], 'int64'), t([2, 2, -2, -2, 3], 'int64')),
            s('float', t([-7.5, 7.5, -7.5, 2.0], 'float32'), t([2.0, -2.0, 2.0, 3.0], 'float32')),
            s('broadcast', R((3, 1), 'int32', 1.0, 9.0), t([2, 3], 'int32'))),
            'bitwise', grad=False))
    complex_rows = (('Real', 'math.real'), ('Imag', 'math.imag'), ('Conj', 'math.conj'),
                    ('Angle', 'math.angle'))
    entries += [OpInfo(op, call, cases(
        s('random', R((3, 4), 'complex64')), s('complex128', R((2,), 'complex128')),
        s('zeros', t([0j, -0.0 + 0j, 1j, -1 + 0j], 'complex64')), s('float', R((3,)))),
        'bitwise') for op, call in complex_rows]
    entries.append(OpInfo('Complex', 'complex', cases(
        s('random', R((3, 4)), R((3, 4))), s('float64', R((2,), 'float64'), R((2,), 'float64')),
        s('broadcast', R((3, 1)), R((4,))),
        s('dtypes-invalid', R((2,)), R((2,), 'float64'))), 'bitwise'))
    return entries
