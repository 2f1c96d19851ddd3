"""The gradients of the decompositions of runtime/ops/decompositions.py: Svd,
SelfAdjointEigV2, LogMatrixDeterminant, MatrixExponential, MatrixSolveLs."""
from runtime.gradients.rules.common import defgradient
from runtime.gradients.tape import GradientTape
from runtime.ops import decompositions as dec
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import ones_like, zeros_like
from runtime.ops.linalg import band_part, diag, diag_part, inv, matrix_transpose
from runtime.ops.math import matmul
from runtime.ops.shaping import concat, expand_dims
from runtime.ops.shaping import shape as shape_


def _safe_reciprocal(x, epsilon=1e-20):
    """1/x, tending to 0 instead of inf where x is 0 (TensorFlow's `_SafeReciprocal`)."""
    return x / (x * x + epsilon)


def _off_diagonal(x):
    """1 off the diagonal, 0 on it, shaped as the square matrices `x`."""
    ones = ones_like(x)
    return ones - band_part(ones, 0, 0)


def _pair_reciprocals(values, like):
    """F[i, j] = 1 / (values[j] - values[i]) off the diagonal, 0 on it."""
    gaps = expand_dims(values, -2) - expand_dims(values, -1)
    return _safe_reciprocal(gaps) * _off_diagonal(like)


@defgradient(dec.SVD)
def _svd_gradient(op, grad_s, grad_u, grad_v):
    """The SVD's gradient for the reduced factorization (Townsend's derivation), for tall and
    wide matrices alike."""
    a = convert_to_tensor(op.inputs[0])
    if not op.get_attr('compute_uv'):
        _, u, v = dec.svd(a, compute_uv=True)
        return [matmul(u, matmul(diag(grad_s), v, transpose_b=True))]
    s, u, v = op.outputs
    m, n = a.shape[-2], a.shape[-1]
    if op.get_attr('full_matrices') and (m is None or n is None or m != n):
        raise NotImplementedError('The gradient of rt.linalg.svd(full_matrices=True) of a '
                                  'non-square matrix is not supported; use '
                                  'full_matrices=False.')
    s_mat = diag(s)
    s_inv = expand_dims(_safe_reciprocal(s), -2)  # scales columns by 1 / s
    f = _pair_reciprocals(s * s, s_mat)
    u_gu = matmul(u, grad_u, transpose_a=True)
    v_gv = matmul(v, grad_v, transpose_a=True)
    inner = matmul(f * (u_gu - matrix_transpose(u_gu)), s_mat) + diag(grad_s) + \
        matmul(s_mat, f * (v_gv - matrix_transpose(v_gv)))
    grad_a = matmul(u, matmul(inner, v, transpose_b=True))
    # the parts of grad_u and grad_v outside the columns of u and v (zero for a square one):
    # (I - u u^T) grad_u s^-1 v^T + u s^-1 grad_v^T (I - v v^T)
    grad_a = grad_a + matmul((grad_u - matmul(u, u_gu)) * s_inv, v, transpose_b=True)
    return [grad_a + matmul(u * s_inv, grad_v - matmul(v, v_gv), transpose_b=True)]


@defgradient(dec.SELF_ADJOINT_EIG)
def _eigh_gradient(op, grad_e, grad_v):
    """TensorFlow's formula; the op reads the lower triangle, so the gradient is the lower
    triangle of the symmetrized gradient, its diagonal halved."""
    e = op.outputs[0]
    if op.get_attr('compute_v'):
        v = op.outputs[1]
        f = _pair_reciprocals(e, v)
        grad_a = matmul(v, matmul(diag(grad_e) + f * matmul(v, grad_v, transpose_a=True), v,
                                  transpose_b=True))
    else:
        _, v = dec.eigh(convert_to_tensor(op.inputs[0]))
        grad_a = matmul(v, matmul(diag(grad_e), v, transpose_b=True))
    grad_a = band_part(grad_a + matrix_transpose(grad_a), -1, 0)
    return [grad_a - 0.5 * diag(diag_part(grad_a))]


@defgradient(dec.LOG_MATRIX_DETERMINANT)
def _slogdet_gradient(op, grad_sign, grad_log_abs):
    """d log|det a| / da = inv(a)^T (the sign is piecewise constant)."""
    a = convert_to_tensor(op.inputs[0])
    return [expand_dims(expand_dims(grad_log_abs, -1), -1) * inv(a, adjoint=True)]


@defgradient(dec.MATRIX_EXPONENTIAL)
def _expm_gradient(op, grad):
    """The upper right block of expm([[a^T, grad], [0, a^T]]) (the Frechet derivative of the
    exponential at a^T in the direction grad)."""
    a_t = matrix_transpose(convert_to_tensor(op.inputs[0]))
    block = concat([concat([a_t, grad], -1), concat([zeros_like(a_t), a_t], -1)], -2)
    n = a_t.shape[-1]
    if n is None:
        n = shape_(a_t)[-1]
    return [dec.expm(block)[..., :n, n:]]


@defgradient(dec.MATRIX_SOLVE_LS)
def _solve_ls_gradient(op, grad):
    """The gradient of the normal-equations solution (`fast=True`, as TensorFlow's): that of
    lstsq's Cholesky composite on the same inputs. TensorFlow has none for `fast=False`."""
    if not op.get_attr('fast'):
        raise ValueError('Gradient not defined for rt.linalg.lstsq(fast=False), as in '
                         'TensorFlow; use fast=True (the default).')
    a, b = convert_to_tensor(op.inputs[0]), convert_to_tensor(op.inputs[1])
    with GradientTape() as tape:
        tape.watch([a, b])
        x = dec.lstsq(a, b, cast(convert_to_tensor(op.inputs[2]), a.dtype), fast=True)
    grad_a, grad_b = tape.gradient(x, [a, b], output_gradients=grad)
    return [grad_a, grad_b, None]
