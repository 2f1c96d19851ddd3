"""More of `rt.linalg`: svd, eigh/eigvalsh, slogdet, expm, lstsq, pinv, matrix_rank.

Ops with TensorFlow's op types (`Svd`, `SelfAdjointEigV2`, `LogMatrixDeterminant`,
`MatrixExponential`, `MatrixSolveLs`); `lstsq` (fast), `pinv` and `matrix_rank` build the
graphs TensorFlow builds from other ops. Kernels compute in float64 and round to the input's
dtype. Singular vectors and eigenvectors are unique up to the sign of each column; LAPACK
(numpy) and Eigen (TensorFlow) may pick different signs.
"""
from typing import NamedTuple

import numpy as np

from runtime.control_flow import cond
from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.compare import greater, greater_equal, where
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import ones_like
from runtime.ops.dispatch import apply
from runtime.ops.linalg import (
    band_part,
    check_float,
    cholesky,
    linalg_error,
    square_infer,
    triangular_solve,
)
from runtime.ops.math import matmul
from runtime.ops.reduce import reduce_max, reduce_sum
from runtime.ops.registry import register
from runtime.ops.shaping import expand_dims
from runtime.ops.shaping import shape as shape_

FLOATS = frozenset((dtypes.float16, dtypes.float32, dtypes.float64))  # the ops' allowed T


def _wide(x):
    return np.asarray(x, np.float64)


def _square(x):
    """The matrices `x` in float64; not square (or of rank < 2) is TensorFlow's error."""
    if np.ndim(x) < 2:
        raise errors.InvalidArgumentError(
            message=f'Input tensor 0 must have rank >= 2, got {np.ndim(x)}')
    if x.shape[-1] != x.shape[-2]:
        raise errors.InvalidArgumentError(message='Input matrix must be square.')
    return _wide(x)


def _matrix_rank_at_least_2(x, op_name):
    if x.shape.rank is not None and x.shape.rank < 2:
        raise ValueError(f'{op_name}: input must have rank >= 2, got shape {x.shape}.')


# ---- Svd ---------------------------------------------------------------------------------------

def _svd_kernel(input, compute_uv=True, full_matrices=False):
    dtype = input.dtype
    if not compute_uv:
        s = np.linalg.svd(_wide(input), compute_uv=False)
        return s.astype(dtype), np.zeros((0,), dtype), np.zeros((0,), dtype)
    u, s, vh = np.linalg.svd(_wide(input), full_matrices=full_matrices)
    return s.astype(dtype), u.astype(dtype), np.swapaxes(vh, -1, -2).astype(dtype)


def _svd_infer(inputs, attrs):
    x = inputs[0]
    _matrix_rank_at_least_2(x, 'Svd')
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * 3
    *batch, m, n = x.shape.as_list()
    k = None if m is None or n is None else min(m, n)
    if not attrs.get('compute_uv', True):
        return [(x.dtype, TensorShape(batch + [k])), (x.dtype, TensorShape([0])),
                (x.dtype, TensorShape([0]))]
    cols_u, cols_v = (m, n) if attrs.get('full_matrices') else (k, k)
    return [(x.dtype, TensorShape(batch + [k])), (x.dtype, TensorShape(batch + [m, cols_u])),
            (x.dtype, TensorShape(batch + [n, cols_v]))]


SVD = register('Svd', linalg_error(_svd_kernel, 'SVD did not converge.'), _svd_infer,
               inputs=('input',), outputs=('s', 'u', 'v'),
               defaults={'compute_uv': True, 'full_matrices': False}, dtypes=FLOATS)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """The singular values `s` (descending), and with `compute_uv` the singular vectors `u`,
    `v` with `tensor == u @ diag(s) @ transpose(v)` (op `Svd`). Returns s, or (s, u, v)."""
    x = convert_to_tensor(tensor)
    _matrix_rank_at_least_2(x, 'Svd')
    s, u, v = apply(SVD, [x], {'compute_uv': bool(compute_uv),
                               'full_matrices': bool(full_matrices)}, name=name)
    return (s, u, v) if compute_uv else s


