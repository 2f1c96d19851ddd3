"""The math-like half of SPEC §7 (`rt.math`, `rt.nn`, `rt.linalg`, `rt.strings`,
`rt.debugging`, and `rt.sort/argsort/einsum/norm/clip_by_norm`): each op eagerly and in a graph
against numpy, with TensorFlow's op type in the graph.

Each row is (id, program, inputs, expected value, op type of the result in a graph). In a graph
the inputs are fed through placeholders of unknown dims, so partial shape inference is checked
against the value too.
"""
import math

import numpy as np
import pytest

import runtime as rt

from conftest import check_op_row, check_value, run_in_graph

F = np.array([[1.5, -2.0, 0.0, 3.0], [4.0, 0.25, -0.5, 0.25]], dtype=np.float32)
P = np.array([[0.5, 2.0, 1.0, 3.0], [1.0, 1.5, 0.25, 0.75]], dtype=np.float32)
U = np.array([0.1, -0.5, 0.9], dtype=np.float32)
I = np.array([[7, -3, 2], [0, 5, -8]], dtype=np.int32)
A = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]], dtype=np.float64)
RHS = np.array([[1., 0.], [2., 1.], [3., -1.]], dtype=np.float64)
S = np.array([b'Hello', b'World', b'h\xc3\xa9'], dtype=object)
LABELS = np.array([[0., 0., 1., 0.], [0.5, 0.5, 0., 0.]], dtype=np.float32)


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def np_log_softmax(x, axis=-1):
    return np.log(np_softmax(x, axis))


erf = np.vectorize(math.erf)
SELU = (1.0507009873554805, 1.6732632423543772)

