"""The math-like surface (`rt.math`, `rt.nn`, `rt.linalg`, `rt.strings`,
`rt.debugging`, and `rt.sort/argsort/einsum/norm/clip_by_norm`): each op eagerly and in a graph
against numpy, with TensorFlow's op type in the graph.

Each row is (id, program, inputs, expected value, op type of the result in a graph). In a graph
the inputs are fed through placeholders of unknown dims, so partial shape inference is checked
against the value too.
"""
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from runtime_helpers import check_op_row, check_value, run_in_graph

import autograph as ag
import runtime as rt

F = np.array([[1.5, -2.0, 0.0, 3.0], [4.0, 0.25, -0.5, 0.25]], dtype=np.float32)
P = np.array([[0.5, 2.0, 1.0, 3.0], [1.0, 1.5, 0.25, 0.75]], dtype=np.float32)
U = np.array([0.1, -0.5, 0.9], dtype=np.float32)
I = np.array([[7, -3, 2], [0, 5, -8]], dtype=np.int32)  # noqa: E741
A = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]], dtype=np.float64)
RHS = np.array([[1., 0.], [2., 1.], [3., -1.]], dtype=np.float64)
S = np.array([b'Hello', b'World', b'h\xc3\xa9'], dtype=object)
LABELS = np.array([[0., 0., 1., 0.], [0.5, 0.5, 0., 0.]], dtype=np.float32)


IMG = np.random.default_rng(3).normal(size=(2, 5, 6, 3)).astype(np.float32)
KERNEL = np.random.default_rng(4).normal(size=(3, 2, 3, 4)).astype(np.float32)


def np_conv2d(x, w, stride, padding):
    """Direct loops: output[n, i, j, o] = sum of the window at (i*s - pad) times w."""
    kh, kw = w.shape[:2]
    if padding == 'SAME':
        oh, ow = -(-x.shape[1] // stride), -(-x.shape[2] // stride)
        ph = max((oh - 1) * stride + kh - x.shape[1], 0) // 2
        pw = max((ow - 1) * stride + kw - x.shape[2], 0) // 2
        x = np.pad(x, ((0, 0), (ph, kh), (pw, kw), (0, 0)))
    else:
        oh, ow = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    out = np.zeros((x.shape[0], oh, ow, w.shape[3]), x.dtype)
    for i in range(oh):
        for j in range(ow):
            window = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, i, j] = np.einsum('nhwc,hwco->no', window, w)
    return out


