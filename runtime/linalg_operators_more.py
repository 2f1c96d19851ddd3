"""The structured linear operators of `rt.linalg` (TensorFlow's): block diagonal and block
lower triangular, Kronecker products, low-rank updates, circulant (1-D, 2-D, 3-D), Householder
reflections, permutations, Toeplitz and tridiagonal matrices. Each builds its dense matrix
from ops (so gradients reach its parameters) and gives the cheap forms its structure allows;
the rest comes from `LinearOperator`'s dense defaults (runtime/linalg_operators.py).
"""
import numpy as np

from runtime.core import dtypes
from runtime.linalg_operators import LinearOperator
from runtime.ops.array import cast
from runtime.ops.bitwise import real
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import eye, zeros
from runtime.ops.linalg import band_part, det, diag, matrix_transpose
from runtime.ops.linalg_more import kron_matrices
from runtime.ops.manipulation import one_hot
from runtime.ops.math import matmul
from runtime.ops.reduce import reduce_sum
from runtime.ops.shaping import concat, expand_dims, reshape
from runtime.ops.shaping import shape as shape_
from runtime.ops.slicing import gather
from runtime.signal import ifft, ifft2d, ifft3d


def _dims(op):
    return op.shape.as_list()


def _same_dtype(operators):
    dtype = operators[0].dtype
    for op in operators[1:]:
        if op.dtype != dtype:
            raise TypeError(f'Expected all operators to have the same dtype. Found '
                            f'{dtype.name} and {op.dtype.name}.')
    return dtype


def _all(operators, flag):
    values = [getattr(op, flag) for op in operators]
    return True if all(v is True for v in values) else None


def _init_from_list(operator, operators, is_non_singular, is_self_adjoint,
                    is_positive_definite, is_square, name, joiner):
    """Initialize an operator made of `operators`: a hint true of each of them is true of it,
    and its name joins theirs with `joiner` unless given."""
    operators = list(operators)
    if not operators:
        raise ValueError(f'Expected a non-empty list of operators. Found: {operators}')
    operator._operators = operators
    LinearOperator.__init__(operator, _same_dtype(operators), None,
                            is_non_singular or _all(operators, 'is_non_singular'),
                            is_self_adjoint or _all(operators, 'is_self_adjoint'),
                            is_positive_definite or _all(operators, 'is_positive_definite'),
                            is_square, name or joiner.join(op.name for op in operators),
                            {'operators': operators})


def product_of(values):
    """values[0] * values[1] * ... (a determinant of blocks)."""
    out = values[0]
    for v in values[1:]:
        out = out * v
    return out


def sum_of(values):
    """values[0] + values[1] + ... (a log-determinant of blocks)."""
    out = values[0]
    for v in values[1:]:
        out = out + v
    return out


