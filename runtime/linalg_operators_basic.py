"""The basic linear operators of `rt.linalg` (TensorFlow's): a dense matrix, a diagonal, the
identity, a scaled identity and the zero matrix, each with the cheap forms its structure
allows (a diagonal solves by division, the identity returns its argument); the rest comes
from `LinearOperator`'s dense defaults (runtime/linalg_operators.py)."""
import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.linalg_operators import LinearOperator, adjoint_of
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import eye, zeros
from runtime.ops.infer import constant_value
from runtime.ops.linalg import diag
from runtime.ops.math import abs as abs_
from runtime.ops.math import log, matmul
from runtime.ops.reduce import reduce_prod, reduce_sum
from runtime.ops.shaping import expand_dims


def _matrix(value, dtype=None):
    return convert_to_tensor(value, dtype)


class LinearOperatorFullMatrix(LinearOperator):
    """The operator of a dense [batch..., M, N] matrix."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorFullMatrix'):
        self._matrix = _matrix(matrix)
        if not (self._matrix.dtype.is_floating or self._matrix.dtype.is_complex):
            raise TypeError(f'matrix must be floating or complex, got {self._matrix.dtype.name}')
        super().__init__(self._matrix.dtype, None, is_non_singular, is_self_adjoint,
                         is_positive_definite, is_square, name, {'matrix': matrix})

    def _shape(self):
        return self._matrix.shape

    def _to_dense(self):
        return self._matrix

    def _matmul(self, x, adjoint, adjoint_arg):
        return matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)


class LinearOperatorDiag(LinearOperator):
    """A diagonal operator from its [batch..., N] diagonal."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name='LinearOperatorDiag'):
        self._diag = _matrix(diag)
        if is_square is False:
            raise ValueError('Only square diagonal operators are supported.')
        if self._diag.dtype.is_floating and is_self_adjoint is None:
            is_self_adjoint = True  # a real diagonal
        super().__init__(self._diag.dtype, None, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name, {'diag': diag})

    @property
    def diag(self):
        return self._diag

    def _shape(self):
        d = self._diag.shape
        return TensorShape(None) if d.rank is None else d.concatenate([d.dims[-1]])

    def _to_dense(self):
        return diag(self._diag)

    def _matmul(self, x, adjoint, adjoint_arg):
        x = adjoint_of(x) if adjoint_arg else x
        return expand_dims(self._diag, -1) * x

    def _solve(self, rhs, adjoint):
        return rhs / expand_dims(self._diag, -1)

    def _determinant(self):
        return reduce_prod(self._diag, -1)

    def _log_abs_determinant(self):
        return reduce_sum(log(abs_(self._diag)), -1)

    def _diag_part(self):
        return self._diag

    def _inverse(self):
        return LinearOperatorDiag(1.0 / self._diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite)

    def eigvals(self, name='eigvals'):
        return self._diag

    def cholesky(self, name='cholesky'):
        if not (self.is_self_adjoint and self.is_positive_definite):
            return super().cholesky()
        return LinearOperatorDiag(self._diag ** 0.5, is_non_singular=True,
                                  is_self_adjoint=True, is_positive_definite=True)


def _size(value, what):
    if isinstance(value, Tensor):
        known = constant_value(value)
        if known is None:
            raise ValueError(f'{what} must be known when the operator is made.')
        value = known
    value = int(np.asarray(value))
    if value < 0:
        raise ValueError(f'Argument {what} must be non-negative. Received: {value}.')
    return value


def _batch(batch_shape):
    if batch_shape is None:
        return []
    return [_size(b, 'batch_shape') for b in np.ravel(np.asarray(batch_shape))]


