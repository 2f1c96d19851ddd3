"""Entries of the nn and linalg ops."""
from typing import Callable

import numpy as np

from tools.opinfo.samples import FLOATS, OpInfo, R, Sample, cases, s, t, unary


def nn_entries() -> list[OpInfo]:
    f = 'float32'
    img, flt = R((2, 5, 6, 3)), R((3, 2, 3, 4))
    ties_img = t(np.tile(np.array([[1.0, 1.0], [0.5, 1.0]], f), (1, 2, 2))
                 .reshape(1, 4, 4, 1), f)
    zero_logits = t([[0.0, 0.0, 1.0], [0.0, -1.0, 0.0]], f)
    labels = t([[1.0, 0.0, 0.5], [0.0, 1.0, 0.25]], f)
    return [
        OpInfo('Softmax', 'nn.softmax', cases(
            s('random', R((3, 4))), s('float64', R((3, 4), 'float64')),
            s('axis0', R((3, 4)), axis=0), s('ties', t([[1.0, 1.0], [0.0, 0.0]], f)),
            s('empty', R((0, 3)))), 'nn', grad2=True),
        OpInfo('LogSoftmax', 'nn.log_softmax', cases(
            s('random', R((3, 4))), s('float64', R((3, 4), 'float64')),
            s('axis0', R((3, 4)), axis=0), s('ties', t([[1.0, 1.0], [0.0, 0.0]], f))), 'nn'),
        OpInfo('SoftmaxCrossEntropyWithLogits', 'nn.softmax_cross_entropy_with_logits', cases(
            s('random', labels=R((3, 4), f, 0.0, 1.0), logits=R((3, 4))),
            s('zeros', labels=labels, logits=zero_logits),
            s('float64', labels=R((2, 3), 'float64', 0.0, 1.0), logits=R((2, 3), 'float64'))),
            'nn'),
        OpInfo('SparseSoftmaxCrossEntropyWithLogits',
               'nn.sparse_softmax_cross_entropy_with_logits', cases(
                   s('random', labels=t([0, 3, 1], 'int32'), logits=R((3, 4))),
                   s('int64-labels', labels=t([2, 0], 'int64'), logits=zero_logits),
                   s('label-invalid', labels=t([5, 0], 'int32'), logits=zero_logits)), 'nn'),
        OpInfo('nn.sigmoid_cross_entropy_with_logits', 'nn.sigmoid_cross_entropy_with_logits',
               cases(s('random', labels=R((3, 4), f, 0.0, 1.0), logits=R((3, 4))),
                     s('zero-logits', labels=labels, logits=zero_logits),
                     s('float64', labels=R((3,), 'float64', 0, 1), logits=R((3,), 'float64')),
                     s('shapes-invalid', labels=R((3,)), logits=R((4,)))), 'nn', grad2=True),
        OpInfo('math.log_sigmoid', 'math.log_sigmoid', unary(FLOATS, specials=()), 'nn'),
        OpInfo('nn.gelu', 'nn.gelu', unary(FLOATS, specials=()), 'nn'),
        OpInfo('nn.silu', 'nn.silu', unary(FLOATS, specials=()), 'nn'),
        OpInfo('nn.l2_normalize', 'nn.l2_normalize', cases(
            s('random', R((3, 4))), s('axis', R((3, 4), 'float64'), axis=1),
            s('zeros', t([[0.0, 0.0], [3.0, 4.0]], f), axis=1)), 'nn'),
        OpInfo('nn.moments', 'nn.moments', cases(
            s('random', R((3, 4)), axes=[0]), s('keepdims', R((3, 4), 'float64'), axes=[0, 1],
                                                 keepdims=True),
            s('ties', t([[1.0, 1.0], [1.0, 1.0]], f), axes=[1])), 'nn'),
        OpInfo('L2Loss', 'nn.l2_loss', unary(FLOATS, specials=()), 'nn'),
        OpInfo('BiasAdd', 'nn.bias_add', cases(
            s('random', R((3, 4)), R((4,))), s('nhwc', img, R((3,))),
            s('float64', R((2, 3), 'float64'), R((3,), 'float64')),
            s('shapes-invalid', R((3, 4)), R((3,)))), 'nn', grad2=True),
        OpInfo('Conv2D', 'nn.conv2d', cases(
            s('same', img, flt, strides=[1, 2, 2, 1], padding='SAME'),
            s('valid', img, flt, strides=1, padding='VALID'),
            s('dilations', img, R((2, 2, 3, 2)), strides=1, padding='SAME', dilations=2),
            s('channels-invalid', img, R((3, 2, 4, 4)), strides=1, padding='SAME')), 'nn',
            ops=('Conv2DBackpropInput', 'Conv2DBackpropFilter')),
        OpInfo('MaxPool', 'nn.max_pool2d', cases(
            s('random', img, ksize=2, strides=2, padding='SAME'),
            s('valid', img, ksize=3, strides=1, padding='VALID'),
            s('ties', ties_img, ksize=2, strides=2, padding='VALID')), 'nn', grad2=True,
            ops=('MaxPoolGrad', 'MaxPoolGradGrad')),
        OpInfo('AvgPool', 'nn.avg_pool2d', cases(
            s('random', img, ksize=2, strides=2, padding='SAME'),
            s('valid', img, ksize=3, strides=1, padding='VALID')), 'nn', ops=('AvgPoolGrad',)),
        OpInfo('TopKV2', 'math.top_k', cases(
            s('random', R((3, 4)), k=2), s('ties', t([[1.0, 1.0, 0.0, 1.0]], f), k=2),
            s('int64-k', R((3, 4), 'float64'), k=t(3, 'int64')),
            s('k-invalid', R((3, 4)), k=5)), 'nn'),
        OpInfo('InTopKV2', 'math.in_top_k', cases(
            s('random', targets=t([0, 3, 1], 'int32'), predictions=R((3, 4)), k=2),
            s('ties', targets=t([0, 1], 'int64'), predictions=t([[1, 1, 0], [0, 2, 2]], f),
              k=1)), 'nn', grad=False),
    ]


