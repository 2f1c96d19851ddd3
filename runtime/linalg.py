"""`rt.linalg`: matrix products, inverses, solves, factorizations, diagonals and norms."""
from runtime.linalg_operators import (
    LinearOperator,
    LinearOperatorAdjoint,
    LinearOperatorComposition,
    LinearOperatorInversion,
    LinearOperatorLowerTriangular,
)
from runtime.linalg_operators_basic import (
    LinearOperatorDiag,
    LinearOperatorFullMatrix,
    LinearOperatorIdentity,
    LinearOperatorScaledIdentity,
    LinearOperatorZeros,
)
from runtime.linalg_operators_more import (
    LinearOperatorBlockDiag,
    LinearOperatorBlockLowerTriangular,
    LinearOperatorCirculant,
    LinearOperatorCirculant2D,
    LinearOperatorCirculant3D,
    LinearOperatorHouseholder,
    LinearOperatorKronecker,
    LinearOperatorLowRankUpdate,
    LinearOperatorPermutation,
    LinearOperatorToeplitz,
    LinearOperatorTridiag,
)
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
from runtime.ops.linalg_composites import (
    cholesky_solve,
    cross,
    normalize,
    set_diag,
    tensor_diag,
    tensor_diag_part,
)
from runtime.ops.linalg_more import (
    banded_triangular_solve,
    eigh_tridiagonal,
    logm,
    lu,
    lu_matrix_inverse,
    lu_reconstruct,
    lu_solve,
    sqrtm,
    tridiagonal_matmul,
    tridiagonal_solve,
)
from runtime.ops.math import matmul
from runtime.ops.nn import global_norm
from runtime.ops.stats import l2_normalize


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two axes: for real dtypes, the transpose (complex
    matrices are not supported)."""
    return matrix_transpose(matrix, name=name, conjugate=True)


__all__ = ['cholesky_solve', 'cross', 'normalize', 'set_diag', 'tensor_diag', 'tensor_diag_part',
           'adjoint', 'band_part', 'cholesky', 'det', 'diag', 'diag_part', 'eigh', 'eigvalsh',
           'einsum', 'expm', 'eye', 'global_norm', 'inv', 'l2_normalize', 'logdet', 'lstsq',
           'matmul', 'matrix_rank', 'matrix_transpose', 'matvec', 'norm', 'pinv', 'qr',
           'slogdet', 'solve', 'svd', 'tensordot', 'trace', 'triangular_solve']
__all__ += ['LinearOperator', 'LinearOperatorAdjoint', 'LinearOperatorComposition',
            'LinearOperatorDiag', 'LinearOperatorFullMatrix', 'LinearOperatorIdentity',
            'LinearOperatorInversion', 'LinearOperatorLowerTriangular',
            'LinearOperatorScaledIdentity', 'LinearOperatorZeros']
__all__ += ['LinearOperatorBlockDiag', 'LinearOperatorBlockLowerTriangular',
            'LinearOperatorCirculant', 'LinearOperatorCirculant2D', 'LinearOperatorCirculant3D',
            'LinearOperatorHouseholder', 'LinearOperatorKronecker',
            'LinearOperatorLowRankUpdate', 'LinearOperatorPermutation', 'LinearOperatorToeplitz',
            'LinearOperatorTridiag']
__all__ += ['banded_triangular_solve', 'eigh_tridiagonal', 'logm', 'lu', 'lu_matrix_inverse',
            'lu_reconstruct', 'lu_solve', 'sqrtm', 'tridiagonal_matmul', 'tridiagonal_solve']