def np_pool(x, k, stride, reduce):
    """VALID pooling by direct loops."""
    oh, ow = (x.shape[1] - k) // stride + 1, (x.shape[2] - k) // stride + 1
    return np.stack([np.stack([reduce(x[:, i * stride:i * stride + k, j * stride:j * stride + k],
                                      axis=(1, 2)) for j in range(ow)], 1)
                     for i in range(oh)], 1)


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
    ('asinh', lambda x: rt.math.asinh(x), [F], np.arcsinh(F), 'Asinh'),
    ('acosh', lambda x: rt.math.acosh(x), [P + 1], np.arccosh(P + 1), 'Acosh'),
    ('atanh', lambda x: rt.math.atanh(x), [U], np.arctanh(U), 'Atanh'),
    ('softsign', lambda x: rt.nn.softsign(x), [F], F / (1 + np.abs(F)), 'Softsign'),
    ('cosh', lambda x: rt.math.cosh(x), [F], np.cosh(F), 'Cosh'),
    ('erf', lambda x: rt.math.erf(x), [F], erf(F), 'Erf'),
    ('erfc', lambda x: rt.math.erfc(x), [F], 1 - erf(F), 'Erfc'),
    ('lgamma', lambda x: rt.math.lgamma(x), [P], np.vectorize(math.lgamma)(P), 'Lgamma'),
    ('digamma', lambda x: rt.math.digamma(x), [np.array([1., 2., 0.5], np.float64)],
     [-0.5772156649015329, 0.42278433509846713, -1.9635100260214235], 'Digamma'),
    ('polygamma', lambda x: rt.math.polygamma(1.0, x), [np.array([1., 2.], np.float64)],
     [np.pi ** 2 / 6, np.pi ** 2 / 6 - 1], 'Polygamma'),
    ('log_sigmoid', lambda x: rt.math.log_sigmoid(x), [F], -np.log1p(np.exp(-F)), 'Neg'),
    ('squared_difference', lambda x, y: rt.math.squared_difference(x, y), [F, P], (F - P) ** 2,
     'SquaredDifference'),
    ('squared_difference broadcast', lambda x, y: rt.math.squared_difference(x, y), [F, U[:1]],
     (F - U[:1]) ** 2, 'SquaredDifference'),
    ('divide_no_nan', lambda x, y: rt.math.divide_no_nan(x, y), [P, F],
     np.where(F == 0, 0, P / np.where(F == 0, 1, F)), 'DivNoNan'),
    ('atan2', lambda y, x: rt.math.atan2(y, x), [F, P], np.arctan2(F, P), 'Atan2'),
    ('xlogy', lambda x, y: rt.math.xlogy(x, y), [F, P], np.where(F == 0, 0, F * np.log(P)),
     'Xlogy'),
    ('xdivy', lambda x, y: rt.math.xdivy(x, y), [F, P], F / P, 'Xdivy'),
    ('multiply_no_nan', lambda x, y: rt.math.multiply_no_nan(x, y),
     [np.array([np.inf, 2.], np.float32), np.array([0., 3.], np.float32)], [0., 6.],
     'MulNoNan'),
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
    ('cumulative_logsumexp', lambda x: rt.math.cumulative_logsumexp(x, axis=1), [F],
     np.log(np.cumsum(np.exp(F), 1)), 'CumulativeLogsumexp'),
    ('bincount', lambda x: rt.math.bincount(x), [np.array([1, 1, 4, 0], np.int32)],
     np.array([1, 2, 0, 0, 1], np.int32), 'DenseBincount'),
    ('bincount weights minlength',
     lambda x, w: rt.math.bincount(x, weights=w, minlength=4),
     [np.array([1, 1, 2], np.int32), U], np.array([0, U[0] + U[1], U[2], 0], np.float32),
     'DenseBincount'),
    ('confusion_matrix', lambda y, p: rt.math.confusion_matrix(y, p),
     [np.array([0, 2, 2, 1], np.int32), np.array([0, 1, 2, 1], np.int32)],
     np.array([[1, 0, 0], [0, 1, 0], [0, 1, 1]], np.int32), 'Reshape'),
    ('embedding_lookup', lambda w, i: rt.nn.embedding_lookup(w, i),
     [F, np.array([1, 1, 0], np.int32)], F[[1, 1, 0]], 'GatherV2'),
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
    ('tensordot', lambda x, y: rt.tensordot(x, y, [[1], [1]]), [F, P], F @ P.T, 'Einsum'),
    ('global_norm', lambda x, y: rt.linalg.global_norm([x, y]),
     [F, P], np.sqrt((F ** 2).sum() + (P ** 2).sum()), 'Sqrt'),
    ('clip_by_global_norm', lambda x, y: rt.clip_by_global_norm([x, y], 2.0)[0][1],
     [F, P], P * 2 / np.sqrt((F ** 2).sum() + (P ** 2).sum()), 'Mul'),
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
    ('conv2d same stride 2', lambda x, w: rt.nn.conv2d(x, w, 2, 'SAME'), [IMG, KERNEL],
     np_conv2d(IMG, KERNEL, 2, 'SAME'), 'Conv2D'),
    ('conv2d valid', lambda x, w: rt.nn.conv2d(x, w, [1, 1, 1, 1], 'VALID'), [IMG, KERNEL],
     np_conv2d(IMG, KERNEL, 1, 'VALID'), 'Conv2D'),
    ('max_pool2d', lambda x: rt.nn.max_pool2d(x, 2, 2, 'VALID'), [IMG],
     np_pool(IMG, 2, 2, np.max), 'MaxPool'),
    ('avg_pool2d', lambda x: rt.nn.avg_pool2d(x, 3, 1, 'VALID'), [IMG],
     np_pool(IMG, 3, 1, np.mean), 'AvgPool'),
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
    ('triangular_solve', lambda a, b: rt.linalg.triangular_solve(a, b), [A, RHS],
     np.linalg.solve(np.tril(A), RHS), 'MatrixTriangularSolve'),
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
    ('strings.strip', lambda s: rt.strings.strip(s), [np.array([b' a b ', b'c\n'], object)],
     np.array([b'a b', b'c'], object), 'StringStrip'),
    ('strings.regex_full_match', lambda s: rt.strings.regex_full_match(s, '[A-Z][a-z]+'), [S],
     [True, True, False], 'StaticRegexFullMatch'),
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