class LinearOperatorBlockDiag(LinearOperator):
    """The block diagonal operator with `operators` (each square) on its diagonal."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=None):
        _init_from_list(self, operators, is_non_singular, is_self_adjoint, is_positive_definite,
                        is_square, name, '_ds_')

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        rows = sum(op.range_dimension for op in self._operators)
        cols = sum(op.domain_dimension for op in self._operators)
        return self._operators[0].batch_shape.concatenate([rows, cols])

    def _to_dense(self):
        cols = [op.domain_dimension for op in self._operators]
        batch = self.batch_shape.as_list()
        rows = []
        for i, op in enumerate(self._operators):
            m = op.range_dimension
            left = zeros(batch + [m, sum(cols[:i])], self.dtype)
            right = zeros(batch + [m, sum(cols[i + 1:])], self.dtype)
            rows.append(concat([left, op.to_dense(), right], -1))
        return concat(rows, -2)

    def _split(self, x, sizes):
        out, start = [], 0
        for n in sizes:
            out.append(x[..., start:start + n, :])
            start += n
        return out

    def _matmul(self, x, adjoint, adjoint_arg):
        x = matrix_transpose(x) if adjoint_arg else x
        sizes = [op.range_dimension if adjoint else op.domain_dimension
                 for op in self._operators]
        parts = self._split(x, sizes)
        return concat([op.matmul(p, adjoint=adjoint) for op, p in zip(self._operators, parts)],
                      -2)

    def _solve(self, rhs, adjoint):
        parts = self._split(rhs, [op.range_dimension for op in self._operators])
        return concat([op.solve(p, adjoint=adjoint) for op, p in zip(self._operators, parts)],
                      -2)

    def _determinant(self):
        return product_of([op.determinant() for op in self._operators])

    def _log_abs_determinant(self):
        return sum_of([op.log_abs_determinant() for op in self._operators])

    def _diag_part(self):
        return concat([op.diag_part() for op in self._operators], -1)


class LinearOperatorBlockLowerTriangular(LinearOperator):
    """A block lower triangular operator: `operators[i]` lists the blocks of row i, the last
    on the diagonal (square)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name='LinearOperatorBlockLowerTriangular'):
        operators = [list(row) for row in operators]
        if not operators:
            raise ValueError(f'Expected a non-empty list of operators. Found: {operators}')
        for i, row in enumerate(operators):
            if len(row) != i + 1:
                raise ValueError(f'Argument `operators[{i}]` must contain {i + 1} blocks. '
                                 f'Received: {len(row)} blocks.')
        self._operators = operators
        diagonal = [row[-1] for row in operators]
        super().__init__(_same_dtype([op for row in operators for op in row]), None,
                         is_non_singular or _all(diagonal, 'is_non_singular'), is_self_adjoint,
                         is_positive_definite, True if is_square is None else is_square, name,
                         {'operators': operators})

    operators = property(lambda self: [list(row) for row in self._operators])

    def _shape(self):
        n = sum(row[-1].range_dimension for row in self._operators)
        return self._operators[0][0].batch_shape.concatenate([n, n])

    def _to_dense(self):
        sizes = [row[-1].domain_dimension for row in self._operators]
        batch = self.batch_shape.as_list()
        rows = []
        for i, row in enumerate(self._operators):
            blocks = [op.to_dense() for op in row]
            rest = sum(sizes[i + 1:])
            if rest:
                blocks.append(zeros(batch + [sizes[i], rest], self.dtype))
            rows.append(concat(blocks, -1))
        return concat(rows, -2)

    def _determinant(self):
        return product_of([row[-1].determinant() for row in self._operators])

    def _log_abs_determinant(self):
        return sum_of([row[-1].log_abs_determinant() for row in self._operators])


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product of `operators`, the first outermost."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        _init_from_list(self, operators, is_non_singular, is_self_adjoint, is_positive_definite,
                        is_square, name, '_x_')

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        rows = int(np.prod([op.range_dimension for op in self._operators]))
        cols = int(np.prod([op.domain_dimension for op in self._operators]))
        return self._operators[0].batch_shape.concatenate([rows, cols])

    def _to_dense(self):
        out = self._operators[0].to_dense()
        for op in self._operators[1:]:
            out = kron_matrices(out, op.to_dense())
        return out

    def _determinant(self):
        if not all(op.is_square for op in self._operators):
            return super()._determinant()
        n = self.domain_dimension
        return product_of([op.determinant() ** (n // op.domain_dimension)
                           for op in self._operators])

    def _log_abs_determinant(self):
        if not all(op.is_square for op in self._operators):
            return super()._log_abs_determinant()
        n = self.domain_dimension
        return sum_of([op.log_abs_determinant() * float(n // op.domain_dimension)
                       for op in self._operators])


class LinearOperatorLowRankUpdate(LinearOperator):
    """`base_operator + u diag(diag_update) v^H` (v defaults to u, diag_update to ones)."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name='LinearOperatorLowRankUpdate'):
        self._base = base_operator
        dtype = base_operator.dtype
        self._u = convert_to_tensor(u, dtype)
        self._v = self._u if v is None else convert_to_tensor(v, dtype)
        self._diag_update = None if diag_update is None else convert_to_tensor(diag_update,
                                                                                 dtype)
        if v is None and is_self_adjoint is None and base_operator.is_self_adjoint:
            is_self_adjoint = True
        super().__init__(dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name, {'base_operator': base_operator, 'u': u,
                                           'diag_update': diag_update, 'v': v,
                                           'is_diag_update_positive': is_diag_update_positive})

    base_operator = property(lambda self: self._base)
    u = property(lambda self: self._u)
    v = property(lambda self: self._v)
    diag_update = property(lambda self: self._diag_update)

    def _shape(self):
        return self._base.shape

    def _to_dense(self):
        u = self._u if self._diag_update is None else \
            self._u * expand_dims(self._diag_update, -2)
        return self._base.to_dense() + matmul(u, self._v, adjoint_b=True)


def _circulant_dense(spectrum, dims, inverse_fft, dtype):
    """The dense block-circulant matrix whose eigenvalues are `spectrum` (its trailing
    `len(dims)` axes the frequencies): entry [i, j] is the kernel at (i - j) mod dims,
    the kernel being the inverse FFT of the spectrum."""
    rank = len(dims)
    complex_spectrum = spectrum if spectrum.dtype.is_complex else \
        cast(spectrum, dtypes.complex128 if spectrum.dtype == dtypes.float64 else dtypes.complex64)
    kernel = inverse_fft(complex_spectrum)
    n = int(np.prod(dims))
    flat = reshape(kernel, concat([shape_(kernel)[:kernel.shape.rank - rank],
                                   np.array([n], np.int32)], 0))
    coords = np.stack(np.unravel_index(np.arange(n), dims), -1)  # [n, rank]
    offsets = (coords[:, None, :] - coords[None, :, :]) % np.array(dims)
    index = np.ravel_multi_index(tuple(np.moveaxis(offsets, -1, 0)), dims)  # [n, n]
    dense = gather(flat, index.astype(np.int32), axis=-1)
    return cast(real(dense), dtype) if not dtype.is_complex else cast(dense, dtype)


class _CirculantBase(LinearOperator):
    rank = 1
    inverse_fft = staticmethod(ifft)

    def __init__(self, spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                 is_positive_definite, is_square, name):
        self._spectrum = convert_to_tensor(spectrum)
        if not (self._spectrum.dtype.is_floating or self._spectrum.dtype.is_complex):
            raise TypeError(f'spectrum must be floating or complex, got '
                            f'{self._spectrum.dtype.name}')
        if not is_square:
            raise ValueError('A circulant operator is always square.')
        super().__init__(input_output_dtype, None, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name,
                         {'spectrum': spectrum, 'input_output_dtype': input_output_dtype})

    spectrum = property(lambda self: self._spectrum)

    def block_shape(self):
        return self._spectrum.shape.as_list()[-self.rank:]

    def _shape(self):
        n = int(np.prod(self.block_shape()))
        return self._spectrum.shape[:-self.rank].concatenate([n, n])

    def _to_dense(self):
        return _circulant_dense(self._spectrum, self.block_shape(), self.inverse_fft,
                                self.dtype)


class LinearOperatorCirculant(_CirculantBase):
    """The circulant matrix whose eigenvalues are `spectrum` ([batch..., N])."""

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name='LinearOperatorCirculant'):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)


class LinearOperatorCirculant2D(_CirculantBase):
    """The block circulant matrix with circulant blocks whose eigenvalues are `spectrum`
    ([batch..., N0, N1])."""
    rank = 2
    inverse_fft = staticmethod(ifft2d)

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name='LinearOperatorCirculant2D'):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)


class LinearOperatorCirculant3D(_CirculantBase):
    """The three-level block circulant matrix whose eigenvalues are `spectrum`
    ([batch..., N0, N1, N2])."""
    rank = 3
    inverse_fft = staticmethod(ifft3d)

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name='LinearOperatorCirculant3D'):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name)


class LinearOperatorHouseholder(LinearOperator):
    """The reflection I - 2 v v^H / |v|^2 across the hyperplane orthogonal to
    `reflection_axis` v ([batch..., N])."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorHouseholder'):
        self._axis = convert_to_tensor(reflection_axis)
        if is_self_adjoint is False or is_non_singular is False or is_square is False:
            raise ValueError('A Householder operator is always self-adjoint, non-singular '
                             'and square.')
        if is_positive_definite:
            raise ValueError('A Householder operator is never positive definite.')
        super().__init__(self._axis.dtype, None, is_non_singular, True, is_positive_definite,
                         True, name, {'reflection_axis': reflection_axis})

    reflection_axis = property(lambda self: self._axis)

    def _shape(self):
        s = self._axis.shape
        return s.concatenate([s.dims[-1]])

    def _to_dense(self):
        v = expand_dims(self._axis, -1)
        norm2 = expand_dims(reduce_sum(self._axis * self._axis, -1), -1)
        n = self._axis.shape.as_list()[-1]
        return eye(n, dtype=self.dtype) - 2.0 * matmul(v, v, adjoint_b=True) / \
            expand_dims(norm2, -1)

    def _solve(self, rhs, adjoint):
        return self._matmul(rhs, adjoint, False)

    def _determinant(self):
        return reduce_sum(self._axis * 0, -1) - 1.0  # a reflection: -1

    def _log_abs_determinant(self):
        return reduce_sum(self._axis * 0, -1)

    def _inverse(self):
        return self


class LinearOperatorPermutation(LinearOperator):
    """The permutation matrix P with (P x)[i] = x[perm[i]] (P[i, perm[i]] = 1)."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorPermutation'):
        self._perm = convert_to_tensor(perm)
        if not self._perm.dtype.is_integer:
            raise TypeError(f'Argument `perm` must be integer dtype. Received: '
                            f'{self._perm.dtype.name}.')
        if is_non_singular is False or is_square is False:
            raise ValueError('A permutation operator is always non-singular and square.')
        super().__init__(dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         True, name, {'perm': perm, 'dtype': dtype})

    perm = property(lambda self: self._perm)

    def _shape(self):
        s = self._perm.shape
        return s.concatenate([s.dims[-1]])

    def _to_dense(self):
        n = self._perm.shape.as_list()[-1]
        return one_hot(self._perm, n, dtype=self.dtype)

    def _solve(self, rhs, adjoint):
        return self._matmul(rhs, not adjoint, False)

    def _determinant(self):
        return det(self._to_dense())

    def _log_abs_determinant(self):
        return reduce_sum(cast(self._perm, self.dtype) * 0, -1)


class LinearOperatorToeplitz(LinearOperator):
    """The Toeplitz matrix with first column `col` and first row `row` (row[0] is not read:
    the diagonal is col[0])."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorToeplitz'):
        self._col = convert_to_tensor(col)
        self._row = convert_to_tensor(row, self._col.dtype)
        if is_square is False:
            raise ValueError('Only square Toeplitz operators currently supported.')
        super().__init__(self._col.dtype, None, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name, {'col': col, 'row': row})

    col = property(lambda self: self._col)
    row = property(lambda self: self._row)

    def _shape(self):
        s = self._col.shape
        return s.concatenate([s.dims[-1]])

    def _to_dense(self):
        n = self._col.shape.as_list()[-1]
        # [col[n-1], ..., col[1], col[0], row[1], ..., row[n-1]], read at n - 1 + j - i
        values = concat([self._col[..., ::-1], self._row[..., 1:]], -1)
        i, j = np.meshgrid(np.arange(n), np.arange(n), indexing='ij')
        return gather(values, (n - 1 + j - i).astype(np.int32), axis=-1)


class LinearOperatorTridiag(LinearOperator):
    """A tridiagonal matrix from its diagonals: 'compact' [batch..., 3, N] (superdiagonal,
    diagonal, subdiagonal; superdiag[-1] and subdiag[0] not read), 'sequence' (a list of the
    three) or 'matrix' (the dense matrix, the rest not read)."""

    def __init__(self, diagonals, diagonals_format='compact', is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name='LinearOperatorTridiag'):
        if diagonals_format not in ('compact', 'sequence', 'matrix'):
            raise ValueError(f'Argument `diagonals_format` must be one of compact, matrix, '
                             f'sequence. Received : {diagonals_format}.')
        if diagonals_format == 'sequence':
            diagonals = [convert_to_tensor(d) for d in diagonals]
            dtype = diagonals[0].dtype
        else:
            diagonals = convert_to_tensor(diagonals)
            dtype = diagonals.dtype
        if is_square is False:
            raise ValueError('Only square tridiagonal operators are supported.')
        self._diagonals, self._format = diagonals, diagonals_format
        super().__init__(dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         True, name, {'diagonals': diagonals,
                                      'diagonals_format': diagonals_format})

    diagonals = property(lambda self: self._diagonals)
    diagonals_format = property(lambda self: self._format)

    def _parts(self):
        if self._format == 'sequence':
            return self._diagonals
        if self._format == 'compact':
            return [self._diagonals[..., k, :] for k in range(3)]
        return None

    def _shape(self):
        if self._format == 'matrix':
            return self._diagonals.shape
        main = self._parts()[1].shape
        return main.concatenate([main.dims[-1]])

    def _to_dense(self):
        if self._format == 'matrix':
            return band_part(self._diagonals, 1, 1)
        sup, main, sub = self._parts()
        return diag(sup[..., :-1], k=1) + diag(main) + diag(sub[..., 1:], k=-1)


__all__ = ['LinearOperatorBlockDiag', 'LinearOperatorBlockLowerTriangular',
           'LinearOperatorCirculant', 'LinearOperatorCirculant2D', 'LinearOperatorCirculant3D',
           'LinearOperatorHouseholder', 'LinearOperatorKronecker', 'LinearOperatorLowRankUpdate',
           'LinearOperatorPermutation', 'LinearOperatorToeplitz', 'LinearOperatorTridiag']
