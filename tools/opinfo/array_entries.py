"""Entries of the array, index and string ops."""
from typing import Any, Callable

import numpy as np

from tools.opinfo.samples import FLOATS, NAN, REALS, DType, OpInfo, R, Sample, cases, s, t, unary


def array_entries() -> list[OpInfo]:
    d, i64 = 'float64', 'int64'
    x = R((2, 3, 4))
    idx = t([[0, 1], [1, 2]], 'int32')
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Reshape', 'reshape', cases(
            s('random', x, [4, 6]), s('infer', x, [-1, 2]), s('int64', x, t([3, 8], i64)),
            s('scalar', R(()), []), s('size-invalid', x, [5, 5])), {}),
        ('Transpose', 'transpose', cases(
            s('default', x), s('perm', x, [2, 0, 1]), s('int64', x, t([0, 2, 1], i64)),
            s('perm-invalid', x, [0, 1])), {}),
        ('Tile', 'tile', cases(
            s('random', R((2, 3)), [2, 1]), s('int64', R((2, 3), d), t([1, 3], i64)),
            s('zero', R((2, 3)), [0, 2]), s('rank-invalid', R((2, 3)), [2])), {}),
        ('Pad', 'pad', cases(
            s('random', R((2, 3)), [[1, 0], [2, 1]]),
            s('int64', R((2, 3), d), t([[0, 1], [1, 1]], i64))), {}),
        ('PadV2', 'pad', cases(s('constant', R((2, 3)), [[1, 1], [0, 2]],
                                 constant_values=1.5)), {}),
        ('MirrorPad', 'pad', cases(
            s('reflect', R((3, 4)), [[1, 1], [2, 1]], mode='REFLECT'),
            s('symmetric', R((3, 4), d), [[2, 0], [0, 3]], mode='SYMMETRIC')),
         {'ops': ('MirrorPadGrad',)}),
        ('ConcatV2', 'concat', cases(
            s('random', [R((2, 3)), R((1, 3))], 0), s('axis-1', [R((2, 3)), R((2, 2))], -1),
            s('int64-axis', [R((2, 3), d), R((2, 1), d)], t(1, i64)),
            s('shapes-invalid', [R((2, 3)), R((2, 2))], 0)), {}),
        ('Pack', 'stack', cases(
            s('random', [R((2, 3)), R((2, 3))]), s('axis', [R((3,)), R((3,))], axis=1),
            s('shapes-invalid', [R((2,)), R((3,))])), {}),
        ('Unpack', 'unstack', cases(s('random', x), s('axis', x, axis=-1)), {}),
        ('Split', 'split', cases(
            s('random', R((4, 3)), 2), s('axis', R((3, 4), d), 2, axis=1),
            s('uneven-invalid', R((3, 4)), 2)), {}),
        ('SplitV', 'split', cases(
            s('random', R((5, 3)), [2, 3]), s('infer', R((3, 5), d), [1, -1], axis=1),
            s('int64', R((5, 3)), t([4, 1], i64))), {}),
        ('Slice', 'slice', cases(
            s('random', x, [0, 1, 1], [2, 2, -1]),
            s('int64', x, t([1, 0, 0], i64), t([1, 3, 2], i64)),
            s('size-invalid', x, [0, 0, 0], [3, 1, 1])), {}),
        ('StridedSlice', 'operator.getitem', cases(
            s('slices', x, (slice(None), slice(1, None), slice(None, None, 2))),
            s('index', x, (1, slice(None, 2))), s('newaxis', x, (None, Ellipsis, -1)),
            s('negative-step', x, (slice(None, None, -1), 0)),
            s('index-invalid', x, 5)), {'ops': ('StridedSliceGrad',)}),
        ('GatherV2', 'gather', cases(
            s('random', R((4, 3)), t([3, 0, 3], 'int32')),
            s('axis', R((4, 3), d), t([[2, 0]], i64), axis=1),
            s('index-invalid', R((4, 3)), t([4], 'int32'))), {}),
        ('GatherNd', 'gather_nd', cases(
            s('random', R((3, 4)), idx), s('slices', R((3, 4), d), t([[2], [0]], i64)),
            s('index-invalid', R((3, 4)), t([[3, 0]], 'int32'))), {}),
        ('ScatterNd', 'scatter_nd', cases(
            s('random', idx, R((2,)), [3, 4]),
            s('duplicates', t([[1], [1]], i64), R((2, 3), d), t([3, 3], i64))), {}),
        ('Fill', 'fill', cases(
            s('random', [2, 3], 1.5), s('int64-dims', t([2], i64), t(2, i64)),
            s('int64-list', [t(3, i64)], t(3, i64)), s('mixed-list', [t(2, i64), 3], 0.5),
            s('int32', t([3], 'int32'), t(7, 'int32')), s('scalar', [], 0.5),
            s('dims-invalid', [-1, 2], 1.0)), {'grad': False}),
        ('Range', 'range', cases(
            s('ints', 5), s('start-limit', 2, 9, 3), s('floats', 0.5, 2.0, 0.25),
            s('int64', t(1, i64), t(7, i64)), s('negative', 5, 0, -2)), {'grad': False}),
        ('LinSpace', 'linspace', cases(
            s('random', 0.0, 1.0, 5), s('int64-num', t(-1.0, 'float32'), t(1.0, 'float32'),
                                          t(4, i64)), s('one', 2.0, 3.0, 1)), {'grad': False}),
        ('OneHot', 'one_hot', cases(
            s('random', t([0, 2, -1, 3], 'int32'), 3),
            s('int64', t([[1], [0]], i64), t(2, 'int32'), on_value=5.0, off_value=-1.0),
            s('axis', t([0, 1], 'int32'), 3, axis=0)), {'grad': False}),
        ('ExpandDims', 'expand_dims', cases(
            s('random', R((2, 3)), 1), s('negative', R((2, 3)), -1),
            s('int64', R((2, 3), d), t(0, i64)), s('axis-invalid', R((2, 3)), 4)), {}),
        ('Squeeze', 'squeeze', cases(
            s('all', R((1, 3, 1))), s('axis', R((1, 3, 1), d), [2]),
            s('axis-invalid', R((1, 3, 1)), [1])), {}),
        ('BroadcastTo', 'broadcast_to', cases(
            s('random', R((3, 1)), [2, 3, 4]), s('int64', R((1,), d), t([3], i64)),
            s('shape-invalid', R((3,)), [2])), {}),
        ('ReverseV2', 'reverse', cases(
            s('random', x, [1]), s('several', x, [0, -1]), s('int64', x, t([2], i64))), {}),
        ('Where', 'where', cases(
            s('random', R((3, 4), 'bool')), s('float', t([[0.0, 1.0], [2.0, 0.0]], d))),
         {'grad': False}),
        ('SelectV2', 'where', cases(
            s('random', R((3, 4), 'bool'), R((3, 4)), R((3, 4))),
            s('broadcast', R((3, 1), 'bool'), R((4,), d), R((3, 4), d)),
            s('scalar', R((2,), 'bool'), R((2,)), 0.0),
            s('shapes-invalid', R((3,), 'bool'), R((2,)), R((2,)))), {}),
        ('Shape', 'shape', cases(s('random', x), s('int64', x, out_type=DType(i64))), {}),
        ('Size', 'size', cases(s('random', x), s('int64', x, out_type=DType(i64))), {}),
        ('Rank', 'rank', cases(s('random', x), s('scalar', R(()))), {}),
        ('Cast', 'cast', cases(
            s('to-int', t([1.7, -1.7, 0.5, -0.0], 'float32'), DType('int32')),
            s('to-float', R((3,), 'int64'), DType('float32')),
            s('to-bool', t([0.0, 2.0, -0.0], 'float64'), DType('bool')),
            s('from-bool', t([True, False], 'bool'), DType('float32')),
            s('float64', R((2, 3)), DType('float64'))), {}),
        ('AddN', 'math.add_n', cases(
            s('random', [R((2, 3)), R((2, 3)), R((2, 3))]),
            s('one', [R((3,), d)]), s('int', [R((2,), 'int32'), R((2,), 'int32')])), {}),
        ('Identity', 'identity', unary(REALS, specials=()), {}),
        ('StopGradient', 'stop_gradient', unary(FLOATS, specials=()), {}),
        ('ZerosLike', 'zeros_like', unary(REALS + ('bool',), specials=()), {}),
        ('OnesLike', 'ones_like', unary(REALS + ('bool',), specials=()), {}),
        ('CheckNumerics', 'debugging.check_numerics', cases(
            s('random', R((3,)), 'message'), s('nan-invalid', t([1.0, NAN], 'float32'),
                                                'message')), {}),
        ('TensorScatterUpdate', 'tensor_scatter_nd_update', cases(
            s('random', R((3, 4)), idx, R((2,))), s('rows', R((3, 4), d), t([[2]], i64),
                                                   R((1, 4), d))), {}),
        ('TensorScatterAdd', 'tensor_scatter_nd_add', cases(
            s('random', R((3, 4)), idx, R((2,))),
            s('duplicates', R((3,), d), t([[1], [1]], i64), R((2,), d))), {}),
        ('TensorScatterSub', 'tensor_scatter_nd_sub', cases(
            s('random', R((3, 4)), idx, R((2,)))), {}),
        ('TensorScatterMax', 'tensor_scatter_nd_max', cases(
            s('random', R((3, 4)), idx, R((2,))),
            s('ties', t([1.0, 2.0, 3.0], 'float32'), t([[0], [1]], 'int32'),
              t([1.0, 5.0], 'float32'))), {}),
        ('TensorScatterMin', 'tensor_scatter_nd_min', cases(
            s('random', R((3, 4)), idx, R((2,))),
            s('ties', t([1.0, 2.0, 3.0], 'float32'), t([[0], [1]], 'int32'),
              t([1.0, -5.0], 'float32'))), {}),
        ('SegmentSum', 'math.segment_sum', cases(
            s('random', R((4, 3)), t([0, 0, 1, 3], 'int32')),
            s('int64', R((3,), d), t([0, 1, 1], i64))), {}),
        ('UnsortedSegmentSum', 'math.unsorted_segment_sum', cases(
            s('random', R((4, 3)), t([1, 0, 1, 3], 'int32'), 4),
            s('int64', R((3,), d), t([2, 0, 2], i64), t(3, i64))), {}),
        ('DenseBincount', 'math.bincount', cases(
            s('random', t([1, 1, 3, 0], 'int32')),
            s('weights', t([1, 2, 2], 'int32'), weights=t([0.5, 1.0, 2.0], 'float32')),
            s('minlength', t([1, 2], 'int32'), minlength=5)), {'grad': False}),
        ('AdjustContrastv2', 'image.adjust_contrast', cases(
            s('random', R((4, 4, 3), 'float32', 0.0, 1.0), 2.0)), {'grad': False}),
        ('repeat', 'repeat', cases(
            s('random', R((2, 3)), 2, axis=1), s('tensor', R((3,), d), t([1, 0, 2], i64))),
         {}),
        ('clip_by_norm', 'clip_by_norm', cases(
            s('clipped', R((3, 4)), 1.0), s('zeros', t([0.0, 0.0], 'float32'), 1.0),
            s('axes', R((3, 4), d), 1.0, axes=[1])), {}),
        ('sort', 'sort', cases(s('random', R((3, 4))),
                               s('ties', t([[2.0, 1.0, 2.0, 1.0]], 'float32')),
                               s('descending', R((5,), d), direction='DESCENDING')), {}),
        ('boolean_mask', 'boolean_mask', cases(
            s('random', R((3, 4)), t([True, False, True], 'bool'))), {}),
        ('eye', 'eye', cases(s('square', 3), s('int64', t(2, i64), t(3, i64))),
         {'grad': False}),
        ('ones', 'ones', cases(s('list', [2, 3]), s('int64-scalar', t(3, i64)),
                               s('int64-list', [t(2, i64), t(3, i64)]),
                               s('int32-vector', t([2, 1], 'int32'))), {'grad': False}),
    ]
    return [OpInfo(op, call, gen, 'array', **kw) for op, call, gen, kw in rows]