# ---- names, dtypes and defaults ------------------------------------------------------------------

def test_one_function_object_per_op_under_every_name():
    assert rt.math.sigmoid is rt.sigmoid is rt.nn.sigmoid
    assert rt.math.tanh is rt.tanh is rt.nn.tanh
    assert rt.math.softplus is rt.nn.softplus
    assert rt.math.reduce_sum is rt.reduce_sum and rt.math.argmax is rt.argmax
    assert rt.math.floormod is rt.math.mod is rt.mod
    assert rt.math.cumsum is rt.cumsum and rt.math.add_n is rt.add_n
    assert rt.linalg.matmul is rt.matmul and rt.linalg.eye is rt.eye
    assert rt.linalg.einsum is rt.einsum and rt.linalg.norm is rt.norm
    assert rt.nn.l2_normalize is rt.math.l2_normalize is rt.linalg.l2_normalize
    assert rt.nn.swish is rt.nn.silu and rt.nn.top_k is rt.math.top_k
    for module in (rt.math, rt.nn, rt.linalg, rt.strings, rt.debugging):
        for name in module.__all__:
            assert callable(getattr(module, name)), (module.__name__, name)


def test_index_results_have_tensorflows_dtypes():
    x = rt.constant([[1., 5., 3.]])
    assert rt.math.argmax(x, 1).dtype is rt.int64
    assert rt.math.argmin(x, 1, output_type=rt.int32).dtype is rt.int32
    values, indices = rt.math.top_k(x, 2)
    assert indices.dtype is rt.int32 and values.numpy().tolist() == [[5., 3.]]
    assert rt.argsort(x).dtype is rt.int32
    assert rt.math.count_nonzero(x).dtype is rt.int64
    assert rt.math.is_nan(x).dtype is rt.bool


def test_string_tensors_give_bytes_and_length_counts_bytes_by_default():
    s = rt.constant(['héllo', 'ok'])
    assert s.numpy().tolist() == ['héllo'.encode(), b'ok']
    assert rt.strings.upper(s).numpy()[1] == b'OK'
    assert rt.strings.length(s).numpy().tolist() == [6, 2]
    assert rt.strings.length(s, unit='UTF8_CHAR').numpy().tolist() == [5, 2]
    assert rt.strings.to_number(rt.constant('2.5')).dtype is rt.float32
    assert rt.strings.to_number(rt.constant('7'), out_type=rt.int64).numpy() == 7
    assert rt.strings.join(['a', 'b', 'c']).numpy() == b'abc'
    assert rt.strings.format('{} and {}', (1, 'x')).numpy() == b'1 and "x"'
    assert rt.strings.substr(rt.constant(['hello']), -3, 2).numpy().tolist() == [b'll']
    assert rt.strings.as_string(rt.constant([True, False])).numpy().tolist() == [b'true',
                                                                                b'false']