def linalg_entries() -> list[OpInfo]:
    d = 'float64'
    spd = t([[4.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.5, 1.0, 2.0]], d)
    m = t(np.eye(3) * 3 + np.arange(9).reshape(3, 3) / 10.0, d)
    tri = t(np.tril(np.arange(1, 10).reshape(3, 3) / 4.0 + np.eye(3)), d)
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], bool]] = [
        ('MatMul', 'linalg.matmul', cases(
            s('random', R((3, 4)), R((4, 2))), s('float64', R((2, 3), d), R((3, 2), d)),
            s('transpose', R((4, 3)), R((2, 4)), transpose_a=True, transpose_b=True),
            s('int32', R((2, 3), 'int32'), R((3, 2), 'int32')),
            s('empty', R((0, 3)), R((3, 2))),
            s('shapes-invalid', R((3, 4)), R((3, 4)))), True),
        ('BatchMatMulV2', 'linalg.matmul', cases(
            s('random', R((2, 3, 4)), R((2, 4, 2))),
            s('broadcast', R((2, 1, 3, 4), d), R((3, 4, 2), d))), True),
        ('Einsum', 'einsum', cases(
            s('matmul', 'ij,jk->ik', R((3, 4)), R((4, 2))),
            s('trace', 'ii->', R((3, 3), d)), s('outer', 'i,j->ij', R((3,)), R((2,)))), False),
        ('Cholesky', 'linalg.cholesky', cases(s('spd', spd)), False),
        ('MatrixDeterminant', 'linalg.det', cases(s('random', m),
                                                  s('float32', R((2, 3, 3)))), False),
        ('LogMatrixDeterminant', 'linalg.slogdet', cases(s('random', m)), False),
        ('MatrixInverse', 'linalg.inv', cases(s('random', m),
                                              s('adjoint', m, adjoint=True)), False),
        ('MatrixSolve', 'linalg.solve', cases(s('random', m, R((3, 2), d))), False),
        ('MatrixSolveLs', 'linalg.lstsq', cases(s('random', R((4, 3), d), R((4, 2), d))),
         False),
        ('MatrixTriangularSolve', 'linalg.triangular_solve', cases(
            s('lower', tri, R((3, 2), d)), s('adjoint', tri, R((3, 2), d), adjoint=True)),
         False),
        ('MatrixExponential', 'linalg.expm', cases(s('random', R((3, 3), d, -0.5, 0.5))),
         False),
        ('Qr', 'linalg.qr', cases(s('random', m)), False),
        ('Svd', 'linalg.svd', cases(s('random', m, compute_uv=False)), False),
        ('SelfAdjointEigV2', 'linalg.eigvalsh', cases(s('random', spd)), False),
        ('MatrixBandPart', 'linalg.band_part', cases(
            s('random', R((4, 4)), 1, 0), s('int64', R((3, 4), d), t(0, 'int64'),
                                             t(-1, 'int64'))), False),
        ('MatrixDiagPartV3', 'linalg.diag_part', cases(s('random', R((3, 4))),
                                                       s('batch', R((2, 3, 3), d))), False),
        ('MatrixDiagV3', 'linalg.diag', cases(s('random', R((3,))),
                                              s('batch', R((2, 3), d))), False),
        ('linalg.norm', 'linalg.norm', cases(
            s('random', R((3, 4))), s('axis', R((3, 4), d), axis=1),
            s('zeros', t([[0.0, 0.0], [3.0, 4.0]], d), axis=1)), False),
        ('linalg.trace', 'linalg.trace', cases(s('random', R((3, 3), d))), False),
    ]
    return [OpInfo(op, call, gen, 'linalg', grad2=second) for op, call, gen, second in rows]


