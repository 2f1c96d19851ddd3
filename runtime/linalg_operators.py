"""`rt.linalg.LinearOperator` (TensorFlow's linear operators: a matrix, or a batch of them,
known by how it acts) and the kinds its methods make: lower triangular, adjoint, inverse and
composition. Every method is built from ops, so operators work
eagerly and inside `ag.function` graphs, and gradients flow through them to their parameters.

The base class computes what a kind does not give from `_to_dense` (`solve` with MatrixSolve,
`determinant` with MatrixDeterminant, ...) and `_to_dense` from `_matmul` on an identity, as
TensorFlow's does; each kind gives the cheap forms its structure allows (a triangle solves with
MatrixTriangularSolve). The basic kinds (dense, diagonal, identity, ...) are in
runtime/linalg_operators_basic.py, the structured ones (block, Kronecker, circulant, Toeplitz,
...) in runtime/linalg_operators_more.py.
"""
import numpy as np

from runtime.core import dtypes
from runtime.core.shapes import TensorShape
from runtime.module import Module
from runtime.ops.checks import assert_near, assert_positive
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import eye
from runtime.ops.decompositions import eigvalsh, slogdet, svd
from runtime.ops.infer import broadcast_shape
from runtime.ops.linalg import (
    band_part,
    cholesky,
    det,
    diag_part,
    inv,
    matrix_transpose,
    solve,
    triangular_solve,
)
from runtime.ops.math import abs as abs_
from runtime.ops.math import log, matmul
from runtime.ops.reduce import reduce_max, reduce_min, reduce_prod, reduce_sum
from runtime.ops.shaping import expand_dims, squeeze
from runtime.ops.shaping import shape as shape_


def adjoint_of(x):
    """The adjoint of a (batch of) matrix: its transpose (real dtypes)."""
    return matrix_transpose(x)


