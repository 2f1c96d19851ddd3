"""Linear algebra (`rt.linalg`, `rt.einsum`, `rt.norm`, `rt.clip_by_norm`).

Ops work on the last two axes, batched over the leading ones, like TensorFlow's. `trace`,
`matvec`, `matrix_transpose`, `norm`, `logdet` and `clip_by_norm` build the graphs TensorFlow
builds from other ops.
"""
from typing import NamedTuple

import numpy as np

from runtime.core import errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.compare import greater, where
from runtime.ops.convert import convert_to_tensor, unify_inputs
from runtime.ops.creation import ones_like
from runtime.ops.dispatch import apply, refused_dtype
from runtime.ops.infer import broadcast_shape, constant_value
from runtime.ops.math import abs as abs_
from runtime.ops.math import log, matmul, maximum, sqrt
from runtime.ops.math import pow as pow_
from runtime.ops.reduce import reduce_max, reduce_sum
from runtime.ops.registry import register
from runtime.ops.shaping import expand_dims, squeeze, transpose


def square_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank is not None:
        if x.shape.rank < 2:
            raise ValueError(f'Input must have rank >= 2, got shape {x.shape}')
        m, n = x.shape[-2], x.shape[-1]
        if m is not None and n is not None and m != n:
            raise ValueError(f'Input matrix must be square, got shape {x.shape}')
    return [(x.dtype, x.shape)]


def check_float(x, public_name):
    if not x.dtype.is_floating:
        raise refused_dtype(f'rt.linalg.{public_name} needs a floating-point tensor, got '
                            f'{x.dtype.name}; use rt.cast first.', x)
    return x


def linalg_error(fn, message):
    def kernel(*args, **attrs):
        try:
            return fn(*args, **attrs)
        except np.linalg.LinAlgError:
            raise errors.InvalidArgumentError(message=message) from None
    return kernel


def matrix_transpose(a, name=None, conjugate=False):
    """`a` with its last two axes swapped (op `Transpose`; `conjugate` of complex matrices is
    not supported)."""
    a = convert_to_tensor(a)
    if conjugate and a.dtype.is_complex:
        raise NotImplementedError('matrix_transpose(conjugate=True) of complex matrices is not '
                                  'supported.')
    rank = a.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f'matrix_transpose needs a tensor of rank >= 2, got shape {a.shape}.')
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return transpose(a, perm, name=name)


# ---- inverse, determinant, solve ---------------------------------------------------------------

def _solve_kernel(matrix, rhs, adjoint=False):
    if adjoint:
        matrix = np.swapaxes(matrix, -1, -2)
    return np.linalg.solve(matrix, rhs).astype(rhs.dtype)


def _solve_infer(inputs, attrs):
    matrix, rhs = inputs
    square_infer([matrix], attrs)
    if matrix.shape.rank is not None and rhs.shape.rank is not None:
        m, r = matrix.shape[-1], rhs.shape[-2] if rhs.shape.rank >= 2 else None
        if rhs.shape.rank < 2 or m is not None and r is not None and m != r:
            raise ValueError(f'Incompatible shapes for solve: matrix {matrix.shape}, '
                             f'rhs {rhs.shape}')
    return [(rhs.dtype, rhs.shape)]


MATRIX_INVERSE = register('MatrixInverse', linalg_error(
    lambda input, adjoint=False: np.linalg.inv(input).astype(input.dtype),
    'Input is not invertible.'), square_infer, inputs=('input',), outputs=('output',),
    defaults={'adjoint': False})
MATRIX_DETERMINANT = register(
    'MatrixDeterminant', lambda input: np.asarray(np.linalg.det(input), input.dtype)[()],
    lambda inputs, attrs: [(inputs[0].dtype, TensorShape(
        None if inputs[0].shape.rank is None else square_infer(inputs, attrs)[0][1][:-2]))],
    inputs=('input',), outputs=('output',))
MATRIX_SOLVE = register('MatrixSolve', linalg_error(_solve_kernel, 'Input matrix is not '
                                                                    'invertible.'),
                        _solve_infer, inputs=('matrix', 'rhs'), outputs=('output',),
                        defaults={'adjoint': False}, convert_inputs=unify_inputs)


def inv(input, adjoint=False, name=None):
    """The inverse of each square matrix (op `MatrixInverse`); a singular matrix is an
    `rt.errors.InvalidArgumentError` when it runs."""
    x = check_float(convert_to_tensor(input), 'inv')
    if adjoint:
        x = matrix_transpose(x)
    return apply(MATRIX_INVERSE, [x], name=name)