class LinearOperatorIdentity(LinearOperator):
    """The [batch_shape..., N, N] identity."""

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True,
                 is_self_adjoint=True, is_positive_definite=True, is_square=True,
                 assert_proper_shapes=False, name='LinearOperatorIdentity'):
        for flag, what in ((is_non_singular, 'non-singular'), (is_self_adjoint,
                           'self-adjoint'), (is_positive_definite, 'positive definite'),
                           (is_square, 'square')):
            if not flag:
                raise ValueError(f'An identity operator is always {what}.')
        self._num_rows = _size(num_rows, 'num_rows')
        self._batch_shape_list = _batch(batch_shape)
        super().__init__(dtype or dtypes.float32, None, True, True, True, True, name,
                         {'num_rows': num_rows, 'batch_shape': batch_shape, 'dtype': dtype})

    def _shape(self):
        return TensorShape(self._batch_shape_list + [self._num_rows, self._num_rows])

    def _to_dense(self):
        return eye(self._num_rows, batch_shape=self._batch_shape_list or None, dtype=self.dtype)

    def _ones_like_batch(self):
        return convert_to_tensor(np.ones(self._batch_shape_list, self.dtype.np_dtype))

    def _broadcast(self, x):
        """`x` broadcast against the batch shape (no op without one)."""
        if not self._batch_shape_list:
            return x
        return x + zeros(self._batch_shape_list + [1, 1], self.dtype)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._broadcast(adjoint_of(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint):
        return self._broadcast(rhs)

    def _determinant(self):
        return self._ones_like_batch()

    def _log_abs_determinant(self):
        return self._ones_like_batch() * 0

    def _diag_part(self):
        return convert_to_tensor(np.ones(self._batch_shape_list + [self._num_rows],
                                         self.dtype.np_dtype))

    def _inverse(self):
        return self

    def eigvals(self, name='eigvals'):
        return self._diag_part()

    def cholesky(self, name='cholesky'):
        return self


class LinearOperatorScaledIdentity(LinearOperator):
    """`multiplier` times the N x N identity ([batch..., N, N] with the multiplier's shape as
    its batch)."""

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name='LinearOperatorScaledIdentity'):
        if not is_square:
            raise ValueError('A ScaledIdentity operator is always square.')
        self._num_rows = _size(num_rows, 'num_rows')
        self._multiplier = _matrix(multiplier)
        if self._multiplier.dtype.is_floating and is_self_adjoint is None:
            is_self_adjoint = True
        super().__init__(self._multiplier.dtype, None, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name,
                         {'num_rows': num_rows, 'multiplier': multiplier})

    multiplier = property(lambda self: self._multiplier)

    def _shape(self):
        return self._multiplier.shape.concatenate([self._num_rows, self._num_rows])

    def _scale(self):
        return expand_dims(expand_dims(self._multiplier, -1), -1)

    def _to_dense(self):
        return self._scale() * eye(self._num_rows, dtype=self.dtype)

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._scale() * (adjoint_of(x) if adjoint_arg else x)

    def _solve(self, rhs, adjoint):
        return rhs / self._scale()

    def _determinant(self):
        return self._multiplier ** self._num_rows

    def _log_abs_determinant(self):
        return self._num_rows * log(abs_(self._multiplier))

    def _diag_part(self):
        return expand_dims(self._multiplier, -1) * np.ones(self._num_rows,
                                                           self.dtype.np_dtype)

    def _inverse(self):
        return LinearOperatorScaledIdentity(self._num_rows, 1.0 / self._multiplier,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite)


class LinearOperatorZeros(LinearOperator):
    """The [batch_shape..., M, N] zero matrix."""

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None,
                 is_non_singular=False, is_self_adjoint=True, is_positive_definite=False,
                 is_square=True, assert_proper_shapes=False, name='LinearOperatorZeros'):
        if is_non_singular:
            raise ValueError('A zeros operator is always singular.')
        if is_positive_definite:
            raise ValueError('A zeros operator is never positive definite.')
        self._num_rows = _size(num_rows, 'num_rows')
        self._num_columns = self._num_rows if num_columns is None else \
            _size(num_columns, 'num_columns')
        if is_square and self._num_rows != self._num_columns:
            raise ValueError(f'LinearOperatorZeros initialized as is_square=True, but got '
                             f'num_rows({self._num_rows}) != num_columns('
                             f'{self._num_columns})')
        if is_self_adjoint and self._num_rows != self._num_columns:
            raise ValueError('A non-square zeros operator cannot be self-adjoint.')
        self._batch_shape_list = _batch(batch_shape)
        super().__init__(dtype or dtypes.float32, None, False, is_self_adjoint, False,
                         is_square, name, {'num_rows': num_rows, 'num_columns': num_columns,
                                           'batch_shape': batch_shape, 'dtype': dtype})

    def _shape(self):
        return TensorShape(self._batch_shape_list + [self._num_rows, self._num_columns])

    def _to_dense(self):
        return zeros(self._shape().as_list(), self.dtype)

    def _matmul(self, x, adjoint, adjoint_arg):
        return matmul(self._to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _determinant(self):
        return zeros(self._batch_shape_list, self.dtype)

    def _log_abs_determinant(self):
        return log(self._determinant())

    def _diag_part(self):
        return zeros(self._batch_shape_list + [min(self._num_rows, self._num_columns)],
                     self.dtype)


__all__ = ['LinearOperatorDiag', 'LinearOperatorFullMatrix', 'LinearOperatorIdentity',
           'LinearOperatorScaledIdentity', 'LinearOperatorZeros']