def test_cumulative_ops_refuse_an_axis_out_of_range_as_tensorflow_does():
    for op in (rt.math.cumsum, rt.math.cumprod):
        for x, axis, bounds in ((3.0, 0, '[0, 0)'), ([1., 2.], 1, '[-1, 1)'),
                                ([1., 2.], -2, '[-1, 1)')):
            with pytest.raises(rt.errors.InvalidArgumentError,
                               match=re.escape(f'range {bounds}, but got {axis}')):
                op(rt.constant(x), axis=axis)  # a scalar has no axis (numpy would make it 1-D)


def test_a_scalars_cumsum_fails_when_the_graph_runs(graph):
    x = rt.placeholder(rt.float32, [])
    with pytest.raises(rt.errors.InvalidArgumentError, match='Expected scan axis'):
        graph.run(rt.math.cumsum(x), {x: 3.0})


def test_ops_record_tensorflows_attrs_in_the_graph(graph):
    x = rt.placeholder(rt.float32, [None, 4])
    c = rt.math.cumsum(x, axis=1, exclusive=True, reverse=True)
    assert c.op.get_attr('exclusive') is True and c.op.get_attr('reverse') is True
    assert rt.nn.leaky_relu(x).op.get_attr('alpha') == 0.2
    assert rt.math.top_k(x, 2).values.op.get_attr('sorted') is True
    assert rt.einsum('ij,kj->ik', x, x).op.get_attr('equation') == 'ij,kj->ik'
    assert rt.nn.bias_add(x, rt.zeros([4])).op.get_attr('data_format') == 'NHWC'
    assert rt.strings.length(rt.constant(['a']), unit='UTF8_CHAR').op.get_attr('unit') == \
        'UTF8_CHAR'
    text = str(graph.as_graph_def())
    assert 'op: "Cumsum"' in text and 'op: "TopKV2"' in text and 'op: "Einsum"' in text


def test_shape_inference_of_the_new_ops(graph):
    x = rt.placeholder(rt.float32, [None, 5])
    assert rt.math.top_k(x, 3).indices.shape == (None, 3)
    assert rt.math.reduce_logsumexp(x, axis=1).shape == (None,)
    assert rt.nn.softmax_cross_entropy_with_logits(labels=x, logits=x).shape == (None,)
    assert rt.math.unsorted_segment_sum(x, rt.placeholder(rt.int32, [None]), 4).shape == (4, 5)
    assert rt.linalg.qr(rt.placeholder(rt.float32, [7, 3])).q.shape == (7, 3)
    assert rt.linalg.det(rt.placeholder(rt.float32, [2, 3, 3])).shape == (2,)
    assert rt.einsum('bij,bjk->bik', rt.placeholder(rt.float32, [2, 3, 4]),
                     rt.placeholder(rt.float32, [2, 4, 6])).shape == (2, 3, 6)
    assert rt.strings.join([rt.placeholder(rt.string, [3]), 'x']).shape == (3,)
    with pytest.raises(ValueError):
        rt.linalg.inv(rt.placeholder(rt.float32, [2, 3]))
    with pytest.raises(ValueError):
        rt.einsum('ij,jk->ik', rt.placeholder(rt.float32, [2, 3]),
                  rt.placeholder(rt.float32, [4, 2]))


# ---- errors --------------------------------------------------------------------------------------

def test_float_only_ops_refuse_integers_as_TensorFlow_does():
    # eagerly an InvalidArgumentError, while building a graph a TypeError
    for fn in (rt.math.log1p, rt.math.rsqrt, rt.math.erf, rt.nn.softmax, rt.nn.elu,
               rt.nn.l2_loss, rt.linalg.inv):
        with pytest.raises(rt.errors.InvalidArgumentError, match='int32'):
            fn(rt.constant([[1, 2], [3, 4]]))
        with pytest.raises(TypeError, match='int32'):
            ag.function(fn, autograph=False)(rt.constant([[1, 2], [3, 4]]))
    with pytest.raises(TypeError):
        rt.math.divide_no_nan(rt.constant([1]), rt.constant([0]))
    with pytest.raises(TypeError):
        rt.strings.length(rt.constant([1]))


