"""The gradients of the ops of runtime/ops/linalg_more.py (TensorFlow's linalg_grad.py rules
for the tridiagonal and banded systems and the matrix square root; TensorFlow has none for
Lu and MatrixLogarithm)."""
import numpy as np

from runtime.gradients.rules.common import defgradient
from runtime.gradients.rules.linalg import solve_matrix_gradient
from runtime.ops import linalg_more
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import eye, zeros_like
from runtime.ops.linalg import matrix_transpose, solve
from runtime.ops.linalg_more import (
    banded_triangular_solve,
    dense_to_bands,
    kron_matrices,
    tridiagonal_matmul,
)
from runtime.ops.reduce import reduce_sum
from runtime.ops.registry import UNREGISTERED_GRADIENT
from runtime.ops.shaping import concat, reshape
from runtime.ops.shaping import shape as shape_

defgradient(linalg_more.LU, linalg_more.MATRIX_LOGARITHM)(UNREGISTERED_GRADIENT)


def _shift_down(v):
    """[v[..., 1:], 0]: entry i takes entry i + 1."""
    return concat([v[..., 1:], zeros_like(v[..., :1])], -1)


def _shift_up(v):
    """[0, v[..., :-1]]: entry i takes entry i - 1."""
    return concat([zeros_like(v[..., :1]), v[..., :-1]], -1)


def _transposed(superdiag, maindiag, subdiag):
    """The diagonals of A^T from A's (superdiag[i] = A[i, i+1], subdiag[i] = A[i, i-1])."""
    return _shift_down(subdiag), maindiag, _shift_up(superdiag)


def _three_diagonals(a, b):
    """The superdiagonal, diagonal and subdiagonal of a @ b^T ([..., M, K] operands), each
    [..., M] in the compact layout (superdiag[M-1] and subdiag[0] zero)."""
    zero_row = zeros_like(b[..., :1, :])
    next_rows = concat([b[..., 1:, :], zero_row], -2)  # row i holds b[i + 1]
    previous_rows = concat([zero_row, b[..., :-1, :]], -2)  # row i holds b[i - 1]
    return (reduce_sum(a * next_rows, -1), reduce_sum(a * b, -1),
            reduce_sum(a * previous_rows, -1))


@defgradient(linalg_more.TRIDIAGONAL_SOLVE)
def _tridiagonal_solve_gradient(op, grad):
    diagonals = convert_to_tensor(op.inputs[0])
    x = op.outputs[0]
    sup, main, sub = (diagonals[..., k, :] for k in range(3))
    transposed = stack(_transposed(sup, main, sub), axis=-2)
    grad_rhs = linalg_more.tridiagonal_solve(
        transposed, grad, partial_pivoting=op.get_attr('partial_pivoting'),
        perturb_singular=op.get_attr('perturb_singular'))
    return [-stack(_three_diagonals(grad_rhs, x), axis=-2), grad_rhs]


@defgradient(linalg_more.TRIDIAGONAL_MATMUL)
def _tridiagonal_matmul_gradient(op, grad):
    sup, main, sub = (convert_to_tensor(t)[..., 0, :] for t in op.inputs[:3])
    rhs = convert_to_tensor(op.inputs[3])
    t_sup, t_main, t_sub = _transposed(sup, main, sub)
    grad_rhs = tridiagonal_matmul(stack([t_sup, t_main, t_sub], axis=-2), grad)
    sup_g, main_g, sub_g = _three_diagonals(grad, rhs)
    return [sup_g[..., None, :], main_g[..., None, :], sub_g[..., None, :], grad_rhs]


@defgradient(linalg_more.BANDED_TRIANGULAR_SOLVE)
def _banded_triangular_solve_gradient(op, grad):
    bands = convert_to_tensor(op.inputs[0])
    lower, adjoint = op.get_attr('lower'), op.get_attr('adjoint')
    grad_rhs = banded_triangular_solve(bands, grad, lower=lower, adjoint=not adjoint)
    x = op.outputs[0]
    grad_dense = solve_matrix_gradient(x, grad_rhs, adjoint)
    return [dense_to_bands(grad_dense, bands.shape.as_list()[-2], lower), grad_rhs]


@defgradient(linalg_more.MATRIX_SQUARE_ROOT)
def _sqrtm_gradient(op, grad):
    """TensorFlow's rule: with R the root, dA solves R^T dA + dA R^T = grad, written as one
    linear system in vec(dA) of Kronecker products."""
    root = op.outputs[0]
    n = root.shape.as_list()[-1]
    if n is None:
        raise NotImplementedError('The gradient of sqrtm needs matrices of known size.')
    identity = eye(n, dtype=root.dtype) + zeros_like(root)
    system = kron_matrices(identity, matrix_transpose(root)) + kron_matrices(root, identity)
    batch = shape_(root)[:-2]
    vec = reshape(matrix_transpose(grad), concat([batch, np.array([n * n, 1], np.int32)], 0))
    solved = reshape(solve(system, vec), shape_(root))
    return [matrix_transpose(solved)]