def array_more_entries() -> list[OpInfo]:
    """Array ops with index and shape arguments."""
    i64, d = 'int64', 'float64'
    sorted_rows = t([[1.0, 2.0, 2.0, 3.0], [0.0, 0.0, 5.0, 9.0]], 'float32')
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Roll', 'roll', cases(
            s('random', R((3, 4)), 1, 0), s('several', R((3, 4), d), [1, -2], [0, 1]),
            s('int64', R((5,)), t(7, i64), t(0, i64)), s('same-axis', R((3, 4)), [1, 2], [1, 1]),
            s('negative-axis', R((2, 3)), -1, -1), s('axis-invalid', R((3,)), 1, 2)), {}),
        ('Unique', 'unique', cases(
            s('random', t([1, 2, 1, 3, 2], 'int32')),
            s('float', t([1.5, -0.5, 2.0, 1.5], 'float32')),
            s('int64-index', t([3, 3, 1], i64), out_idx=DType(i64)),
            s('empty', t(np.zeros((0,)), 'float32')),
            s('rank-invalid', t([[1, 2]], 'int32'))), {'grad': False}),
        ('UniqueWithCounts', 'unique_with_counts', cases(
            s('random', t([1, 2, 1, 3, 2, 2], 'int32')),
            s('int64-index', t([0.5, 0.5, 1.0], d), out_idx=DType(i64))), {'grad': False}),
        ('InvertPermutation', 'math.invert_permutation', cases(
            s('random', t([2, 0, 3, 1], 'int32')), s('int64', t([1, 0], i64)),
            s('duplicate-invalid', t([0, 0], 'int32'))), {}),
        ('UnravelIndex', 'unravel_index', cases(
            s('random', t([1, 5, 7], 'int32'), t([3, 4], 'int32')),
            s('scalar', t(5, i64), t([2, 3], i64)), s('list', t([0, 11], 'int32'), [3, 4]),
            s('range-invalid', t([12], 'int32'), t([3, 4], 'int32'))), {}),
        ('LowerBound', 'searchsorted', cases(
            s('random', sorted_rows, t([[2.0, 0.5, 4.0], [0.0, 9.0, 10.0]], 'float32')),
            s('int', t([1, 3, 3, 5], 'int32'), t([3, 6, 0], 'int32')),
            s('int64-out', t([1.0, 2.0], d), t([1.5], d), out_type=DType(i64))), {}),
        ('UpperBound', 'searchsorted', cases(
            s('random', sorted_rows, t([[2.0, 0.5, 4.0], [0.0, 9.0, 10.0]], 'float32'),
              side='right'),
            s('int', t([1, 3, 3, 5], 'int32'), t([3, 6, 0], 'int32'), side='right')), {}),
        ('ReverseSequence', 'reverse_sequence', cases(
            s('random', R((3, 4)), t([1, 4, 2], i64), seq_axis=1, batch_axis=0),
            s('int32', R((4, 2, 3), d), t([2, 3], 'int32'), seq_axis=0, batch_axis=1),
            s('length-invalid', R((2, 3)), t([4, 1], i64), seq_axis=1, batch_axis=0)), {}),
        ('EnsureShape', 'ensure_shape', cases(
            s('random', R((2, 3)), [2, 3]), s('unknown-dim', R((2, 3), d), [None, 3]),
            s('shape-invalid', R((2, 3)), [3, 2])), {}),
        ('HistogramFixedWidth', 'histogram_fixed_width', cases(
            s('random', R((10,)), [-2.0, 2.0], nbins=5),
            s('outside', t([-5.0, 0.0, 5.0, 1.0], 'float32'), t([-1.0, 1.0], 'float32'),
              nbins=3),
            s('int64', R((6,), d, 0.0, 1.0), t([0.0, 1.0], d), nbins=4, dtype=DType(i64))),
         {'grad': False}),
    ]
    return [OpInfo(op, call, gen, 'array', **kw) for op, call, gen, kw in rows]