def test_failures_when_ops_run_are_InvalidArgumentErrors():
    logits = rt.constant([[1., 2.], [3., 4.]])
    with pytest.raises(rt.errors.InvalidArgumentError, match='label value of 5'):
        rt.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 5], logits=logits)
    with pytest.raises(rt.errors.InvalidArgumentError, match='not invertible'):
        rt.linalg.inv(rt.constant([[1., 2.], [2., 4.]]))
    with pytest.raises(rt.errors.InvalidArgumentError, match='Cholesky'):
        rt.linalg.cholesky(rt.constant([[1., 2.], [2., 1.]]))
    with pytest.raises(rt.errors.InvalidArgumentError, match='could not correctly convert'):
        rt.strings.to_number('twelve')
    with pytest.raises(rt.errors.InvalidArgumentError, match='bad input : Tensor had NaN'):
        rt.debugging.check_numerics(rt.constant([1., np.nan]), 'bad input')
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.math.top_k(rt.constant([1., 2.]), 3)
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.math.segment_sum(rt.constant([1., 2.]), [1, 0])


def test_a_failing_op_in_a_graph_raises_when_the_graph_runs():
    g, out, _ = run_in_graph(lambda x: rt.linalg.inv(x) * 1.0, np.eye(2, dtype=np.float32))
    p = g.get_operation_by_name('in0').outputs[0]
    with pytest.raises(rt.errors.InvalidArgumentError, match='not invertible'):
        g.run(out, {p: np.zeros((2, 2), np.float32)})


def test_argument_errors_are_raised_at_the_call():
    x = rt.constant([[1., 2.], [3., 4.]])
    with pytest.raises(ValueError, match='rate'):
        rt.nn.dropout(x, rate=1.5)
    with pytest.raises(ValueError, match='same shape'):
        rt.nn.softmax_cross_entropy_with_logits(labels=rt.constant([[1., 0., 0.]]), logits=x)
    with pytest.raises(ValueError, match='Rank mismatch'):
        rt.nn.sparse_softmax_cross_entropy_with_logits(labels=[[0]], logits=x)
    with pytest.raises(ValueError, match='direction'):
        rt.sort(x, direction='UP')
    with pytest.raises(ValueError, match='ord'):
        rt.norm(x, ord=-1)
    with pytest.raises(ValueError, match='placeholder'):
        rt.strings.format('{} {}', [x])
    with pytest.raises(ValueError, match='unit'):
        rt.strings.length('a', unit='CHAR')


# ---- rt.debugging --------------------------------------------------------------------------------

def test_static_assertion_failures_are_ValueErrors_at_trace_time():
    @ag.function
    def f(x):
        rt.debugging.assert_rank(x, 3)
        return x

    with pytest.raises(ValueError, match='must have rank 3'):
        f(rt.constant([[1.]]))

    @ag.function
    def g(x, y):
        rt.debugging.assert_shapes([(x, ('N', 'D')), (y, ('N',))])
        return x

    with pytest.raises(ValueError, match="'N'"):
        g(rt.constant([[1., 2.]]), rt.constant([1., 2.]))
    assert g(rt.constant([[1., 2.]]), rt.constant([1.])).shape == (1, 2)


def test_assertions_known_only_at_run_time_raise_InvalidArgumentError():
    @ag.function(input_signature=[rt.TensorSpec(None, rt.float32)])
    def f(x):
        rt.debugging.assert_rank(x, 2)
        return x + 1

    assert f(rt.constant([[1.]])).numpy().tolist() == [[2.]]
    with pytest.raises(rt.errors.InvalidArgumentError):
        f(rt.constant([1.]))

    @ag.function(input_signature=[rt.TensorSpec([None, None], rt.float32),
                                  rt.TensorSpec([None], rt.float32)])
    def g(x, y):
        rt.debugging.assert_shapes([(x, ('N', 2)), (y, ('N',))])
        rt.debugging.assert_near(rt.reduce_sum(x, 1), y, atol=1e-3)
        return y

    assert g(rt.constant([[1., 2.]]), rt.constant([3.])).numpy().tolist() == [3.]
    with pytest.raises(rt.errors.InvalidArgumentError):
        g(rt.constant([[1., 2.]]), rt.constant([3., 3.]))
    with pytest.raises(rt.errors.InvalidArgumentError):
        g(rt.constant([[1., 2., 3.]]), rt.constant([6.]))
    with pytest.raises(rt.errors.InvalidArgumentError, match='tolerance'):
        g(rt.constant([[1., 2.]]), rt.constant([3.5]))


