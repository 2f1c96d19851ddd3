"""Gradient cases of the math-like surface (rt.math, rt.nn, rt.linalg, ...): (op type,
program on tensors, float64 inputs in a domain where the op is smooth). Checked by
test_surface_gradients.py (the op's gradient function against its kernel) and by
test_gradients_registry.py (through GradientTape, eagerly and in graphs).
"""
import numpy as np

import runtime as rt
from runtime.ops import conv, decompositions
from runtime.ops import nn as nn_ops
from runtime.ops.dispatch import apply

RNG = np.random.default_rng(7)
X = RNG.normal(size=(3, 4))
Y = RNG.normal(size=(3, 4))
POS = RNG.uniform(0.5, 2.0, size=(3, 4))
UNIT = RNG.uniform(-0.8, 0.8, size=(3, 4))
SPD = np.array([[4., 1., 0.5], [1., 3., 1.], [0.5, 1., 2.]])
M = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
IMAGE = RNG.normal(size=(2, 5, 6, 3))
FILTER = RNG.normal(size=(3, 2, 3, 4))
CONV_ATTRS = {'strides': (1, 2, 2, 1), 'padding': 'SAME'}
POOL_ATTRS = {'ksize': (1, 2, 2, 1), 'strides': (1, 2, 2, 1), 'padding': 'SAME'}
LABELS = np.exp(Y) / np.exp(Y).sum(-1, keepdims=True)

