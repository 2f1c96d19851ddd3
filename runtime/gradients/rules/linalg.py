"""The gradients of the linear-algebra ops of runtime/ops/linalg.py (TensorFlow's
linalg_grad.py): inverse, determinant, the solves, Cholesky, QR, the diagonals, band_part,
einsum."""
from runtime.gradients.rules.common import defgradient
from runtime.ops import linalg
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.linalg import (
    band_part,
    diag,
    diag_part,
    einsum,
    inv,
    matrix_transpose,
    parse_equation,
    solve,
    triangular_solve,
)
from runtime.ops.math import matmul
from runtime.ops.reduce import reduce_sum
from runtime.ops.shaping import expand_dims
from runtime.ops.shaping import shape as shape_


@defgradient(linalg.MATRIX_INVERSE)
def _inverse_gradient(op, grad):
    y = op.outputs[0]
    return [-matmul(y, matmul(grad, y, transpose_b=True), transpose_a=True)]


@defgradient(linalg.MATRIX_DETERMINANT)
def _det_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    scale = expand_dims(expand_dims(grad * op.outputs[0], -1), -1)
    return [scale * matrix_transpose(inv(x))]


def solve_matrix_gradient(x, grad_rhs, adjoint):
    """The gradient of a linear solve's matrix given its solution `x` and the gradient of its
    right-hand side: -grad_rhs x^T, or -x grad_rhs^T when the solve used the adjoint."""
    return -matmul(x, grad_rhs, transpose_b=True) if adjoint else \
        -matmul(grad_rhs, x, transpose_b=True)


@defgradient(linalg.MATRIX_SOLVE)
def _solve_gradient(op, grad):
    matrix = convert_to_tensor(op.inputs[0])
    adjoint = op.get_attr('adjoint')
    grad_rhs = solve(matrix, grad, adjoint=not adjoint)
    x = op.outputs[0]
    grad_matrix = solve_matrix_gradient(x, grad_rhs, adjoint)
    return [grad_matrix, grad_rhs]


@defgradient(linalg.MATRIX_TRIANGULAR_SOLVE)
def _triangular_solve_gradient(op, grad):
    matrix = convert_to_tensor(op.inputs[0])
    lower, adjoint = op.get_attr('lower'), op.get_attr('adjoint')
    grad_rhs = triangular_solve(matrix, grad, lower=lower, adjoint=not adjoint)
    x = op.outputs[0]
    grad_matrix = solve_matrix_gradient(x, grad_rhs, adjoint)
    return [band_part(grad_matrix, -1, 0) if lower else band_part(grad_matrix, 0, -1), grad_rhs]


@defgradient(linalg.CHOLESKY)
def _cholesky_gradient(op, grad):
    """TensorFlow's formula: with L the factor, phi(L^T grad) projected on the lower triangle,
    then symmetrized."""
    lower = op.outputs[0]
    lower_inv = inv(lower)
    middle = matmul(lower, grad, transpose_a=True)
    middle = band_part(middle, -1, 0) - 0.5 * band_part(middle, 0, 0)
    grad_a = matmul(matmul(lower_inv, middle, transpose_a=True), lower_inv)
    return [0.5 * (grad_a + matrix_transpose(grad_a))]


@defgradient(linalg.QR)
def _qr_gradient(op, dq, dr):
    """TensorFlow's formula for the reduced factorization of a square or tall matrix."""
    q, r = op.outputs
    qdq = matmul(q, dq, transpose_a=True)
    qdq_ = qdq - matrix_transpose(qdq)
    rdr = matmul(r, dr, transpose_b=True)
    rdr_ = rdr - matrix_transpose(rdr)
    tril = band_part(qdq_ + rdr_, -1, 0)
    r_inv_t = matrix_transpose(inv(r))  # x @ inv(r)^T solves r @ z = x^T, then transposes
    grad_a = matmul(q, dr + matmul(tril, r_inv_t))
    grad_b = matmul(dq - matmul(q, qdq), r_inv_t)
    return [grad_a + grad_b]


@defgradient(linalg.MATRIX_DIAG)
def _diag_gradient(op, grad):
    """The diagonal gets its entries of `grad`; the padding value gets all the others."""
    on_diagonal = diag_part(grad, k=op.inputs[1])
    return [on_diagonal, None, None, None, reduce_sum(grad) - reduce_sum(on_diagonal)]


@defgradient(linalg.MATRIX_DIAG_PART)
def _diag_part_gradient(op, grad):
    """One diagonal is read whole, so the padding value is never used: its gradient is 0."""
    x = convert_to_tensor(op.inputs[0])
    dims = shape_(x)
    return [diag(grad, k=op.inputs[1], num_rows=dims[-2], num_cols=dims[-1]), None,
            zeros_like(convert_to_tensor(op.inputs[2]))]


@defgradient(linalg.EINSUM)
def _einsum_gradient(op, grad):
    subs, out = parse_equation(op.get_attr('equation'))
    if '...' in op.get_attr('equation') or any(len(set(s)) != len(s) for s in subs + [out]):
        raise NotImplementedError(f'The gradient of einsum {op.get_attr("equation")!r} '
                                  f'(ellipsis or repeated subscripts) is not supported; write '
                                  f'the contraction with explicit subscripts.')
    inputs = [convert_to_tensor(t) for t in op.inputs]
    grads = []
    for i, (sub, x) in enumerate(zip(subs, inputs)):
        others = [(s, t) for j, (s, t) in enumerate(zip(subs, inputs)) if j != i]
        present = set(out).union(*[set(s) for s, _ in others])
        kept = ''.join(c for c in sub if c in present)
        g = einsum(','.join([out] + [s for s, _ in others]) + '->' + kept,
                   grad, *[t for _, t in others])
        if kept != sub:  # letters summed away in the forward pass come back by broadcasting
            g = einsum(f'{kept},{sub}->{sub}', g, ones_like(x))
        grads.append(g)
    return grads


defgradient(linalg.MATRIX_BAND_PART)(lambda op, grad: [band_part(grad, op.inputs[1],
                                                                 op.inputs[2]), None, None])