# ---- SelfAdjointEigV2 ----------------------------------------------------------------------------

def _eigh_kernel(input, compute_v=True):
    e, v = np.linalg.eigh(_square(input), UPLO='L')  # only the lower triangle is read, as in TF
    if not compute_v:
        return e.astype(input.dtype), np.zeros((0,), input.dtype)
    return e.astype(input.dtype), v.astype(input.dtype)


def _eigh_infer(inputs, attrs):
    x = inputs[0]
    square_infer(inputs, attrs)
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * 2
    v_shape = x.shape if attrs.get('compute_v', True) else TensorShape([0])
    return [(x.dtype, TensorShape(x.shape.as_list()[:-1])), (x.dtype, v_shape)]


SELF_ADJOINT_EIG = register('SelfAdjointEigV2', linalg_error(
    _eigh_kernel, 'Self-adjoint eigen decomposition was not successful.'), _eigh_infer,
    inputs=('input',), outputs=('e', 'v'), defaults={'compute_v': True}, dtypes=FLOATS)


def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors as columns) of each self-adjoint matrix; only its
    lower triangle is read (op `SelfAdjointEigV2`)."""
    x = convert_to_tensor(tensor)
    e, v = apply(SELF_ADJOINT_EIG, [x], {'compute_v': True}, name=name)
    return e, v


def eigvalsh(tensor, name=None):
    """The eigenvalues of each self-adjoint matrix, ascending (`SelfAdjointEigV2` with
    `compute_v=False`)."""
    x = convert_to_tensor(tensor)
    return apply(SELF_ADJOINT_EIG, [x], {'compute_v': False}, name=name)[0]


# ---- LogMatrixDeterminant ------------------------------------------------------------------------

def _slogdet_kernel(input):
    sign, log_abs = np.linalg.slogdet(_square(input))
    return np.asarray(sign, input.dtype), np.asarray(log_abs, input.dtype)


def _slogdet_infer(inputs, attrs):
    x = inputs[0]
    square_infer(inputs, attrs)
    batch = TensorShape(None if x.shape.rank is None else x.shape.as_list()[:-2])
    return [(x.dtype, batch), (x.dtype, batch)]


LOG_MATRIX_DETERMINANT = register('LogMatrixDeterminant', _slogdet_kernel, _slogdet_infer,
                                  inputs=('input',), outputs=('sign', 'log_abs_determinant'),
                                  dtypes=FLOATS)


class LogMatrixDeterminant(NamedTuple):
    """`slogdet`'s result, named as TensorFlow's."""
    sign: Tensor
    log_abs_determinant: Tensor


def slogdet(input, name=None):
    """(sign, log |det|) of each square matrix (op `LogMatrixDeterminant`); a singular matrix
    gives sign 0 and log |det| -inf."""
    x = convert_to_tensor(input)
    sign, log_abs = apply(LOG_MATRIX_DETERMINANT, [x], name=name)
    return LogMatrixDeterminant(sign, log_abs)


# ---- MatrixExponential ---------------------------------------------------------------------------

_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152  # Higham (2005): the largest 1-norm Pade 13 serves unscaled


def _expm64(a):
    """exp of each matrix by scaling and squaring with the [13/13] Pade approximant."""
    norm = np.abs(a).sum(axis=-2).max(axis=-1, initial=0.0)
    squarings = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / _THETA13))).astype(int)
    out = np.empty_like(a)
    flat_a, flat_out = a.reshape((-1,) + a.shape[-2:]), out.reshape((-1,) + a.shape[-2:])
    for i, s in enumerate(np.ravel(squarings)):
        x = flat_a[i] / 2.0 ** s
        ident = np.eye(x.shape[-1])
        x2 = x @ x
        x4 = x2 @ x2
        x6 = x4 @ x2
        b = _PADE13
        u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 +
                 b[3] * x2 + b[1] * ident)
        v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + \
            b[0] * ident
        r = np.linalg.solve(v - u, v + u)
        for _ in range(s):
            r = r @ r
        flat_out[i] = r
    return out


MATRIX_EXPONENTIAL = register(
    'MatrixExponential', lambda input: _expm64(_square(input)).astype(input.dtype), square_infer,
    inputs=('input',), outputs=('output',), dtypes=FLOATS)


def expm(input, name=None):
    """The matrix exponential of each square matrix (op `MatrixExponential`; TensorFlow builds
    the same scaling-and-squaring Pade approximation from other ops)."""
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise ValueError(f'rt.linalg.expm does not support matrices of type {x.dtype.name}; '
                         f'use rt.cast to a floating dtype first.')
    return apply(MATRIX_EXPONENTIAL, [x], name=name)


# ---- least squares, pseudo-inverse, rank ------------------------------------------------------

def _solve_ls_kernel(matrix, rhs, l2_regularizer, fast=True):
    a, b, lam = _wide(matrix), _wide(rhs), float(l2_regularizer)
    n = a.shape[-1]
    if lam:  # ridge regression: least squares of [A; sqrt(l2) I] x = [b; 0]
        a = np.concatenate([a, np.broadcast_to(np.sqrt(lam) * np.eye(n),
                                               a.shape[:-2] + (n, n))], axis=-2)
        b = np.concatenate([b, np.zeros(b.shape[:-2] + (n, b.shape[-1]))], axis=-2)
    if a.ndim == 2:
        return np.linalg.lstsq(a, b, rcond=None)[0].astype(matrix.dtype)
    flat = [np.linalg.lstsq(m, r, rcond=None)[0] for m, r in
            zip(a.reshape((-1,) + a.shape[-2:]), b.reshape((-1,) + b.shape[-2:]))]
    return np.stack(flat).reshape(a.shape[:-2] + (n, b.shape[-1])).astype(matrix.dtype)


def _solve_ls_infer(inputs, attrs):
    matrix, rhs = inputs[0], inputs[1]
    if matrix.shape.rank is None or rhs.shape.rank is None:
        return [(matrix.dtype, TensorShape(None))]
    return [(matrix.dtype, TensorShape(matrix.shape.as_list()[:-2] + [matrix.shape[-1],
                                                                     rhs.shape[-1]]))]


MATRIX_SOLVE_LS = register('MatrixSolveLs', _solve_ls_kernel, _solve_ls_infer,
                           inputs=('matrix', 'rhs', 'l2_regularizer'), outputs=('output',),
                           defaults={'fast': True}, dtypes=FLOATS)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The `x` minimizing `||matrix @ x - rhs||^2 + l2_regularizer * ||x||^2`. `fast` (the
    default) solves the normal equations by Cholesky, as TensorFlow builds them (Cholesky,
    MatMul, MatrixTriangularSolve); `fast=False` is op `MatrixSolveLs` (no gradient, as in
    TensorFlow)."""
    matrix = check_float(convert_to_tensor(matrix), 'lstsq')
    rhs = rhs if isinstance(rhs, Tensor) else convert_to_tensor(rhs, matrix.dtype)
    if rhs.dtype is not matrix.dtype:
        raise TypeError(f'lstsq: rhs has dtype {rhs.dtype.name} but the matrix has '
                        f'{matrix.dtype.name}; use rt.cast first.')
    if matrix.shape.rank is not None and rhs.shape.rank is not None and \
            matrix.shape.rank >= 2 and rhs.shape.rank >= 2:
        m, r = matrix.shape[-2], rhs.shape[-2]
        if m is not None and r is not None and m != r:
            raise ValueError(f'lstsq: matrix has {m} rows but rhs has {r}; they must agree.')
    if not fast:
        return apply(MATRIX_SOLVE_LS, [matrix, rhs, np.float64(l2_regularizer)],
                     {'fast': False}, name=name)
    lam = l2_regularizer if isinstance(l2_regularizer, Tensor) else float(l2_regularizer)
    rows, cols = matrix.shape[-2], matrix.shape[-1]
    if rows is None or cols is None:  # decided when it runs, as TensorFlow does
        dims = shape_(matrix)
        return cond(greater_equal(dims[-2], dims[-1]),
                    lambda: _overdetermined(matrix, rhs, lam),
                    lambda: _underdetermined(matrix, rhs, lam))
    if rows >= cols:
        return _overdetermined(matrix, rhs, lam)
    return _underdetermined(matrix, rhs, lam)