CASES = [  # (op type, program, float64 inputs)
    ('Log1p', rt.math.log1p, [POS]), ('Expm1', rt.math.expm1, [X]),
    ('Reciprocal', rt.math.reciprocal, [POS]), ('Rsqrt', rt.math.rsqrt, [POS]),
    ('Tan', rt.math.tan, [UNIT]), ('Asin', rt.math.asin, [UNIT]), ('Acos', rt.math.acos, [UNIT]),
    ('Atan', rt.math.atan, [X]), ('Asinh', rt.math.asinh, [X]),
    ('Acosh', rt.math.acosh, [POS + 1.0]), ('Atanh', rt.math.atanh, [UNIT]),
    ('Softsign', rt.nn.softsign, [X]),
    ('CumulativeLogsumexp', lambda x: rt.math.cumulative_logsumexp(x, axis=1), [X]),
    ('CumulativeLogsumexp',
     lambda x: rt.math.cumulative_logsumexp(x, 0, reverse=True), [X]),
    ('MatrixTriangularSolve', rt.linalg.triangular_solve, [M, X[:, :2].copy()]),
    ('MatrixTriangularSolve',
     lambda a, b: rt.linalg.triangular_solve(a, b, lower=False, adjoint=True),
     [M, X[:, :2].copy()]),
    ('Sinh', rt.math.sinh, [X]), ('Cosh', rt.math.cosh, [X]),
    ('Erf', rt.math.erf, [X]), ('Erfc', rt.math.erfc, [X]), ('Softplus', rt.math.softplus, [X]),
    ('SquaredDifference', rt.math.squared_difference, [X, Y[:1]]),
    ('DivNoNan', rt.math.divide_no_nan, [X, POS[0]]),
    ('Atan2', rt.math.atan2, [X, Y[:1]]), ('Xlogy', rt.math.xlogy, [X, POS]),
    ('Xdivy', rt.math.xdivy, [X[0], POS]), ('MulNoNan', rt.math.multiply_no_nan, [X, Y]),
    ('AddN', lambda a, b: rt.math.add_n([a, b, a]), [X, Y]),
    ('EuclideanNorm', lambda x: rt.math.reduce_euclidean_norm(x, axis=1), [X]),
    ('Cumsum', lambda x: rt.math.cumsum(x, axis=1, exclusive=True), [X]),
    ('Cumprod', lambda x: rt.math.cumprod(x, axis=1, reverse=True), [POS]),
    ('TopKV2', lambda x: rt.math.top_k(x, 2).values, [X]),
    ('SegmentSum', lambda x: rt.math.segment_sum(x, [0, 0, 1]), [X]),
    ('UnsortedSegmentSum', lambda x: rt.math.unsorted_segment_sum(x, [1, 0, 1], 2), [X]),
    ('Relu6', lambda x: rt.nn.relu6(4 * x), [X]), ('Elu', rt.nn.elu, [X]),
    ('Selu', rt.nn.selu, [X]), ('LeakyRelu', lambda x: rt.nn.leaky_relu(x, 0.3), [X]),
    ('LeakyReluGrad', lambda g, x: apply(nn_ops.LEAKY_RELU_GRAD, [g, x], {'alpha': 0.3}),
     [Y, X]),
    ('Softmax', rt.nn.softmax, [X]), ('LogSoftmax', rt.nn.log_softmax, [X]),
    ('SoftmaxCrossEntropyWithLogits',
     lambda y, x: rt.nn.softmax_cross_entropy_with_logits(labels=y, logits=x), [LABELS, X]),
    ('SparseSoftmaxCrossEntropyWithLogits',
     lambda x: rt.nn.sparse_softmax_cross_entropy_with_logits([0, 3, 1], x), [X]),
    ('L2Loss', rt.nn.l2_loss, [X]), ('BiasAdd', rt.nn.bias_add, [X, Y[0]]),
    ('MatrixInverse', rt.linalg.inv, [M]), ('MatrixDeterminant', rt.linalg.det, [M]),
    ('Svd', lambda a: rt.linalg.svd(a, compute_uv=False), [X]),
    ('Svd', lambda a: rt.linalg.svd(a)[1] ** 2 + rt.linalg.svd(a)[0], [X]),  # signs cancel
    ('Svd', lambda a: rt.linalg.svd(a)[2] ** 2, [X.T]),
    ('SelfAdjointEigV2', rt.linalg.eigvalsh, [SPD]),
    ('SelfAdjointEigV2', lambda a: rt.linalg.eigh(a)[1] ** 2, [SPD]),
    ('LogMatrixDeterminant', lambda a: rt.linalg.slogdet(a).log_abs_determinant, [M]),
    ('MatrixExponential', lambda a: rt.linalg.expm(a * 0.3), [M]),
    ('MatrixSolveLs', lambda a, b: apply(decompositions.MATRIX_SOLVE_LS, [a, b, np.float64(0.1)],
                                         {'fast': True}), [X.T, Y.T[:, :2]]),
    ('MatrixSolveLs', lambda a, b: apply(decompositions.MATRIX_SOLVE_LS, [a, b, np.float64(0.)],
                                         {'fast': True}), [X, Y[:, :2]]),
    ('MatrixSolve', rt.linalg.solve, [M, X[:, :2].copy()]),
    ('Cholesky', rt.linalg.cholesky, [SPD]), ('Qr', lambda a: rt.linalg.qr(a).q, [M]),
    ('Qr', lambda a: rt.linalg.qr(a).r, [M]),
    ('MatrixDiagV3', lambda v: rt.linalg.diag(v, k=1), [X[0]]),
    ('MatrixDiagPartV3', rt.linalg.diag_part, [X]),
    ('MatrixBandPart', lambda a: rt.linalg.band_part(a, 1, 0), [M]),
    ('Einsum', lambda a, b: rt.einsum('ij,kj->ik', a, b), [X, Y]),
    ('Einsum', lambda a, b: rt.einsum('ij,j->i', a, b), [X, Y[0]]),
    ('Einsum', lambda a: rt.einsum('ij->j', a), [X]),
    ('Conv2D', lambda x, w: rt.nn.conv2d(x, w, 2, 'SAME'), [IMAGE, FILTER]),
    ('Conv2D', lambda x, w: rt.nn.conv2d(x, w, 1, 'VALID'), [IMAGE, FILTER]),
    ('Conv2DBackpropInput', lambda w, dy: apply(conv.BACKPROP_INPUT, [
        np.array(IMAGE.shape, np.int32), w, dy], CONV_ATTRS),
     [FILTER, RNG.normal(size=(2, 3, 3, 4))]),
    ('Conv2DBackpropFilter', lambda x, dy: apply(conv.BACKPROP_FILTER, [
        x, np.array(FILTER.shape, np.int32), dy], CONV_ATTRS),
     [IMAGE, RNG.normal(size=(2, 3, 3, 4))]),
    ('MaxPool', lambda x: rt.nn.max_pool2d(x, 2, 2, 'SAME'), [IMAGE]),
    ('AvgPool', lambda x: rt.nn.avg_pool2d(x, 3, 2, 'SAME'), [IMAGE]),
    ('MaxPoolGrad', lambda x, g: apply(conv.MAX_POOL_GRAD, [
        x, rt.nn.max_pool2d(x, 2, 2, 'SAME'), g], POOL_ATTRS),
     [IMAGE, RNG.normal(size=(2, 3, 3, 3))]),
    ('MaxPoolGradGrad', lambda x, g: apply(conv.MAX_POOL_GRAD_GRAD, [
        x, rt.nn.max_pool2d(x, 2, 2, 'SAME'), g], POOL_ATTRS),
     [IMAGE, RNG.normal(size=IMAGE.shape)]),
    ('AvgPoolGrad', lambda g: apply(conv.AVG_POOL_GRAD, [
        np.array(IMAGE.shape, np.int32), g], {**POOL_ATTRS, 'ksize': (1, 3, 3, 1)}),
     [RNG.normal(size=(2, 3, 3, 3))]),
    ('Lgamma', rt.math.lgamma, [POS]), ('Digamma', rt.math.digamma, [POS]),
    ('Polygamma', lambda x: rt.math.polygamma(2.0, x), [POS]),
    ('CheckNumerics', lambda x: rt.debugging.check_numerics(x, 'x'), [X]),
    ('Roll', lambda x: rt.roll(x, [1, -2], [0, 1]), [X]),
    ('ReverseSequence', lambda x: rt.reverse_sequence(x, [2, 4, 1], seq_axis=1, batch_axis=0),
     [X]),
    ('EnsureShape', lambda x: rt.ensure_shape(x, [None, 4]), [X]),
]