def det(input, name=None):
    """The determinant of each square matrix (op `MatrixDeterminant`)."""
    return apply(MATRIX_DETERMINANT, [check_float(convert_to_tensor(input), 'det')], name=name)


def solve(matrix, rhs, adjoint=False, name=None):
    """`x` with `matrix @ x == rhs` (op `MatrixSolve`; `adjoint` solves with the transpose)."""
    matrix = check_float(convert_to_tensor(matrix), 'solve')
    attrs = {'adjoint': True} if adjoint else None
    return apply(MATRIX_SOLVE, (matrix, rhs), attrs, name=name)


def _triangle(matrix, lower):
    return np.tril(matrix) if lower else np.triu(matrix)


def _triangular_solve_kernel(matrix, rhs, lower=True, adjoint=False):
    m = _triangle(matrix, lower)  # the other triangle is ignored, as in TensorFlow
    if adjoint:
        m = np.swapaxes(m, -1, -2)
    return np.linalg.solve(m, rhs).astype(rhs.dtype)


MATRIX_TRIANGULAR_SOLVE = register(
    'MatrixTriangularSolve', linalg_error(_triangular_solve_kernel, 'Input matrix is not '
                                                                     'invertible.'),
    _solve_infer, inputs=('matrix', 'rhs'), outputs=('output',),
    defaults={'lower': True, 'adjoint': False}, convert_inputs=unify_inputs)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """`x` with `matrix @ x == rhs` for a triangular `matrix` (lower unless `lower=False`; the
    other triangle is not read; op `MatrixTriangularSolve`)."""
    matrix = check_float(convert_to_tensor(matrix), 'triangular_solve')
    return apply(MATRIX_TRIANGULAR_SOLVE, (matrix, rhs),
                 {'lower': bool(lower), 'adjoint': bool(adjoint)}, name=name)


# ---- Cholesky, Qr ------------------------------------------------------------------------------

def _qr_kernel(input, full_matrices=False):
    q, r = np.linalg.qr(input, mode='complete' if full_matrices else 'reduced')
    return q.astype(input.dtype), r.astype(input.dtype)


def _qr_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * 2
    if x.shape.rank < 2:
        raise ValueError(f'qr needs a tensor of rank >= 2, got shape {x.shape}')
    *batch, m, n = x.shape.as_list()
    k = None if m is None or n is None else min(m, n)
    if attrs.get('full_matrices'):
        return [(x.dtype, TensorShape(batch + [m, m])), (x.dtype, TensorShape(batch + [m, n]))]
    return [(x.dtype, TensorShape(batch + [m, k])), (x.dtype, TensorShape(batch + [k, n]))]


def _cholesky_kernel(input):
    # Only the symmetric part counts, so the kernel agrees with the (symmetric) gradient for
    # any input; for the symmetric inputs Cholesky is meant for it changes nothing.
    return np.linalg.cholesky((input + np.swapaxes(input, -1, -2)) / 2).astype(input.dtype)


CHOLESKY = register('Cholesky', linalg_error(
    _cholesky_kernel,
    'Cholesky decomposition was not successful. The input might not be valid.'),
    square_infer, inputs=('input',), outputs=('output',))
QR = register('Qr', _qr_kernel, _qr_infer, inputs=('input',), outputs=('q', 'r'),
              defaults={'full_matrices': False})


def cholesky(input, name=None):
    """The lower-triangular `L` with `L @ L^T == input` (op `Cholesky`); a matrix that is not
    positive definite is an `rt.errors.InvalidArgumentError` when it runs."""
    return apply(CHOLESKY, [check_float(convert_to_tensor(input), 'cholesky')], name=name)


def qr(input, full_matrices=False, name=None):
    """(q, r) with `q @ r == input`, q orthonormal and r upper triangular (op `Qr`)."""
    x = check_float(convert_to_tensor(input), 'qr')
    attrs = {'full_matrices': True} if full_matrices else None
    q, r = apply(QR, [x], attrs, name=name)
    return QrResult(q, r)


class QrResult(NamedTuple):
    """`qr`'s result, as in TensorFlow."""
    q: Tensor
    r: Tensor


# ---- diagonals and bands -----------------------------------------------------------------------

def _diag_size(n, k, rows, cols):
    """TensorFlow's output size of MatrixDiagV3: a missing size is the smallest that fits
    the diagonal (`n + |k|` when both are missing)."""
    if rows < 0 and cols < 0:
        return n + abs(k), n + abs(k)
    if rows < 0:
        return n + max(-k, 0), cols
    if cols < 0:
        return rows, n + max(k, 0)
    return rows, cols