ROWS = [
    # rt.math: elementwise
    ('log1p', lambda x: rt.math.log1p(x), [P], np.log1p(P), 'Log1p'),
    ('expm1', lambda x: rt.math.expm1(x), [F], np.expm1(F), 'Expm1'),
    ('reciprocal', lambda x: rt.math.reciprocal(x), [P], 1 / P, 'Reciprocal'),
    ('rsqrt', lambda x: rt.math.rsqrt(x), [P], 1 / np.sqrt(P), 'Rsqrt'),
    ('softplus', lambda x: rt.math.softplus(x), [F], np.log1p(np.exp(F)), 'Softplus'),
    ('is_nan', lambda x: rt.math.is_nan(x), [np.array([1., np.nan, np.inf], np.float32)],
     [False, True, False], 'IsNan'),
    ('is_inf', lambda x: rt.math.is_inf(x), [np.array([1., np.nan, -np.inf], np.float32)],
     [False, False, True], 'IsInf'),
    ('is_finite', lambda x: rt.math.is_finite(x), [np.array([1., np.nan, np.inf], np.float32)],
     [True, False, False], 'IsFinite'),
    ('tan', lambda x: rt.math.tan(x), [U], np.tan(U), 'Tan'),
    ('asin', lambda x: rt.math.asin(x), [U], np.arcsin(U), 'Asin'),
    ('acos', lambda x: rt.math.acos(x), [U], np.arccos(U), 'Acos'),
    ('atan', lambda x: rt.math.atan(x), [F], np.arctan(F), 'Atan'),
    ('sinh', lambda x: rt.math.sinh(x), [F], np.sinh(F), 'Sinh'),
    ('cosh', lambda x: rt.math.cosh(x), [F], np.cosh(F), 'Cosh'),
    ('erf', lambda x: rt.math.erf(x), [F], erf(F), 'Erf'),
    ('erfc', lambda x: rt.math.erfc(x), [F], 1 - erf(F), 'Erfc'),
    ('log_sigmoid', lambda x: rt.math.log_sigmoid(x), [F], -np.log1p(np.exp(-F)), 'Neg'),
    ('squared_difference', lambda x, y: rt.math.squared_difference(x, y), [F, P], (F - P) ** 2,
     'SquaredDifference'),
    ('squared_difference broadcast', lambda x, y: rt.math.squared_difference(x, y), [F, U[:1]],
     (F - U[:1]) ** 2, 'SquaredDifference'),
    ('divide_no_nan', lambda x, y: rt.math.divide_no_nan(x, y), [P, F],
     np.where(F == 0, 0, P / np.where(F == 0, 1, F)), 'DivNoNan'),
    ('truediv ints', lambda x, y: rt.math.truediv(x, y), [I, I * 0 + 2], I / 2, 'RealDiv'),
    ('floormod', lambda x: rt.math.floormod(x, 3), [I], I % 3, 'FloorMod'),
    ('logical_xor', lambda x, y: rt.math.logical_xor(x, y),
     [np.array([True, True, False]), np.array([True, False, False])], [False, True, False],
     'LogicalAnd'),
    ('add_n', lambda x, y: rt.math.add_n([x, y, x]), [F, P], F + P + F, 'AddN'),
    # rt.math: reductions and scans
    ('reduce_logsumexp', lambda x: rt.math.reduce_logsumexp(x, axis=1), [F],
     np.log(np.exp(F).sum(1)), 'AddV2'),
    ('reduce_logsumexp all keepdims', lambda x: rt.math.reduce_logsumexp(x, keepdims=True),
     [F], np.log(np.exp(F).sum(keepdims=True)), 'AddV2'),
    ('reduce_variance', lambda x: rt.math.reduce_variance(x, axis=0), [F], F.var(0), 'Mean'),
    ('reduce_std', lambda x: rt.math.reduce_std(x), [F], F.std(), 'Sqrt'),
    ('reduce_euclidean_norm', lambda x: rt.math.reduce_euclidean_norm(x, axis=1), [F],
     np.sqrt((F ** 2).sum(1)), 'EuclideanNorm'),
    ('count_nonzero', lambda x: rt.math.count_nonzero(x), [F], 7, 'Sum'),
    ('count_nonzero axis', lambda x: rt.math.count_nonzero(x, axis=0), [I], [1, 2, 2], 'Sum'),
    ('cumsum', lambda x: rt.math.cumsum(x, axis=1), [F], np.cumsum(F, 1), 'Cumsum'),
    ('cumsum exclusive reverse',
     lambda x: rt.math.cumsum(x, axis=1, exclusive=True, reverse=True), [I],
     np.flip(np.cumsum(np.flip(I, 1), 1), 1) - I, 'Cumsum'),
    ('cumprod', lambda x: rt.math.cumprod(x), [I], np.cumprod(I, 0), 'Cumprod'),
    ('cumprod exclusive', lambda x: rt.math.cumprod(x, axis=1, exclusive=True), [P],
     np.cumprod(np.concatenate([np.ones((2, 1), np.float32), P[:, :-1]], 1), 1), 'Cumprod'),
    ('top_k values', lambda x: rt.math.top_k(x, 2).values, [F], -np.sort(-F, 1)[:, :2],
     'TopKV2'),
    ('top_k indices', lambda x: rt.math.top_k(x, k=3)[1], [I],
     np.array([[0, 2, 1], [1, 0, 2]], np.int32), 'TopKV2'),
    ('in_top_k', lambda p: rt.math.in_top_k([3, 2], p, 2), [F], [True, False], 'InTopKV2'),
    ('segment_sum', lambda x, i: rt.math.segment_sum(x, i), [F, np.array([0, 0], np.int32)],
     F.sum(0, keepdims=True), 'SegmentSum'),
    ('unsorted_segment_sum', lambda x, i: rt.math.unsorted_segment_sum(x, i, 3),
     [F, np.array([2, 0], np.int32)], np.stack([F[1], 0 * F[0], F[0]]), 'UnsortedSegmentSum'),
    ('l2_normalize', lambda x: rt.math.l2_normalize(x, axis=1), [F],
     F / np.sqrt((F ** 2).sum(1, keepdims=True)), 'Mul'),
    ('argmax int64', lambda x: rt.math.argmax(x, 1), [F], F.argmax(1), 'ArgMax'),
    # top level
    ('sort', lambda x: rt.sort(x), [F], np.sort(F, -1), 'Neg'),
    ('sort descending axis 0', lambda x: rt.sort(x, axis=0, direction='DESCENDING'), [F],
     -np.sort(-F, 0), 'Transpose'),
    ('argsort', lambda x: rt.argsort(x), [F], np.argsort(F, -1, kind='stable'), 'TopKV2'),
    ('argsort ints descending', lambda x: rt.argsort(x, direction='DESCENDING'), [I],
     np.argsort(-I, -1, kind='stable'), 'TopKV2'),
    ('einsum', lambda x, y: rt.einsum('ij,kj->ik', x, y), [F, P], F @ P.T, 'Einsum'),
    ('einsum trace-like', lambda x: rt.einsum('ij->j', x), [F], F.sum(0), 'Einsum'),
    ('norm', lambda x: rt.norm(x), [F], np.linalg.norm(F), 'Squeeze'),
    ('clip_by_norm', lambda x: rt.clip_by_norm(x, 2.0), [F], F * 2 / np.linalg.norm(F),
     'RealDiv'),
    # rt.nn
    ('relu6', lambda x: rt.nn.relu6(x * 2), [F], np.clip(F * 2, 0, 6), 'Relu6'),
    ('leaky_relu', lambda x: rt.nn.leaky_relu(x), [F], np.where(F > 0, F, 0.2 * F),
     'LeakyRelu'),
    ('leaky_relu alpha', lambda x: rt.nn.leaky_relu(x, alpha=0.5), [F],
     np.where(F > 0, F, 0.5 * F), 'LeakyRelu'),
    ('elu', lambda x: rt.nn.elu(x), [F], np.where(F > 0, F, np.expm1(F)), 'Elu'),
    ('selu', lambda x: rt.nn.selu(x), [F],
     SELU[0] * np.where(F > 0, F, SELU[1] * np.expm1(F)), 'Selu'),
    ('gelu', lambda x: rt.nn.gelu(x), [F], 0.5 * F * (1 + erf(F / np.sqrt(2))), 'Mul'),
    ('gelu approximate', lambda x: rt.nn.gelu(x, approximate=True), [F],
     0.5 * F * (1 + np.tanh(np.sqrt(2 / np.pi) * (F + 0.044715 * F ** 3))), 'Mul'),
    ('silu', lambda x: rt.nn.silu(x), [F], F / (1 + np.exp(-F)), 'Mul'),
    ('softmax', lambda x: rt.nn.softmax(x), [F], np_softmax(F), 'Softmax'),
    ('softmax axis 0', lambda x: rt.nn.softmax(x, axis=0), [F], np_softmax(F, 0), 'Transpose'),
    ('log_softmax', lambda x: rt.nn.log_softmax(x), [F], np_log_softmax(F), 'LogSoftmax'),
    ('softmax_cross_entropy_with_logits',
     lambda y, x: rt.nn.softmax_cross_entropy_with_logits(labels=y, logits=x), [LABELS, F],
     -(LABELS * np_log_softmax(F)).sum(-1), 'SoftmaxCrossEntropyWithLogits'),
    ('sparse_softmax_cross_entropy_with_logits',
     lambda y, x: rt.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x),
     [np.array([2, 0], np.int32), F], -np_log_softmax(F)[[0, 1], [2, 0]],
     'SparseSoftmaxCrossEntropyWithLogits'),
    ('sigmoid_cross_entropy_with_logits',
     lambda y, x: rt.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=x), [LABELS, F],
     -LABELS * np.log(1 / (1 + np.exp(-F))) - (1 - LABELS) * np.log(1 - 1 / (1 + np.exp(-F))),
     'AddV2'),
    ('l2_loss', lambda x: rt.nn.l2_loss(x), [F], (F ** 2).sum() / 2, 'L2Loss'),
    ('bias_add', lambda x, b: rt.nn.bias_add(x, b), [F, P[0]], F + P[0], 'BiasAdd'),
    ('moments mean', lambda x: rt.nn.moments(x, axes=[0])[0], [F], F.mean(0), 'Squeeze'),
    ('moments variance keepdims', lambda x: rt.nn.moments(x, [1], keepdims=True)[1], [F],
     F.var(1, keepdims=True), 'Mean'),
    # rt.linalg
    ('matvec', lambda a, v: rt.linalg.matvec(a, v), [A, A[0]], A @ A[0], 'Squeeze'),
    ('inv', lambda a: rt.linalg.inv(a), [A], np.linalg.inv(A), 'MatrixInverse'),
    ('det', lambda a: rt.linalg.det(a), [A], np.linalg.det(A), 'MatrixDeterminant'),
    ('det batch', lambda a: rt.linalg.det(a), [np.stack([A, 2 * A])],
     np.linalg.det(np.stack([A, 2 * A])), 'MatrixDeterminant'),
    ('solve', lambda a, b: rt.linalg.solve(a, b), [A, RHS], np.linalg.solve(A, RHS),
     'MatrixSolve'),
    ('cholesky', lambda a: rt.linalg.cholesky(a), [A], np.linalg.cholesky(A), 'Cholesky'),
    ('qr r', lambda a: rt.linalg.qr(a).r, [A], np.linalg.qr(A)[1], 'Qr'),
    ('diag', lambda v: rt.linalg.diag(v), [U], np.diag(U), 'MatrixDiagV3'),
    ('diag k=1', lambda v: rt.linalg.diag(v, k=1), [U], np.diag(U, 1), 'MatrixDiagV3'),
    ('diag_part', lambda a: rt.linalg.diag_part(a), [A], np.diag(A), 'MatrixDiagPartV3'),
    ('trace', lambda a: rt.linalg.trace(a), [A], np.trace(A), 'Sum'),
    ('matrix_transpose', lambda a: rt.linalg.matrix_transpose(a), [np.stack([F, P])],
     np.stack([F.T, P.T]), 'Transpose'),
    ('band_part', lambda a: rt.linalg.band_part(a, 0, -1), [A], np.triu(A), 'MatrixBandPart'),
    ('logdet', lambda a: rt.linalg.logdet(a), [A], np.log(np.linalg.det(A)), 'Mul'),
    ('norm ord 1 matrix', lambda a: rt.linalg.norm(a, ord=1, axis=[-2, -1]), [F],
     np.linalg.norm(F, 1), 'Squeeze'),
    ('norm inf vector axis', lambda a: rt.linalg.norm(a, ord=np.inf, axis=1), [F],
     np.abs(F).max(1), 'Squeeze'),
    ('norm fro', lambda a: rt.linalg.norm(a, ord='fro', axis=(0, 1)), [F],
     np.linalg.norm(F, 'fro'), 'Squeeze'),
    ('eye', lambda a: rt.linalg.eye(3, dtype=rt.float64) + a, [A], np.eye(3) + A, 'AddV2'),
    # rt.strings
    ('strings.join', lambda s: rt.strings.join([s, 'x'], separator='-'), [S],
     np.array([b'Hello-x', b'World-x', b'h\xc3\xa9-x'], object), 'StringJoin'),
    ('strings.length', lambda s: rt.strings.length(s), [S], np.array([5, 5, 3], np.int32),
     'StringLength'),
    ('strings.length utf8', lambda s: rt.strings.length(s, unit='UTF8_CHAR'), [S],
     np.array([5, 5, 2], np.int32), 'StringLength'),
    ('strings.lower', lambda s: rt.strings.lower(s), [S],
     np.array([b'hello', b'world', b'h\xc3\xa9'], object), 'StringLower'),
    ('strings.upper', lambda s: rt.strings.upper(s), [S],
     np.array([b'HELLO', b'WORLD', b'H\xc3\xa9'], object), 'StringUpper'),
    ('strings.as_string', lambda x: rt.strings.as_string(x), [U],
     np.array([b'0.100000', b'-0.500000', b'0.900000'], object), 'AsString'),
    ('strings.to_number', lambda s: rt.strings.to_number(s),
     [np.array([b'1.5', b' -2', b'1e3'], object)], np.array([1.5, -2, 1000], np.float32),
     'StringToNumber'),
    ('strings.format', lambda x: rt.strings.format('x = {}, n = {}', [x, rt.size(x)]), [I],
     np.array(b'x = [[7 -3 2]\n [0 5 -8]], n = 6', object), 'StringFormat'),
    ('strings.regex_replace', lambda s: rt.strings.regex_replace(s, 'l+', 'L'), [S],
     np.array([b'HeLo', b'WorLd', b'h\xc3\xa9'], object), 'StaticRegexReplace'),
    ('strings.substr', lambda s: rt.strings.substr(s, 1, 3), [S],
     np.array([b'ell', b'orl', b'\xc3\xa9'], object), 'Substr'),
    ('strings.reduce_join', lambda s: rt.strings.reduce_join(s, separator=','), [S],
     np.array(b'Hello,World,h\xc3\xa9', object), 'ReduceJoin'),
    # rt.debugging
    ('check_numerics', lambda x: rt.debugging.check_numerics(x, 'bad'), [F], F,
     'CheckNumerics'),
]


@pytest.mark.parametrize('program, inputs, expected, op_type', [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
def test_op_eagerly_in_a_graph_and_against_numpy(program, inputs, expected, op_type):
    check_op_row(program, inputs, expected, op_type, rtol=2e-6, atol=1e-6)