def test_comparison_assertions():
    rt.debugging.assert_greater_equal(rt.constant([1, 2]), 1)
    rt.debugging.assert_less_equal(rt.constant([1, 2]), 2)
    rt.debugging.assert_none_equal(rt.constant([1, 2]), 3)
    assert rt.debugging.assert_all_finite(rt.constant([1.]), 'finite').numpy().tolist() == [1.]
    with pytest.raises(rt.errors.InvalidArgumentError, match='x <= y'):
        rt.debugging.assert_less_equal(rt.constant([3]), 2, message='too big')
    with pytest.raises(rt.errors.InvalidArgumentError, match='x != y'):
        rt.debugging.assert_none_equal(rt.constant([1, 2]), 2)


def test_sign_assertions_and_assert_type():
    rt.debugging.assert_non_negative(rt.constant([0, 1]))
    rt.debugging.assert_positive(rt.constant([0.5]))
    with pytest.raises(rt.errors.InvalidArgumentError, match='x > 0'):
        rt.debugging.assert_positive(rt.constant([0.5, 0.]))
    with pytest.raises(rt.errors.InvalidArgumentError, match='x >= 0'):
        rt.debugging.assert_non_negative(rt.constant([-1]))
    rt.debugging.assert_type(rt.constant(1.), rt.float32)
    with pytest.raises(TypeError, match='float32'):
        rt.debugging.assert_type(rt.constant(1), rt.float32)


# ---- dropout -------------------------------------------------------------------------------------

def test_dropout_keeps_a_fraction_and_scales_it_and_draws_anew_in_each_graph_run():
    x = rt.ones([100, 100])
    y = rt.nn.dropout(x, rate=0.25, seed=1).numpy()
    assert set(np.unique(y)) <= {0.0, np.float32(1 / 0.75)}
    assert 0.7 < (y > 0).mean() < 0.8
    assert rt.nn.dropout(x, rate=0.0) is x

    @ag.function
    def drop(x):
        return rt.nn.dropout(x, rate=0.5)

    first, second = drop(x).numpy(), drop(x).numpy()
    assert (first != second).any()
    assert set(np.unique(first)) <= {0.0, 2.0}


# ---- small programs ported from TensorFlow -------------------------------------------------------