def _one_diagonal(k):
    """The diagonal index `k` names; a (lower, upper) band of several is not supported."""
    ks = np.ravel(k)
    if ks.size > 1 and ks[0] != ks[-1]:
        raise errors.UnimplementedError(
            message=f'k as a band of diagonals {ks.tolist()} is not supported; take the '
                    f'diagonals one k at a time.')
    return int(ks[0])


def _diag_kernel(diagonal, k, num_rows, num_cols, padding_value, align='RIGHT_LEFT'):
    k = _one_diagonal(k)
    n = diagonal.shape[-1]
    rows, cols = _diag_size(n, k, int(num_rows), int(num_cols))
    out = np.full(diagonal.shape[:-1] + (rows, cols), padding_value, dtype=diagonal.dtype)
    i = np.arange(n)
    r, c = (i, i + k) if k >= 0 else (i - k, i)
    keep = (r < rows) & (c < cols)
    out[..., r[keep], c[keep]] = diagonal[..., i[keep]]
    return out


def _diag_infer(inputs, attrs):
    d = inputs[0]
    k = constant_value(inputs[1])
    rows, cols = constant_value(inputs[2]), constant_value(inputs[3])
    if d.shape.rank is None or k is None:
        return [(d.dtype, TensorShape(None))]
    k = int(np.ravel(k)[0])
    n = d.shape[-1]
    if rows is None or cols is None or n is None and (rows < 0 or cols < 0):
        rows = None if rows is None or rows < 0 else int(rows)
        cols = None if cols is None or cols < 0 else int(cols)
    else:
        rows, cols = _diag_size(n, k, int(rows), int(cols))
    return [(d.dtype, TensorShape(d.shape.as_list()[:-1] + [rows, cols]))]


def _diag_part_kernel(input, k, padding_value, align='RIGHT_LEFT'):
    out = np.diagonal(input, offset=_one_diagonal(k), axis1=-2, axis2=-1)
    return np.ascontiguousarray(out)


def _diag_part_infer(inputs, attrs):
    x = inputs[0]
    k = constant_value(inputs[1])
    if x.shape.rank is None or k is None:
        return [(x.dtype, TensorShape(None))]
    k = int(np.ravel(k)[0])
    *batch, m, n = x.shape.as_list()
    length = None if m is None or n is None else max(0, min(m + min(k, 0), n - max(k, 0)))
    return [(x.dtype, TensorShape(batch + [length]))]


def _band_kernel(input, num_lower, num_upper):
    m, n = input.shape[-2:]
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    lower, upper = int(num_lower), int(num_upper)
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, input, np.zeros((), input.dtype))


MATRIX_DIAG = register('MatrixDiagV3', _diag_kernel, _diag_infer,
                       inputs=('diagonal', 'k', 'num_rows', 'num_cols', 'padding_value'),
                       outputs=('output',), defaults={'align': 'RIGHT_LEFT'})
MATRIX_DIAG_PART = register('MatrixDiagPartV3', _diag_part_kernel, _diag_part_infer,
                            inputs=('input', 'k', 'padding_value'), outputs=('diagonal',),
                            defaults={'align': 'RIGHT_LEFT'})
MATRIX_BAND_PART = register('MatrixBandPart', _band_kernel,
                            lambda inputs, attrs: [(inputs[0].dtype, inputs[0].shape)],
                            inputs=('input', 'num_lower', 'num_upper'), outputs=('band',),
                            type_attrs=(('T', 0), ('Tindex', 1)))


def _int_operand(v):
    return np.int32(v) if isinstance(v, (int, np.integer)) else v


def diag(diagonal, name=None, k=0, num_rows=-1, num_cols=-1, padding_value=0, align='RIGHT_LEFT'):
    """A (batch of) matrix with `diagonal` on diagonal `k` and `padding_value` elsewhere (op
    `MatrixDiagV3`)."""
    d = convert_to_tensor(diagonal)
    pad = np.asarray(padding_value, d.dtype.np_dtype)
    return apply(MATRIX_DIAG, [d, _int_operand(k), _int_operand(num_rows), _int_operand(num_cols),
                               pad], {'align': align}, name=name)


