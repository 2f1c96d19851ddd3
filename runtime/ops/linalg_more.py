"""More of `rt.linalg`: the LU factorization (op `Lu`) and what TensorFlow builds on it
(`lu_solve`, `lu_reconstruct`, `lu_matrix_inverse`), tridiagonal and banded systems (ops
`TridiagonalSolve`, `TridiagonalMatMul`, `BandedTriangularSolve`) and the eigenvalues of a
symmetric tridiagonal matrix (`eigh_tridiagonal`). Gradients are in
runtime/gradients/rules/linalg_more.py.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.context import name_scope
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.decompositions import eigh, eigvalsh
from runtime.ops.dispatch import apply
from runtime.ops.indexing import boolean_mask
from runtime.ops.linalg import (
    band_part,
    diag,
    diag_part,
    matrix_transpose,
    triangular_solve,
)
from runtime.ops.manipulation import one_hot
from runtime.ops.math import matmul
from runtime.ops.registry import register
from runtime.ops.shaping import concat, expand_dims, reshape, shape

FLOAT_TYPES = frozenset((dtypes.float32, dtypes.float64))


# ---- LU ---------------------------------------------------------------------------------------

def _lu_one(a):
    """Doolittle LU with partial pivoting of one square matrix: (lu, perm) with
    a[perm] = L @ U, L unit lower triangular (below the diagonal of lu), U upper."""
    n = a.shape[0]
    lu = a.astype(np.result_type(a.dtype, np.float32), copy=True)
    perm = np.arange(n)
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(lu[k:, k])))
        if lu[pivot, k] == 0:
            raise errors.InvalidArgumentError(message='Input is not invertible.')
        if pivot != k:
            lu[[k, pivot]] = lu[[pivot, k]]
            perm[[k, pivot]] = perm[[pivot, k]]
        lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, perm


def _lu_kernel(input, output_idx_type=dtypes.int32):
    a = np.asarray(input)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise errors.InvalidArgumentError(
            message=f'Input matrix must be square, got shape {list(a.shape)}')
    flat = a.reshape((-1,) + a.shape[-2:])
    lus, perms = [], []
    for m in flat:
        lu, perm = _lu_one(m)
        lus.append(lu)
        perms.append(perm)
    lu = np.asarray(lus, a.dtype).reshape(a.shape)
    perm = np.asarray(perms, output_idx_type.np_dtype).reshape(a.shape[:-1])
    return lu, perm


def _lu_infer(inputs, attrs):
    s = inputs[0].shape
    if s.rank is not None and (s.rank < 2 or None not in s.dims[-2:] and
                               s.dims[-1] != s.dims[-2]):
        raise ValueError(f'Input matrix must be square, got shape {s}.')
    perm = s[:-1] if s.rank is not None else TensorShape(None)
    return [(inputs[0].dtype, s), (attrs.get('output_idx_type', dtypes.int32), perm)]


LU = register('Lu', _lu_kernel, _lu_infer,
    inputs=('input',), outputs=('lu', 'p'), defaults={'output_idx_type': dtypes.int32},
    dtypes=FLOAT_TYPES)


def lu(input, output_idx_type=dtypes.int32, name=None):
    """The LU factorization with partial pivoting of each square matrix (op `Lu`): (lu, p),
    `lu` holding L (unit diagonal, not stored) below its diagonal and U on and above it, and
    `input[..., p, :] == L @ U`."""
    output_idx_type = dtypes.as_dtype(output_idx_type)
    if output_idx_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f'output_idx_type must be int32 or int64, got {output_idx_type.name}.')
    x = convert_to_tensor(input)
    return apply(LU, [x], {'output_idx_type': output_idx_type}, name=name)


def _permutation_matrix(perm, dtype):
    """P with (P @ x)[..., i, :] = x[..., perm[i], :] (a batch of permutations too)."""
    n = perm.shape.as_list()[-1]
    return one_hot(perm, shape(perm)[-1] if n is None else n, dtype=dtype)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """x with `matrix @ x == rhs` for the matrix of `lu(matrix)` = (lower_upper, perm)."""
    with name_scope(name or 'lu_solve'):
        lower_upper = convert_to_tensor(lower_upper)
        rhs = convert_to_tensor(rhs, lower_upper.dtype)
        perm = convert_to_tensor(perm)
        if validate_args and lower_upper.shape.rank is not None and rhs.shape.rank is not None:
            if lower_upper.shape.rank < 2 or rhs.shape.rank < 2:
                raise ValueError('Input `lower_upper` and `rhs` must have rank at least 2.')
        permuted = matmul(_permutation_matrix(perm, rhs.dtype), rhs)
        y = triangular_solve(_unit_lower(lower_upper), permuted, lower=True)
        return triangular_solve(lower_upper, y, lower=False)


def _unit_lower(lower_upper):
    """L: the part of `lower_upper` below its diagonal, ones on it."""
    return band_part(lower_upper, -1, 0) + diag(1 - diag_part(lower_upper))


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix whose `lu` is (lower_upper, perm): P^-1 L U."""
    with name_scope(name or 'lu_reconstruct'):
        lower_upper = convert_to_tensor(lower_upper)
        perm = convert_to_tensor(perm)
        if validate_args and lower_upper.shape.rank is not None and lower_upper.shape.rank < 2:
            raise ValueError('Input `lower_upper` must have rank at least 2.')
        product = matmul(_unit_lower(lower_upper), band_part(lower_upper, 0, -1))
        return matmul(_permutation_matrix(perm, product.dtype), product, transpose_a=True)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of the matrix whose `lu` is (lower_upper, perm)."""
    with name_scope(name or 'lu_matrix_inverse'):
        lower_upper = convert_to_tensor(lower_upper)
        identity = diag(ones_like(diag_part(lower_upper)))
        return lu_solve(lower_upper, perm, identity, validate_args=validate_args)


# ---- tridiagonal systems ----------------------------------------------------------------------

def _tridiagonal_dense(diagonals):
    """[..., 3, M] compact diagonals -> [..., M, M]."""
    sup, main, sub = diagonals[..., 0, :], diagonals[..., 1, :], diagonals[..., 2, :]
    m = main.shape[-1]
    out = np.zeros(main.shape + (m,), np.result_type(diagonals.dtype, np.float32))
    idx = np.arange(m)
    out[..., idx, idx] = main
    out[..., idx[:-1], idx[1:]] = sup[..., :-1]
    out[..., idx[1:], idx[:-1]] = sub[..., 1:]
    return out.astype(diagonals.dtype)


def _eliminate(a, b, perturb):
    """Gaussian elimination with partial pivoting of one tridiagonal (dense) system; a zero
    pivot is perturbed to eps * max|a| with `perturb`, else singular."""
    a, b = a.astype(np.float64, copy=True), b.astype(np.float64, copy=True)
    n = a.shape[0]
    tiny = np.finfo(np.float64).eps * max(np.abs(a).max(initial=0.0), 1.0)
    for k in range(n):
        if k + 1 < n and abs(a[k + 1, k]) > abs(a[k, k]):
            a[[k, k + 1]], b[[k, k + 1]] = a[[k + 1, k]], b[[k + 1, k]]
        if a[k, k] == 0:
            if not perturb:
                raise errors.InvalidArgumentError(
                    message='The matrix is not invertible.')
            a[k, k] = tiny
        if k + 1 < n:
            factor = a[k + 1, k] / a[k, k]
            a[k + 1] -= factor * a[k]
            b[k + 1] -= factor * b[k]
    x = np.zeros_like(b)
    for k in range(n - 1, -1, -1):
        x[k] = (b[k] - a[k, k + 1:k + 3] @ x[k + 1:k + 3]) / a[k, k]
    return x


def _tridiagonal_solve_kernel(diagonals, rhs, partial_pivoting=True, perturb_singular=False):
    diagonals, rhs = np.asarray(diagonals), np.asarray(rhs)
    if diagonals.shape[-2] != 3:
        raise errors.InvalidArgumentError(
            message=f'Expected 3 diagonals got {diagonals.shape[-2]}')
    dense = _tridiagonal_dense(diagonals)
    batch = np.broadcast_shapes(dense.shape[:-2], rhs.shape[:-2])
    dense = np.broadcast_to(dense, batch + dense.shape[-2:]).reshape((-1,) + dense.shape[-2:])
    flat_rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:]).reshape((-1,) + rhs.shape[-2:])
    out = np.stack([_eliminate(a, b, perturb_singular) for a, b in zip(dense, flat_rhs)]) \
        if len(dense) else np.zeros(flat_rhs.shape)
    return out.reshape(batch + rhs.shape[-2:]).astype(rhs.dtype)


TRIDIAGONAL_SOLVE = register(
    'TridiagonalSolve', _tridiagonal_solve_kernel,
    lambda inputs, attrs: [(inputs[1].dtype, inputs[1].shape)],
    inputs=('diagonals', 'rhs'), outputs=('output',),
    defaults={'partial_pivoting': True, 'perturb_singular': False}, dtypes=FLOAT_TYPES)


def _tridiagonal_matmul_kernel(superdiag, maindiag, subdiag, rhs):
    sup, main, sub = (np.asarray(d)[..., 0, :, None] for d in (superdiag, maindiag, subdiag))
    rhs = np.asarray(rhs)
    out = main * rhs
    out[..., :-1, :] += sup[..., :-1, :] * rhs[..., 1:, :]
    out[..., 1:, :] += sub[..., 1:, :] * rhs[..., :-1, :]
    return out.astype(rhs.dtype)


TRIDIAGONAL_MATMUL = register(
    'TridiagonalMatMul', _tridiagonal_matmul_kernel,
    lambda inputs, attrs: [(inputs[3].dtype, inputs[3].shape)],
    inputs=('superdiag', 'maindiag', 'subdiag', 'rhs'), outputs=('output',),
    type_attrs=(('T', 3),), dtypes=FLOAT_TYPES)


def _compact(diagonals, diagonals_format):
    if diagonals_format == 'compact':
        return convert_to_tensor(diagonals)
    if diagonals_format == 'sequence':
        sup, main, sub = (convert_to_tensor(d) for d in diagonals)
        return stack([sup, main, sub], axis=-2)
    if diagonals_format == 'matrix':
        m = convert_to_tensor(diagonals)
        sup = concat([diag_part(m, k=1), zeros_like(m[..., 0, :1])], -1)
        sub = concat([zeros_like(m[..., 0, :1]), diag_part(m, k=-1)], -1)
        return stack([sup, diag_part(m), sub], axis=-2)
    raise ValueError(f'Unrecognized diagonals_format: {diagonals_format}')


def tridiagonal_solve(diagonals, rhs, diagonals_format='compact', transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """x with `A @ x == rhs` for the tridiagonal A given by `diagonals` ('compact' [..., 3, M]:
    superdiagonal, diagonal, subdiagonal; 'sequence'; 'matrix') (op `TridiagonalSolve`)."""
    if perturb_singular and not partial_pivoting:
        raise ValueError('partial_pivoting must be True if perturb_singular is True.')
    with name_scope(name or 'tridiagonal_solve'):
        diagonals = _compact(diagonals, diagonals_format)
        rhs = convert_to_tensor(rhs, diagonals.dtype)
        vector = rhs.shape.rank is not None and rhs.shape.rank == diagonals.shape.rank - 1
        if vector:
            rhs = rhs[..., None]
        elif transpose_rhs:
            rhs = matrix_transpose(rhs)
        x = apply(TRIDIAGONAL_SOLVE, [diagonals, rhs], {'partial_pivoting': partial_pivoting,
                                                        'perturb_singular': perturb_singular})
        return x[..., 0] if vector else x


def tridiagonal_matmul(diagonals, rhs, diagonals_format='compact', name=None):
    """A @ rhs for the tridiagonal A given by `diagonals` (op `TridiagonalMatMul`)."""
    with name_scope(name or 'tridiagonal_matmul'):
        diagonals = _compact(diagonals, diagonals_format)
        rhs = convert_to_tensor(rhs, diagonals.dtype)
        parts = [diagonals[..., k:k + 1, :] for k in range(3)]
        return apply(TRIDIAGONAL_MATMUL, parts + [rhs])


# ---- banded triangular systems ----------------------------------------------------------------

def dense_to_bands(dense, num_bands, lower):
    """The [..., K, M] bands of a (batch of) M x M triangular matrix: for a lower one
    bands[k, i] = A[i, i - k] (zero where i < k), for an upper one bands[K - 1 - k, i] =
    A[i, i + k] (zero where i + k >= M)."""
    rows = []
    for k in range(num_bands):
        values = diag_part(dense, k=-k if lower else k)
        pad = zeros_like(dense[..., 0, :k])
        rows.append(concat([pad, values] if lower else [values, pad], -1))
    return stack(rows if lower else rows[::-1], axis=-2)


def _banded_kernel(matrix, rhs, lower=True, adjoint=False):
    bands, rhs = np.asarray(matrix), np.asarray(rhs)
    k, m = bands.shape[-2:]
    dense = np.zeros(bands.shape[:-2] + (m, m), bands.dtype)
    idx = np.arange(m)
    for d in range(k):
        rows = idx[d:] if lower else idx[:m - d]
        cols = rows - d if lower else rows + d
        source = bands[..., d, d:] if lower else bands[..., k - 1 - d, :m - d]
        dense[..., rows, cols] = source
    if np.any(np.diagonal(dense, axis1=-2, axis2=-1) == 0):
        raise errors.InvalidArgumentError(message='Input matrix is not invertible.')
    a = np.swapaxes(dense, -1, -2) if adjoint else dense
    return np.linalg.solve(a, rhs).astype(rhs.dtype)


BANDED_TRIANGULAR_SOLVE = register(
    'BandedTriangularSolve', _banded_kernel,
    lambda inputs, attrs: [(inputs[1].dtype, inputs[1].shape)],
    inputs=('matrix', 'rhs'), outputs=('output',), defaults={'lower': True, 'adjoint': False},
    dtypes=FLOAT_TYPES)


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """x with `A @ x == rhs` for the triangular band matrix A given by `bands` [..., K, M]
    (op `BandedTriangularSolve`; see `dense_to_bands` for the layout)."""
    bands = convert_to_tensor(bands)
    rhs = convert_to_tensor(rhs, bands.dtype)
    return apply(BANDED_TRIANGULAR_SOLVE, [bands, rhs], {'lower': bool(lower),
                                                         'adjoint': bool(adjoint)}, name=name)


# ---- matrix square root and logarithm -------------------------------------------------------

def _denman_beavers(a):
    """The principal square root of one square matrix by the scaled Denman-Beavers iteration
    (real or complex; its eigenvalues off the closed negative real axis)."""
    n = a.shape[-1]
    y, z = a.astype(np.result_type(a.dtype, np.float64)), np.eye(n, dtype=np.result_type(
        a.dtype, np.float64))
    for _ in range(100):
        with np.errstate(all='ignore'):
            scale = np.abs(np.linalg.det(y) * np.linalg.det(z)) ** (-1 / (2 * n))
        scale = scale if np.isfinite(scale) and scale > 0 else 1.0
        y_inv, z_inv = np.linalg.inv(scale * y), np.linalg.inv(scale * z)
        y_new, z = 0.5 * (scale * y + z_inv), 0.5 * (scale * z + y_inv)
        done = np.linalg.norm(y_new - y) <= 1e-15 * np.linalg.norm(y_new)
        y = y_new
        if done:
            break
    return y


def _sqrtm_one(a):
    eigenvalues = np.linalg.eigvals(a)
    if not np.iscomplexobj(a) and np.any((np.abs(eigenvalues.imag) <= 1e-14 * np.abs(
            eigenvalues).max(initial=1.0)) & (eigenvalues.real < 0)):
        return np.full(a.shape, np.nan)  # no real square root: TensorFlow's nan
    try:
        return _denman_beavers(a)
    except np.linalg.LinAlgError:  # singular: no principal root this iteration finds
        return np.full(a.shape, np.nan)


def _per_matrix(fn):
    def kernel(input):
        a = np.asarray(input)
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise errors.InvalidArgumentError(
                message=f'Input matrix must be square, got shape {list(a.shape)}')
        flat = a.reshape((-1,) + a.shape[-2:])
        out = np.stack([fn(m) for m in flat]) if len(flat) else flat
        return out.reshape(a.shape).astype(a.dtype)
    return kernel


def _logm_one(a):
    """log(A) by inverse scaling and squaring: square roots until A is near I, then
    2 atanh((A - I)(A + I)^-1) as its series, times 2^k."""
    n = a.shape[-1]
    identity = np.eye(n)
    k = 0
    while np.linalg.norm(a - identity, 1) > 0.25 and k < 60:
        a = _denman_beavers(a)
        k += 1
    z = (a - identity) @ np.linalg.inv(a + identity)
    z2, term, total = z @ z, z, z.copy()
    for j in range(1, 30):
        term = term @ z2
        total = total + term / (2 * j + 1)
    return 2.0 ** (k + 1) * total


def _square_infer(inputs, attrs):
    s = inputs[0].shape
    if s.rank is not None and (s.rank < 2 or None not in s.dims[-2:] and
                               s.dims[-1] != s.dims[-2]):
        raise ValueError(f'Input matrix must be square, got shape {s}.')
    return [(inputs[0].dtype, s)]


MATRIX_SQUARE_ROOT = register('MatrixSquareRoot', _per_matrix(_sqrtm_one), _square_infer,
                              inputs=('input',), outputs=('output',), dtypes=FLOAT_TYPES)
MATRIX_LOGARITHM = register('MatrixLogarithm', _per_matrix(_logm_one), _square_infer,
                            inputs=('input',), outputs=('output',),
                            dtypes=frozenset((dtypes.complex64, dtypes.complex128)))


def sqrtm(input, name=None):
    """The principal square root of each square matrix (op `MatrixSquareRoot`); nan where a
    matrix has a negative real eigenvalue (no real root)."""
    return apply(MATRIX_SQUARE_ROOT, [convert_to_tensor(input)], name=name)


def logm(input, name=None):
    """The principal logarithm of each square complex matrix (op `MatrixLogarithm`)."""
    return apply(MATRIX_LOGARITHM, [convert_to_tensor(input)], name=name)


def kron_matrices(a, b):
    """The Kronecker product of two (batches of) matrices of known sizes."""
    (m, n), (p, q) = a.shape.as_list()[-2:], b.shape.as_list()[-2:]
    outer = expand_dims(expand_dims(a, -1), -3) * expand_dims(expand_dims(b, -2), -4)
    batch = shape(outer)[:-4]
    return reshape(outer, concat([batch, np.array([m * p, n * q], np.int32)], 0))


# ---- eigenvalues of a symmetric tridiagonal matrix --------------------------------------------

def eigh_tridiagonal(alpha, beta, eigvals_only=True, select='a', select_range=None, tol=None,
                     name=None):
    """The eigenvalues (ascending; with `eigvals_only=False` also the eigenvectors) of the
    symmetric tridiagonal matrix with diagonal `alpha` [N] and off-diagonal `beta` [N - 1]:
    all (`select='a'`), those in the half-open interval (lo, hi] (`'v'`), or those of
    indices lo..hi (`'i'`). `tol` is accepted and unused: the eigenvalues are exact to
    rounding (SelfAdjointEigV2 on the dense matrix)."""
    if select not in ('a', 'v', 'i'):
        raise ValueError(f"'select' must have a value in {{'a', 'v', 'i'}}, got {select!r}.")
    with name_scope(name or 'eigh_tridiagonal'):
        alpha = convert_to_tensor(alpha)
        beta = convert_to_tensor(beta, alpha.dtype)
        dense = diag(alpha) + diag(beta, k=1) + diag(beta, k=-1)
        if eigvals_only:
            values = eigvalsh(dense)
        else:
            values, vectors = eigh(dense)
        if select == 'a':
            return values if eigvals_only else (values, vectors)
        lo, hi = select_range
        if select == 'i':
            values = values[int(lo):int(hi) + 1]
            if eigvals_only:
                return values
            return values, vectors[:, int(lo):int(hi) + 1]
        keep = (values > lo) & (values <= hi)
        if eigvals_only:
            return boolean_mask(values, keep)
        return boolean_mask(values, keep), boolean_mask(vectors, keep, axis=1)


__all__ = ['banded_triangular_solve', 'eigh_tridiagonal', 'kron_matrices', 'logm', 'lu',
           'lu_matrix_inverse', 'lu_reconstruct', 'lu_solve', 'sqrtm', 'tridiagonal_matmul',
           'tridiagonal_solve']
