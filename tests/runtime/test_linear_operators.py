"""`rt.linalg.LinearOperator*` against TensorFlow: shapes, hints, dense matrices, products,
solves, determinants, inverses, adjoints and the gradients of a loss built from them, recorded
by tools/tf_linear_operator_fixtures.py (the same calls run here)."""
import json
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from tools.tf_linear_operator_fixtures import SPECS, evaluate

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_linear_operators.json')
RECORDED = json.load(open(FIXTURE, encoding='utf-8'))
EXACT = ('shape', 'batch_shape', 'range_dimension', 'domain_dimension', 'tensor_rank', 'dtype',
         'is_square', 'is_non_singular', 'is_self_adjoint')


def _array(value):
    if isinstance(value, dict):  # a complex value: TensorFlow's circulant adjoints
        return np.asarray(value['real']) + 1j * np.asarray(value['imag'])
    return np.asarray(value, dtype=np.float64)


@pytest.mark.parametrize('name', sorted(SPECS))
def test_operator_agrees_with_tensorflow(name):
    ours, theirs = evaluate(rt, name), RECORDED[name]
    assert sorted(ours) == sorted(theirs)
    for key in EXACT:
        assert ours[key] == theirs[key], key
    for key in sorted(set(theirs) - set(EXACT) - {'gradients'}):
        np.testing.assert_allclose(_array(ours[key]), _array(theirs[key]), rtol=1e-9,
                                   atol=1e-10, err_msg=f'{name}: {key}')
    assert len(ours['gradients']) == len(theirs['gradients'])
    for i, (a, b) in enumerate(zip(ours['gradients'], theirs['gradients'])):
        np.testing.assert_allclose(_array(a), _array(b), rtol=1e-9, atol=1e-10,
                                   err_msg=f'{name}: gradient {i}')


def test_operators_run_inside_functions():
    matrix = np.array([[4.0, 1.0], [2.0, 3.0]])

    @ag.function
    def run(m, d, rhs):
        op = rt.linalg.LinearOperatorComposition([
            rt.linalg.LinearOperatorFullMatrix(m), rt.linalg.LinearOperatorDiag(d)])
        return op.solve(rhs), op.log_abs_determinant(), op.to_dense()

    solved, logdet, dense = run(rt.constant(matrix), rt.constant(np.array([2.0, -1.0])),
                                rt.constant([[1.0], [2.0]], rt.float64))
    expected = matrix @ np.diag([2.0, -1.0])
    np.testing.assert_allclose(dense.numpy(), expected)
    np.testing.assert_allclose(solved.numpy(), np.linalg.solve(expected, [[1.0], [2.0]]))
    np.testing.assert_allclose(logdet.numpy(), np.log(abs(np.linalg.det(expected))))


def test_operator_algebra_and_hints():
    full = rt.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    diag = rt.linalg.LinearOperatorDiag([2.0, 5.0])
    product = full @ diag
    assert isinstance(product, rt.linalg.LinearOperatorComposition)
    np.testing.assert_allclose(product.to_dense().numpy(), [[2.0, 10.0], [6.0, 20.0]])
    assert diag.is_self_adjoint and diag.adjoint() is diag
    assert isinstance(diag.inverse(), rt.linalg.LinearOperatorDiag)
    identity = rt.linalg.LinearOperatorIdentity(2)
    assert identity.inverse() is identity and identity.is_positive_definite
    with pytest.raises(ValueError):
        rt.linalg.LinearOperatorIdentity(2, is_non_singular=False)
    with pytest.raises(NotImplementedError):
        rt.linalg.LinearOperatorZeros(2).solve([[1.0], [1.0]])
    with pytest.raises(ValueError):
        full.cholesky()
    spd = rt.linalg.LinearOperatorFullMatrix([[4.0, 1.0], [1.0, 3.0]], is_self_adjoint=True,
                                             is_positive_definite=True)
    chol = spd.cholesky()
    np.testing.assert_allclose(chol.matmul(chol.to_dense(), adjoint_arg=True).numpy(),
                               spd.to_dense().numpy(), rtol=1e-6)
    np.testing.assert_allclose(np.sort(spd.eigvals().numpy()),
                               np.linalg.eigvalsh([[4.0, 1.0], [1.0, 3.0]]), rtol=1e-6)


def test_a_subclass_giving_shape_and_matmul_gets_the_rest():
    class Doubling(rt.linalg.LinearOperator):
        """2 I, as a user writes a TensorFlow operator: `_shape` and `_matmul` only."""

        def __init__(self, n):
            self._n = n
            super().__init__(dtype=rt.float64, is_square=True, name='Doubling')

        def _shape(self):
            return rt.TensorShape([self._n, self._n])

        def _matmul(self, x, adjoint=False, adjoint_arg=False):
            return 2.0 * (rt.linalg.matrix_transpose(x) if adjoint_arg else x)

    op = Doubling(3)
    np.testing.assert_allclose(op.to_dense().numpy(), 2 * np.eye(3))
    np.testing.assert_allclose(op.solve(rt.constant(np.ones((3, 1)))).numpy(), 0.5)
    np.testing.assert_allclose(op.determinant().numpy(), 8.0)
    np.testing.assert_allclose(op.inverse().matvec(rt.constant([2.0, 4.0, 6.0],
                                                               rt.float64)).numpy(), [1, 2, 3])
    assert op.shape == [3, 3] and op.domain_dimension == 3 and op.is_square