def diag_part(input, name=None, k=0, padding_value=0, align='RIGHT_LEFT'):
    """Diagonal `k` of each matrix (op `MatrixDiagPartV3`)."""
    x = convert_to_tensor(input)
    pad = np.asarray(padding_value, x.dtype.np_dtype)
    return apply(MATRIX_DIAG_PART, [x, _int_operand(k), pad],
                 {'align': align}, name=name)


def band_part(input, num_lower, num_upper, name=None):
    """Each matrix with everything outside the band zeroed: `num_lower` subdiagonals and
    `num_upper` superdiagonals kept (negative: all) (op `MatrixBandPart`)."""
    x = convert_to_tensor(input)
    lower, upper = _int_operand(num_lower), _int_operand(num_upper)
    if isinstance(lower, np.integer) and not isinstance(upper, np.integer):
        lower = np.asarray(lower, convert_to_tensor(upper).dtype.np_dtype)
    return apply(MATRIX_BAND_PART, [x, lower, upper], name=name)


def trace(x, name=None):
    """The sum of each matrix's diagonal (TensorFlow's graph: MatrixDiagPartV3, Sum)."""
    return reduce_sum(diag_part(x), -1, name=name)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """`a @ b` for a (batch of) matrix and vector (ExpandDims, MatMul, Squeeze)."""
    return squeeze(matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a),
                   [-1])


def logdet(matrix, name=None):
    """`log(det(matrix))` of a Hermitian positive definite matrix, via its Cholesky factor."""
    chol = cholesky(matrix)
    return 2.0 * reduce_sum(log(diag_part(chol)), -1)


# ---- Einsum ------------------------------------------------------------------------------------

def _einsum_kernel(*inputs, equation, N=None):
    return np.asarray(np.einsum(equation, *inputs, optimize=len(inputs) > 2))


def parse_equation(equation):
    equation = equation.replace(' ', '')
    if '->' in equation:
        lhs, out = equation.split('->')
    else:  # implicit output: the letters used once, in alphabetical order
        lhs = equation
        letters = lhs.replace(',', '').replace('.', '')
        out = ''.join(sorted(c for c in set(letters) if letters.count(c) == 1))
        if '...' in lhs:
            out = '...' + out
    return lhs.split(','), out


def _einsum_infer(inputs, attrs):
    subs, out = parse_equation(attrs['equation'])
    if len(subs) != len(inputs):
        raise ValueError(f'einsum equation {attrs["equation"]!r} names {len(subs)} operands, '
                         f'got {len(inputs)}')
    dims, batch = {}, None
    for sub, t in zip(subs, inputs):
        if t.shape.rank is None:
            return [(inputs[0].dtype, TensorShape(None))]
        shape = t.shape.as_list()
        if '...' in sub:
            head, tail = sub.split('...')
            n_batch = len(shape) - len(head) - len(tail)
            here = TensorShape(shape[len(head):len(head) + n_batch])
            batch = here if batch is None else broadcast_shape(batch, here)
            shape = shape[:len(head)] + shape[len(head) + n_batch:]
            sub = head + tail
        if len(sub) != len(shape):
            raise ValueError(f'einsum subscripts {sub!r} do not match an input of shape '
                             f'{t.shape}')
        for c, d in zip(sub, shape):
            known = dims.get(c)
            if known is not None and d is not None and known != d and 1 not in (known, d):
                raise ValueError(f'einsum dimension {c!r} is {known} in one input and {d} in '
                                 f'another')
            if known is None or known == 1:
                dims[c] = d
    if '...' in out:
        head, tail = out.split('...')
        shape = [dims.get(c) for c in head] + (batch.as_list() if batch else []) + \
            [dims.get(c) for c in tail]
    else:
        shape = [dims.get(c) for c in out]
    return [(inputs[0].dtype, TensorShape(shape))]


EINSUM = register('Einsum', _einsum_kernel, _einsum_infer, inputs=('inputs',),
                  outputs=('output',), convert_inputs=unify_inputs)


def einsum(equation, *inputs, name=None, **kwargs):
    """Sums of products over the subscripts of `equation` (`'ij,jk->ik'`; op `Einsum`)."""
    if not inputs:
        raise ValueError('einsum needs at least one input.')
    equation = equation.replace(' ', '')
    if '->' not in equation:
        subs, out = parse_equation(equation)
        equation = ','.join(subs) + '->' + out
    return apply(EINSUM, list(inputs), {'equation': equation, 'N': len(inputs)}, name=name)


# ---- norms ---------------------------------------------------------------------------------------