def test_a_softmax_classifier_forward_pass_in_a_function():
    rng = np.random.default_rng(0)
    features = rng.normal(size=(8, 5)).astype(np.float32)
    classes = rng.integers(0, 3, size=8)
    w = rt.Variable(rng.normal(size=(5, 3)).astype(np.float32))
    b = rt.Variable(np.zeros(3, np.float32))

    @ag.function
    def forward(x, labels):
        logits = rt.nn.bias_add(rt.matmul(x, w), b)
        one_hot = rt.cast(rt.equal(rt.expand_dims(labels, 1), rt.range(3, dtype=rt.int64)),
                          rt.float32)
        loss = rt.reduce_mean(rt.nn.softmax_cross_entropy_with_logits(labels=one_hot,
                                                                      logits=logits))
        probs = rt.nn.softmax(logits)
        accuracy = rt.reduce_mean(rt.cast(rt.equal(rt.argmax(probs, axis=1), labels),
                                          rt.float32))
        return loss, probs, accuracy

    loss, probs, accuracy = forward(rt.constant(features), rt.constant(classes, rt.int64))
    logits = features @ w.numpy()
    expected = np.mean(-np_log_softmax(logits)[np.arange(8), classes])
    np.testing.assert_allclose(loss.numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(probs.numpy().sum(1), 1, rtol=1e-6)
    assert accuracy.numpy() == np.mean(logits.argmax(1) == classes)
    graph = forward.get_concrete_function(rt.constant(features),
                                          rt.constant(classes, rt.int64)).graph
    types = {op.type for op in graph.get_operations()}
    assert {'SoftmaxCrossEntropyWithLogits', 'Softmax', 'BiasAdd', 'ArgMax'} <= types


def test_a_small_linear_algebra_program():
    @ag.function
    def least_squares(a, y):
        gram = rt.matmul(a, a, transpose_a=True)
        chol = rt.linalg.cholesky(gram)
        x = rt.linalg.solve(gram, rt.matmul(a, y, transpose_a=True))
        residual = rt.norm(rt.matmul(a, x) - y)
        return x, residual, 2.0 * rt.reduce_sum(rt.math.log(rt.linalg.diag_part(chol)))

    rng = np.random.default_rng(1)
    a = rng.normal(size=(10, 3))
    y = rng.normal(size=(10, 1))
    x, residual, logdet = least_squares(rt.constant(a), rt.constant(y))
    expected, res, *_ = np.linalg.lstsq(a, y, rcond=None)
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-8)
    np.testing.assert_allclose(residual.numpy() ** 2, res[0], rtol=1e-8)
    np.testing.assert_allclose(logdet.numpy(), np.linalg.slogdet(a.T @ a)[1], rtol=1e-10)
    np.testing.assert_allclose(rt.linalg.logdet(rt.constant(a.T @ a)).numpy(), logdet.numpy())


def test_a_small_convolutional_network_in_a_function():
    rng = np.random.default_rng(5)
    kernel = rt.Variable(rng.normal(size=(3, 3, 1, 4)).astype(np.float32))
    dense = rt.Variable(rng.normal(size=(4 * 4 * 4, 10)).astype(np.float32))

    @ag.function
    def logits(images):
        h = rt.nn.relu(rt.nn.conv2d(images, kernel, strides=1, padding='SAME'))
        h = rt.nn.max_pool2d(h, ksize=2, strides=2, padding='VALID')
        return rt.matmul(rt.reshape(h, [-1, 4 * 4 * 4]), dense)

    images = rng.normal(size=(5, 8, 8, 1)).astype(np.float32)
    out = logits(rt.constant(images))
    h = np.maximum(np_conv2d(images, kernel.numpy(), 1, 'SAME'), 0)
    h = np_pool(h, 2, 2, np.max)
    np.testing.assert_allclose(out.numpy(), h.reshape(5, -1) @ dense.numpy(), rtol=1e-4,
                               atol=1e-4)
    assert out.shape == (5, 10)
    with pytest.raises(ValueError, match='padding'):
        rt.nn.conv2d(images, kernel, 1, 'FULL')
    with pytest.raises(ValueError, match='NHWC'):
        rt.nn.max_pool2d(images, 2, 2, 'SAME', data_format='NCHW')
    with pytest.raises(rt.errors.InvalidArgumentError, match='channels'):
        rt.nn.conv2d(images, rt.zeros([3, 3, 2, 4]), 1, 'SAME')
    with pytest.raises(ValueError, match='channels'), rt.Graph().as_default():
        rt.nn.conv2d(rt.placeholder(rt.float32, [None, 8, 8, 1]), rt.zeros([3, 3, 2, 4]), 1,
                     'SAME')


def test_sort_and_top_k_keep_the_order_of_equal_values():
    x = rt.constant([3, 1, 3, 2, 1])
    assert rt.argsort(x).numpy().tolist() == [1, 4, 3, 0, 2]
    assert rt.argsort(x, direction='DESCENDING').numpy().tolist() == [0, 2, 3, 1, 4]
    assert rt.math.top_k(x, 2).indices.numpy().tolist() == [0, 2]
    assert rt.sort(rt.constant([[2., 1.], [0., 3.]]), axis=0).numpy().tolist() == [[0., 1.],
                                                                                  [2., 3.]]