class LinearOperator(Module):
    """The base of TensorFlow's linear operators: a [batch..., M, N] matrix. A kind gives
    `_shape()` (a TensorShape) and `_matmul(x, adjoint, adjoint_arg)` or `_to_dense()`; the
    rest has dense defaults it may replace."""

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError('A positive definite matrix is always non-singular.')
            is_non_singular = True
        if is_non_singular and is_square is False:
            raise ValueError('A non-singular matrix is always square.')
        if is_self_adjoint and is_square is False:
            raise ValueError('A self-adjoint matrix is always square.')
        super().__init__(name=name or type(self).__name__)
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._is_square_hint = is_square
        self._parameters = dict(parameters or {})
        self._graph_parents = list(graph_parents or [])

    # ---- properties ----------------------------------------------------------------------
    dtype = property(lambda self: self._dtype)
    parameters = property(lambda self: dict(self._parameters))
    graph_parents = property(lambda self: list(self._graph_parents))
    is_non_singular = property(lambda self: self._is_non_singular)
    is_self_adjoint = property(lambda self: self._is_self_adjoint)
    is_positive_definite = property(lambda self: self._is_positive_definite)

    @property
    def is_square(self):
        auto = None
        if self.domain_dimension is not None and self.range_dimension is not None:
            auto = self.domain_dimension == self.range_dimension
        if self._is_square_hint is not None and auto is not None and \
                self._is_square_hint != auto:
            raise ValueError(f'User-defined is_square={self._is_square_hint} disagrees with '
                             f'the shape {self.shape}.')
        return self._is_square_hint if auto is None else auto

    @property
    def shape(self):
        return TensorShape(self._shape())

    def _shape(self):
        return self.to_dense().shape

    def shape_tensor(self, name='shape_tensor'):
        if self.shape.is_fully_defined():
            return convert_to_tensor(np.array(self.shape.as_list(), np.int32))
        return shape_(self.to_dense())

    @property
    def batch_shape(self):
        return self.shape[:-2]

    def batch_shape_tensor(self, name='batch_shape_tensor'):
        return self.shape_tensor()[:-2]

    @property
    def tensor_rank(self):
        return self.shape.rank

    def tensor_rank_tensor(self, name='tensor_rank_tensor'):
        return convert_to_tensor(np.int32(self.tensor_rank))

    @property
    def domain_dimension(self):
        return self.shape.dims[-1] if self.shape.rank else None

    def domain_dimension_tensor(self, name='domain_dimension_tensor'):
        return self.shape_tensor()[-1]

    @property
    def range_dimension(self):
        return self.shape.dims[-2] if self.shape.rank else None

    def range_dimension_tensor(self, name='range_dimension_tensor'):
        return self.shape_tensor()[-2]

    # ---- the operations ----------------------------------------------------------------------
    def to_dense(self, name='to_dense'):
        return self._to_dense()

    def _to_dense(self):
        n = self.domain_dimension
        identity = eye(n, batch_shape=self.batch_shape.as_list(), dtype=self.dtype)
        return self._matmul(identity, False, False)

    def _matmul(self, x, adjoint, adjoint_arg):
        return matmul(self.to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def matmul(self, x, adjoint=False, adjoint_arg=False, name='matmul'):
        """This operator (its adjoint with `adjoint`) times `x` (a tensor or an operator)."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            return LinearOperatorComposition([left, right])
        return self._matmul(self._arg(x), adjoint, adjoint_arg)

    def __matmul__(self, other):
        return self.matmul(other)

    def matvec(self, x, adjoint=False, name='matvec'):
        return squeeze(self.matmul(expand_dims(self._arg(x), -1), adjoint=adjoint), [-1])

    def _check_solvable(self, what):
        if self.is_non_singular is False:
            raise NotImplementedError(f'Exact {what} not implemented for an operator that is '
                                      f'expected to be singular.')
        if self.is_square is False:
            raise NotImplementedError(f'Exact {what} not implemented for an operator that is '
                                      f'expected to not be square.')

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name='solve'):
        """x with this operator (its adjoint) times x equal to `rhs`."""
        self._check_solvable('solve')
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            return LinearOperatorComposition([left.inverse(), right])
        rhs = self._arg(rhs)
        return self._solve(adjoint_of(rhs) if adjoint_arg else rhs, adjoint)

    def _solve(self, rhs, adjoint):
        return solve(self.to_dense(), rhs, adjoint=adjoint)

    def solvevec(self, rhs, adjoint=False, name='solve'):
        return squeeze(self.solve(expand_dims(self._arg(rhs), -1), adjoint=adjoint), [-1])

    def _check_square(self, what):
        if self.is_square is False:
            raise NotImplementedError(f'{what} not implemented for an operator that is '
                                      f'expected to not be square.')

    def determinant(self, name='det'):
        self._check_square('Determinant')
        return self._determinant()

    def _determinant(self):
        return det(self.to_dense())

    def log_abs_determinant(self, name='log_abs_det'):
        self._check_square('Determinant')
        return self._log_abs_determinant()

    def _log_abs_determinant(self):
        return slogdet(self.to_dense())[1]

    def inverse(self, name='inverse'):
        self._check_solvable('inverse')
        return self._inverse()

    def _inverse(self):
        return LinearOperatorInversion(self)

    def adjoint(self, name='adjoint'):
        if self.is_self_adjoint is True:
            return self
        return self._adjoint_operator()

    def _adjoint_operator(self):
        return LinearOperatorAdjoint(self)

    H = property(lambda self: self.adjoint())

    def cholesky(self, name='cholesky'):
        if not (self.is_self_adjoint and self.is_positive_definite):
            raise ValueError('Cholesky decomposition is only defined for an operator that is '
                             'positive definite and self-adjoint.')
        return LinearOperatorLowerTriangular(cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    def diag_part(self, name='diag_part'):
        return self._diag_part()

    def _diag_part(self):
        return diag_part(self.to_dense())

    def trace(self, name='trace'):
        return reduce_sum(self.diag_part(), -1)

    def add_to_tensor(self, x, name='add_to_tensor'):
        return self._arg(x) + self.to_dense()

    def eigvals(self, name='eigvals'):
        if not self.is_self_adjoint:
            raise NotImplementedError('Only self-adjoint matrices are supported.')
        return eigvalsh(self.to_dense())

    def cond(self, name='cond'):
        s = svd(self.to_dense(), compute_uv=False)
        return reduce_max(s, -1) / reduce_min(s, -1)

    def assert_non_singular(self, name='assert_non_singular'):
        return assert_positive(abs_(self.determinant()),
                               message='Singular operator: its determinant is 0.')

    def assert_positive_definite(self, name='assert_positive_definite'):
        return assert_positive(self.eigvals(), message='Operator is not positive definite.')

    def assert_self_adjoint(self, name='assert_self_adjoint'):
        dense = self.to_dense()
        return assert_near(dense, adjoint_of(dense), message='Operator is not self-adjoint.')

    def _arg(self, x):
        x = convert_to_tensor(x)
        if self.dtype is not None and x.dtype != self.dtype:
            raise TypeError(f'Expected argument to have dtype {self.dtype.name}. Found: '
                            f'{x.dtype.name} in tensor {x}.')
        return x

    def __repr__(self):
        return (f'<{type(self).__name__} name={self.name!r} shape={self.shape} '
                f'dtype={getattr(self.dtype, "name", None)}>')


class LinearOperatorLowerTriangular(LinearOperator):
    """The lower triangle of a [batch..., N, N] matrix (the part above the diagonal is not
    read)."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name='LinearOperatorLowerTriangular'):
        if is_square is False:
            raise ValueError('Only square lower triangular operators supported at this time.')
        self._tril = convert_to_tensor(tril)
        super().__init__(self._tril.dtype, None, is_non_singular, is_self_adjoint,
                         is_positive_definite, True, name, {'tril': tril})

    def _shape(self):
        return self._tril.shape

    def _to_dense(self):
        return band_part(self._tril, -1, 0)

    def _matmul(self, x, adjoint, adjoint_arg):
        return matmul(self._to_dense(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _solve(self, rhs, adjoint):
        return triangular_solve(self._tril, rhs, lower=True, adjoint=adjoint)

    def _determinant(self):
        return reduce_prod(diag_part(self._tril), -1)

    def _log_abs_determinant(self):
        return reduce_sum(log(abs_(diag_part(self._tril))), -1)

    def _diag_part(self):
        return diag_part(self._tril)


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) of `operator`."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        self._operator = operator
        pick = [(is_non_singular, operator.is_non_singular),
                (is_self_adjoint, operator.is_self_adjoint),
                (is_positive_definite, operator.is_positive_definite),
                (is_square, operator.is_square)]
        hints = [own if own is not None else theirs for own, theirs in pick]
        super().__init__(operator.dtype, None, *hints, name or operator.name + '_adjoint',
                         {'operator': operator})

    operator = property(lambda self: self._operator)

    def _shape(self):
        s = self._operator.shape
        return s[:-2].concatenate([s.dims[-1], s.dims[-2]])

    def _to_dense(self):
        return adjoint_of(self._operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint):
        return self._operator.solve(rhs, adjoint=not adjoint)

    def _determinant(self):
        return self._operator.determinant()

    def _log_abs_determinant(self):
        return self._operator.log_abs_determinant()

    def _diag_part(self):
        return self._operator.diag_part()

    def _adjoint_operator(self):
        return self._operator


class LinearOperatorInversion(LinearOperator):
    """The inverse of a square, non-singular `operator`: its matmul is the operator's solve."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError('operator and LinearOperatorInversion must be non-singular.')
        if operator.is_square is False or is_square is False:
            raise ValueError('operator and LinearOperatorInversion must be square.')
        self._operator = operator
        pick = [(is_self_adjoint, operator.is_self_adjoint),
                (is_positive_definite, operator.is_positive_definite)]
        hints = [own if own is not None else theirs for own, theirs in pick]
        super().__init__(operator.dtype, None, is_non_singular or operator.is_non_singular,
                         hints[0], hints[1], True, name or operator.name + '_inv',
                         {'operator': operator})

    operator = property(lambda self: self._operator)

    def _shape(self):
        return self._operator.shape

    def _to_dense(self):
        return inv(self._operator.to_dense())

    def _matmul(self, x, adjoint, adjoint_arg):
        return self._operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _solve(self, rhs, adjoint):
        return self._operator.matmul(rhs, adjoint=adjoint)

    def _determinant(self):
        return 1.0 / self._operator.determinant()

    def _log_abs_determinant(self):
        return -self._operator.log_abs_determinant()

    def _inverse(self):
        return self._operator


class LinearOperatorComposition(LinearOperator):
    """The product of `operators` (the last applied first)."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None):
        operators = list(operators)
        if not operators:
            raise ValueError(f'Expected a non-empty list of operators. Found: {operators}')
        dtype = operators[0].dtype
        for op in operators[1:]:
            if op.dtype != dtype:
                raise TypeError(f'Expected all operators to have the same dtype. Found '
                                f'{dtype.name} and {op.dtype.name}.')
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError('The composition of non-singular operators is always '
                                 'non-singular.')
            is_non_singular = True
        self._operators = operators
        super().__init__(dtype, None, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name or '_o_'.join(op.name for op in operators),
                         {'operators': operators})

    operators = property(lambda self: list(self._operators))

    def _shape(self):
        first, last = self._operators[0].shape, self._operators[-1].shape
        batch = TensorShape([])
        for op in self._operators:
            batch = _broadcast_static(batch, op.batch_shape)
        return batch.concatenate([first.dims[-2] if first.rank else None,
                                  last.dims[-1] if last.rank else None])

    def _matmul(self, x, adjoint, adjoint_arg):
        order = self._operators if adjoint else self._operators[::-1]
        out = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            out = op.matmul(out, adjoint=adjoint)
        return out

    def _to_dense(self):
        out = self._operators[-1].to_dense()
        for op in self._operators[-2::-1]:
            out = op.matmul(out)
        return out

    def _solve(self, rhs, adjoint):
        order = self._operators[::-1] if adjoint else self._operators
        out = rhs
        for op in order:
            out = op.solve(out, adjoint=adjoint)
        return out

    def _determinant(self):
        if all(op.is_square for op in self._operators):
            out = self._operators[0].determinant()
            for op in self._operators[1:]:
                out = out * op.determinant()
            return out
        return super()._determinant()

    def _log_abs_determinant(self):
        if all(op.is_square for op in self._operators):
            out = self._operators[0].log_abs_determinant()
            for op in self._operators[1:]:
                out = out + op.log_abs_determinant()
            return out
        return super()._log_abs_determinant()


def _broadcast_static(a, b):
    return broadcast_shape(a, b)


__all__ = ['LinearOperator', 'LinearOperatorAdjoint', 'LinearOperatorComposition',
           'LinearOperatorInversion', 'LinearOperatorLowerTriangular', 'adjoint_of']