def _vector_norm(x, ord, axis):
    if ord in ('euclidean', 2, 2.0):
        return sqrt(reduce_sum(x * x, axis, keepdims=True))
    if ord == 1:
        return reduce_sum(abs_(x), axis, keepdims=True)
    if ord == np.inf:
        return reduce_max(abs_(x), axis, keepdims=True)
    if isinstance(ord, (int, float)) and ord > 0:
        return pow_(reduce_sum(pow_(abs_(x), float(ord)), axis, keepdims=True), 1.0 / ord)
    raise ValueError(f"'ord' must be a supported vector norm ('euclidean', 1, 2, np.inf or a "
                     f"positive number), got {ord!r}.")


def norm(tensor, ord='euclidean', axis=None, keepdims=None, name=None):
    """The vector norm over `axis` (an int or None: all entries) or the matrix norm over two
    axes (`ord` 'fro'/'euclidean', 1 or np.inf), as `rt.linalg.norm`/`tf.norm`."""
    x = convert_to_tensor(tensor)
    if not x.dtype.is_floating:
        raise TypeError(f'rt.norm needs a floating-point tensor, got {x.dtype.name}.')
    rank = x.shape.rank
    axes = None if axis is None else [int(a) for a in np.ravel(axis)]
    if axes is not None and len(axes) == 2:
        if rank is None:
            raise ValueError('A matrix norm needs a tensor of known rank.')
        a0, a1 = (a % rank for a in axes)
        if a0 == a1:
            raise ValueError(f'The two axes of a matrix norm must differ, got {axis}.')
        if ord in ('fro', 'euclidean'):
            out = sqrt(reduce_sum(x * x, [a0, a1], keepdims=True))
        elif ord in (1, np.inf):
            summed, reduced = (a0, a1) if ord == 1 else (a1, a0)
            out = reduce_max(reduce_sum(abs_(x), summed, keepdims=True), reduced, keepdims=True)
        else:
            raise ValueError(f"'ord' must be a supported matrix norm ('fro', 'euclidean', 1 or "
                             f"np.inf), got {ord!r}.")
    elif axes is not None and len(axes) != 1:
        raise ValueError(f"'axis' must be None, an int or a pair of ints, got {axis!r}.")
    else:
        if ord == 'fro':
            raise ValueError("'fro' is a matrix norm; give a pair of axes or use 'euclidean'.")
        out = _vector_norm(x, ord, axes)
    if keepdims:
        return out
    if rank is None:
        return reduce_sum(out, axes)  # the reduced axes have size 1: summing drops them
    return squeeze(out, list(range(rank)) if axes is None else [a % rank for a in axes])


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(norm(t, axes), clip_norm)`: `t` rescaled so that its L2 norm over
    `axes` is at most `clip_norm` (an all-zero `t` stays zero)."""
    t = convert_to_tensor(t)
    l2sum = reduce_sum(t * t, axes, keepdims=True)
    positive = greater(l2sum, 0.0)
    l2norm = where(positive, sqrt(where(positive, l2sum, ones_like(l2sum))), l2sum)
    return t * clip_norm / maximum(l2norm, clip_norm)


def tensordot(a, b, axes, name=None):
    """Sums of products over `axes` (an int: the last `axes` of `a` with the first of `b`; or a
    pair of axis lists), as one `Einsum` (TensorFlow reshapes around a `MatMul`)."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None:
        raise ValueError('rt.tensordot needs operands of known rank.')
    if isinstance(axes, (int, np.integer)):
        if not 0 <= axes <= min(ra, rb):
            raise ValueError(f'axes must be between 0 and {min(ra, rb)}, got {axes}.')
        a_axes, b_axes = list(range(ra - axes, ra)), list(range(axes))
    else:
        a_axes, b_axes = ([int(i) for i in np.ravel(part)] for part in axes)
        if len(a_axes) != len(b_axes):
            raise ValueError(f'axes must name as many axes of a as of b, got {axes}.')
        a_axes, b_axes = [i % ra for i in a_axes], [i % rb for i in b_axes]
    letters = iter('abcdefghijklmnopqrstuvwxyz')
    sub_a = [next(letters) for _ in range(ra)]
    sub_b = [next(letters) for _ in range(rb)]
    for i, j in zip(a_axes, b_axes):
        sub_b[j] = sub_a[i]
    out = [c for i, c in enumerate(sub_a) if i not in a_axes] + \
        [c for j, c in enumerate(sub_b) if j not in b_axes]
    return einsum(f'{"".join(sub_a)},{"".join(sub_b)}->{"".join(out)}', a, b, name=name)