def linalg_more_entries() -> list[OpInfo]:
    """LU, tridiagonal and banded systems, eigh_tridiagonal (runtime/ops/linalg_more.py;
    fixture family `linalg_more`)."""
    d = 'float64'
    m = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], d)
    batch = t([[[2.0, 1.0], [4.0, 3.0]], [[0.5, 2.0], [1.0, 1.0]]], d)
    lu_m, perm = t([[7.0, 8.0, 10.0], [1 / 7, 6 / 7, 11 / 7], [4 / 7, 0.5, -0.5]], d), \
        t([2, 0, 1], 'int32')
    diags = t([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]], d)
    bands = t([[2.0, 3.0, 4.0], [0.5, 0.6, 0.7]], d)  # lower: diagonal, then subdiagonal
    rows: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], bool]] = [
        ('Lu', 'linalg.lu', cases(
            s('random', R((4, 4), d)), s('batch', batch), s('int64', m, output_idx_type='int64'),
            s('float32', R((3, 3))), s('singular-invalid', t([[1.0, 2.0], [2.0, 4.0]], d)),
            s('shape-invalid', R((2, 3), d))), False),
        ('linalg.lu_solve', 'linalg.lu_solve', cases(s('random', lu_m, perm, R((3, 2), d))),
         True),
        ('linalg.lu_reconstruct', 'linalg.lu_reconstruct', cases(s('random', lu_m, perm)),
         True),
        ('linalg.lu_matrix_inverse', 'linalg.lu_matrix_inverse',
         cases(s('random', lu_m, perm)), True),
        ('TridiagonalSolve', 'linalg.tridiagonal_solve', cases(
            s('random', diags, R((3, 2), d)), s('vector', diags, R((3,), d)),
            s('no-pivoting', diags, R((3, 2), d), partial_pivoting=False),
            s('float32', R((2, 3, 4), 'float32', 1.0, 3.0), R((2, 4, 1), 'float32')),
            s('sequence', [t([1.0, 2.0, 0.0], d), t([4.0, 5.0, 6.0], d), t([0.0, 7.0, 8.0], d)],
              R((3, 1), d), diagonals_format='sequence'),
            s('matrix', t([[4.0, 1.0, 0.0], [7.0, 5.0, 2.0], [0.0, 8.0, 6.0]], d), R((3, 2), d),
              diagonals_format='matrix')), True),
        ('TridiagonalMatMul', 'linalg.tridiagonal_matmul', cases(
            s('random', R((3, 4), d), R((4, 2), d)),
            s('batch', R((2, 3, 3)), R((2, 3, 2)))), True),
        ('BandedTriangularSolve', 'linalg.banded_triangular_solve', cases(
            s('lower', bands, R((3, 2), d)),
            s('upper-adjoint', t([[0.5, 0.6, 0.7], [2.0, 3.0, 4.0]], d),
              R((3, 2), d), lower=False, adjoint=True),
            s('float32', t([[2.0, 3.0, 4.0], [1.0, 1.5, 0.5]], 'float32'), R((3, 2)))), True),
        ('MatrixSquareRoot', 'linalg.sqrtm', cases(
            s('random', t(np.eye(3) * 3 + np.arange(9).reshape(3, 3) / 10.0, d)),
            s('batch', t([[[2.0, 1.0], [0.5, 3.0]], [[1.5, -0.5], [0.25, 1.0]]], d)),
            s('float32', t([[4.0, 1.0], [2.0, 3.0]], 'float32')),
            s('shape-invalid', R((2, 3), d))), True),
        ('MatrixLogarithm', 'linalg.logm', cases(
            s('complex128', t(np.eye(3) * 3 + np.arange(9).reshape(3, 3) / 10.0, 'complex128')),
            s('rotation', t([[0.0, -1.0], [1.0, 0.0]], 'complex128')),
            s('complex64', t([[4.0, 1.0], [2.0, 3.0]], 'complex64')),
            s('real-invalid', t([[4.0, 1.0], [2.0, 3.0]], d))), False),
        ('linalg.eigh_tridiagonal', 'linalg.eigh_tridiagonal', cases(
            s('values', t([1.0, 2.0, 3.0, 0.5], d), t([0.5, -0.4, 0.3], d)),
            s('range', t([1.0, 2.0, 3.0, 0.5], d), t([0.5, -0.4, 0.3], d), select='i',
              select_range=[1, 2])), False),
    ]
    return [OpInfo(op, call, gen, 'linalg_more', grad2=False, grad=grad)
            for op, call, gen, grad in rows]
