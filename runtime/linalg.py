"""`rt.linalg`: matrix products, inverses, solves, factorizations, diagonals and norms."""
from runtime.ops.creation import eye
from runtime.ops.decompositions import (
    eigh,
    eigvalsh,
    expm,
    lstsq,
    matrix_rank,
    pinv,
    slogdet,
    svd,
)
from runtime.ops.linalg import (
                                band_part,
                                cholesky,
                                det,
                                diag,
                                diag_part,
                                einsum,
                                inv,
                                logdet,
                                matrix_transpose,
                                matvec,
                                norm,
                                qr,
                                solve,
                                tensordot,
                                trace,
                                triangular_solve,
)
from runtime.ops.math import matmul
from runtime.ops.nn import global_norm
from runtime.ops.stats import l2_normalize


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two axes: for real dtypes, the transpose (complex
    matrices are not supported)."""
    return matrix_transpose(matrix, name=name, conjugate=True)


__all__ = ['adjoint', 'band_part', 'cholesky', 'det', 'diag', 'diag_part', 'eigh', 'eigvalsh',
           'einsum', 'expm', 'eye', 'global_norm', 'inv', 'l2_normalize', 'logdet', 'lstsq',
           'matmul', 'matrix_rank', 'matrix_transpose', 'matvec', 'norm', 'pinv', 'qr',
           'slogdet', 'solve', 'svd', 'tensordot', 'trace', 'triangular_solve']