# ---- property tests against numpy ----------------------------------------------------------

small_arrays = hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=4),
                          elements=st.floats(-50, 50))


@settings(max_examples=30, deadline=None)
@given(small_arrays, st.data())
def test_scans_and_sorts_match_numpy(x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    t = rt.constant(x)
    check_value(rt.math.cumsum(t, axis).numpy(), np.cumsum(x, axis), rtol=1e-12, atol=1e-9)
    check_value(rt.math.cumsum(t, axis, exclusive=True, reverse=True).numpy(),
                np.flip(np.cumsum(np.flip(x, axis), axis), axis) - x, rtol=1e-9, atol=1e-9)
    check_value(rt.sort(t, axis).numpy(), np.sort(x, axis))
    check_value(rt.argsort(t, axis).numpy(), np.argsort(x, axis, kind='stable'))
    check_value(rt.math.reduce_logsumexp(t, axis).numpy(),
                np.log(np.sum(np.exp(x - x.max()), axis)) + x.max(), rtol=1e-9, atol=1e-9)
    k = data.draw(st.integers(0, x.shape[-1]))
    values, indices = rt.math.top_k(t, k)
    check_value(values.numpy(), np.take_along_axis(x, indices.numpy(), -1))
    check_value(values.numpy(), -np.sort(-x, -1)[..., :k])


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)),
                  elements=st.floats(-10, 10)), st.data())
def test_segment_sums_and_einsum_match_numpy(x, data):
    ids = np.array(data.draw(st.lists(st.integers(0, 3), min_size=x.shape[0],
                                      max_size=x.shape[0])), np.int32)
    expected = np.zeros((4, x.shape[1]))
    np.add.at(expected, ids, x)
    check_value(rt.math.unsorted_segment_sum(x, ids, 4).numpy(), expected, rtol=1e-12,
                atol=1e-12)
    check_value(rt.math.segment_sum(x, np.sort(ids)).numpy(),
                np.stack([x[np.sort(ids) == i].sum(0) for i in range(np.sort(ids)[-1] + 1)]),
                rtol=1e-12, atol=1e-12)
    check_value(rt.einsum('ij,kj->ik', x, x).numpy(), x @ x.T, rtol=1e-12, atol=1e-9)
    check_value(rt.tensordot(x, x, [[0], [0]]).numpy(), x.T @ x, rtol=1e-12, atol=1e-9)


def test_a_softmax_classifier_trains_in_a_function_with_the_tape():
    rng = np.random.default_rng(6)
    features = rng.normal(size=(64, 4)).astype(np.float32)
    classes = (features[:, 0] + features[:, 1] > 0).astype(np.int32)
    w = rt.Variable(np.zeros((4, 2), np.float32))
    b = rt.Variable(np.zeros(2, np.float32))
    optimizer = rt.optimizers.SGD(learning_rate=0.5)

    @ag.function
    def train_step(x, y):
        with rt.GradientTape() as tape:
            logits = rt.nn.bias_add(rt.matmul(x, w), b)
            loss = rt.reduce_mean(rt.nn.sparse_softmax_cross_entropy_with_logits(
                labels=y, logits=logits)) + 1e-3 * rt.nn.l2_loss(w)
        grads = tape.gradient(loss, [w, b])
        grads, _ = rt.clip_by_global_norm(grads, 5.0)
        optimizer.apply_gradients(zip(grads, [w, b]))
        return loss

    x, y = rt.constant(features), rt.constant(classes)
    losses = [float(train_step(x, y)) for _ in range(30)]
    assert losses[-1] < 0.5 * losses[0]
    accuracy = np.mean((features @ w.numpy() + b.numpy()).argmax(1) == classes)
    assert accuracy > 0.9
    assert train_step.experimental_get_tracing_count() == 1