def _gram_cholesky(matrix, lam, transpose_a):
    gram = matmul(matrix, matrix, transpose_a=transpose_a, transpose_b=not transpose_a)
    if isinstance(lam, Tensor) or lam:  # l2 * I on the diagonal (none for a plain 0)
        lam = lam if isinstance(lam, Tensor) else convert_to_tensor(lam, matrix.dtype)
        gram = gram + lam * band_part(ones_like(gram), 0, 0)
    return cholesky(gram)


def _overdetermined(matrix, rhs, lam):
    """(A^T A + l2 I) x = A^T b, by Cholesky."""
    chol = _gram_cholesky(matrix, lam, True)
    z = triangular_solve(chol, matmul(matrix, rhs, transpose_a=True), lower=True)
    return triangular_solve(chol, z, lower=True, adjoint=True)


def _underdetermined(matrix, rhs, lam):
    """x = A^T (A A^T + l2 I)^-1 b, by Cholesky."""
    chol = _gram_cholesky(matrix, lam, False)
    z = triangular_solve(chol, rhs, lower=True)
    return matmul(matrix, triangular_solve(chol, z, lower=True, adjoint=True), transpose_a=True)


def _eps(dtype):
    return float(np.finfo(dtype.np_dtype).eps)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each matrix, from its SVD with the singular values
    below `rcond * max(s)` dropped (rcond: 10 * max(rows, cols) * eps), as TensorFlow builds
    it (Svd, Max, Mul, Greater, SelectV2, RealDiv, MatMul)."""
    x = check_float(convert_to_tensor(a), 'pinv')
    _matrix_rank_at_least_2(x, 'pinv')
    if rcond is None:
        rows, cols = x.shape[-2], x.shape[-1]
        if rows is None or cols is None:
            raise ValueError('rt.linalg.pinv without `rcond` needs the matrix dimensions '
                             'known when the function is traced.')
        rcond = 10.0 * max(rows, cols) * _eps(x.dtype)
    rcond = convert_to_tensor(rcond, x.dtype)
    s, u, v = svd(x)
    cutoff = rcond * reduce_max(s, axis=-1)
    # Singular values under the cutoff become inf, so 1/s is 0 there (and gradients finite).
    s = where(greater(s, expand_dims(cutoff, -1)), s, np.array(np.inf, x.dtype.np_dtype))
    return matmul(v / expand_dims(s, -2), u, transpose_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values above `tol` (eps * max(rows, cols) * max(s) by default)
    of each matrix, int32, as TensorFlow computes it (Svd, Max, Mul, Greater, Cast, Sum)."""
    x = convert_to_tensor(a)
    if x.dtype.is_integer:
        x = cast(x, dtypes.float32)
    x = check_float(x, 'matrix_rank')
    _matrix_rank_at_least_2(x, 'matrix_rank')
    s = svd(x, compute_uv=False)
    if tol is None:
        dims = x.shape.as_list()[-2:] if x.shape.rank is not None else [None, None]
        m = max(dims) if None not in dims else cast(reduce_max(shape_(x)[-2:]), x.dtype)
        tol = _eps(x.dtype) * m * reduce_max(s, axis=-1, keepdims=True)
    return reduce_sum(cast(greater(s, tol), dtypes.int32), axis=-1)