def string_entries() -> list[OpInfo]:
    words = t([b'Hello', b' a b ', b''], 'string')
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]]]] = [
        ('AsString', 'strings.as_string', cases(
            s('float', t([1.5, -0.0, 1e10], 'float32')), s('int', R((3,), 'int64', -9, 9)),
            s('precision', t([3.14159], 'float64'), precision=2),
            s('bool', t([True, False], 'bool')))),
        ('ReduceJoin', 'strings.reduce_join', cases(
            s('all', words), s('separator', words, separator='-'))),
        ('StaticRegexFullMatch', 'strings.regex_full_match', cases(
            s('random', words, '[A-Z].*'))),
        ('StaticRegexReplace', 'strings.regex_replace', cases(
            s('random', words, 'l+', 'L'), s('first', words, ' ', '_',
                                              replace_global=False))),
        ('StringFormat', 'strings.format', cases(
            s('random', 'x={} y={}', [R((3,)), t(2, 'int64')]))),
        ('StringJoin', 'strings.join', cases(s('random', [words, words], separator='+'))),
        ('StringLength', 'strings.length', cases(
            s('bytes', words), s('utf8', t(['é'.encode(), b'ab'], 'string'),
                                 unit='UTF8_CHAR'))),
        ('StringLower', 'strings.lower', cases(s('random', words))),
        ('StringUpper', 'strings.upper', cases(s('random', words))),
        ('StringStrip', 'strings.strip', cases(s('random', words))),
        ('StringToNumber', 'strings.to_number', cases(
            s('float', t([b'1.5', b'-2', b'1e3'], 'string')),
            s('int64', t([b'12', b'-7'], 'string'), out_type=DType('int64')),
            s('text-invalid', t([b'x'], 'string')))),
        ('Substr', 'strings.substr', cases(
            s('random', words, 1, 2), s('utf8', t(['héllo'.encode()], 'string'), 1, 3,
                                         unit='UTF8_CHAR'))),
    ]
    return [OpInfo(op, call, gen, 'strings', grad=False) for op, call, gen in rows]
