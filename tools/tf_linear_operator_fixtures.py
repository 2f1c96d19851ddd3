"""Record what TensorFlow's linear operators (`tf.linalg.LinearOperator*`) give into
tests/runtime/fixtures/tf_linear_operators.json: for each operator of SPECS, its shape
properties and hints, `to_dense`, `matmul` (and its adjoint), `matvec`, `diag_part`, `trace`,
`adjoint().to_dense()`, and for a square non-singular one `solve`, `solvevec`, `determinant`,
`log_abs_determinant` and `inverse().to_dense()`, and the gradient of a loss made of them with
respect to the operator's parameters. Run from the repository root with a Python that has
TensorFlow:

    /path/to/tf-venv/bin/python -m tools.tf_linear_operator_fixtures

`SPECS` and `evaluate` take the library as an argument (numpy only here), so
tests/runtime/test_linear_operators.py runs the same calls with this project.
"""
import json
import os
from typing import Any, Callable

import numpy as np

FIXTURE = os.path.join('tests', 'runtime', 'fixtures', 'tf_linear_operators.json')

_rng = np.random.default_rng(2024)
_M = _rng.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)
_B = _rng.uniform(-1, 1, (2, 3, 3)) + 3 * np.eye(3)
_S = np.fft.fft(np.array([3.0, 1.0, -0.5, 0.25]))  # a circulant with a real kernel
_S2 = np.fft.fft2(np.array([[4.0, 1.0, 0.5], [-1.0, 0.25, 0.0]]))
_S3 = np.fft.fftn(np.array([[[5.0, 1.0], [0.5, -1.0]], [[0.25, 0.5], [1.0, -0.5]]]))


def _lo(lib: Any) -> Any:
    return lib.linalg


# name -> (parameters (float64 arrays, the gradient's sources), build(lib, *parameters))
SPECS: dict[str, tuple[list[np.ndarray], Callable[..., Any]]] = {
    'full_matrix': ([_M], lambda tf, m: _lo(tf).LinearOperatorFullMatrix(m)),
    'full_matrix_batch': ([_B], lambda tf, m: _lo(tf).LinearOperatorFullMatrix(m)),
    'full_matrix_tall': ([_rng.uniform(-1, 1, (4, 3))],
                         lambda tf, m: _lo(tf).LinearOperatorFullMatrix(m)),
    'diag': ([np.array([2.0, -3.0, 0.5])], lambda tf, d: _lo(tf).LinearOperatorDiag(d)),
    'diag_batch': ([np.array([[1.0, 2.0], [3.0, -4.0]])],
                   lambda tf, d: _lo(tf).LinearOperatorDiag(d)),
    'identity': ([], lambda tf: _lo(tf).LinearOperatorIdentity(3, dtype=tf.float64)),
    'identity_batch': ([], lambda tf: _lo(tf).LinearOperatorIdentity(
        2, batch_shape=[2], dtype=tf.float64)),
    'scaled_identity': ([np.array(2.5)],
                        lambda tf, c: _lo(tf).LinearOperatorScaledIdentity(3, c)),
    'zeros': ([], lambda tf: _lo(tf).LinearOperatorZeros(3, dtype=tf.float64)),
    'zeros_rect': ([], lambda tf: _lo(tf).LinearOperatorZeros(
        3, 2, dtype=tf.float64, is_square=False, is_self_adjoint=False)),
    'lower_triangular': ([_M], lambda tf, m: _lo(tf).LinearOperatorLowerTriangular(m)),
    'composition': ([_M, np.array([1.0, 2.0, -1.0])], lambda tf, m, d:
                    _lo(tf).LinearOperatorComposition([_lo(tf).LinearOperatorFullMatrix(m),
                                                       _lo(tf).LinearOperatorDiag(d)])),
    'adjoint': ([_M], lambda tf, m: _lo(tf).LinearOperatorAdjoint(
        _lo(tf).LinearOperatorFullMatrix(m))),
    'inversion': ([_M], lambda tf, m: _lo(tf).LinearOperatorInversion(
        _lo(tf).LinearOperatorFullMatrix(m))),
    'block_diag': ([_M[:2, :2], np.array([4.0])], lambda tf, m, d:
                   _lo(tf).LinearOperatorBlockDiag([_lo(tf).LinearOperatorFullMatrix(m),
                                                    _lo(tf).LinearOperatorDiag(d)])),
    'block_lower_triangular': ([_M[:2, :2], _M[2:, :2], np.array([[5.0]])], lambda tf, a, b, c:
                               _lo(tf).LinearOperatorBlockLowerTriangular([
                                   [_lo(tf).LinearOperatorFullMatrix(a)],
                                   [_lo(tf).LinearOperatorFullMatrix(b),
                                    _lo(tf).LinearOperatorFullMatrix(c)]])),
    'kronecker': ([_M[:2, :2], np.array([2.0, -1.0])], lambda tf, m, d:
                  _lo(tf).LinearOperatorKronecker([_lo(tf).LinearOperatorFullMatrix(m),
                                                   _lo(tf).LinearOperatorDiag(d)])),
    'low_rank_update': ([np.array([1.0, 2.0, 3.0]), _rng.uniform(-1, 1, (3, 1)),
                         np.array([0.5])], lambda tf, d, u, s:
                        _lo(tf).LinearOperatorLowRankUpdate(_lo(tf).LinearOperatorDiag(d), u,
                                                            diag_update=s)),
    'low_rank_update_uv': ([_rng.uniform(-1, 1, (3, 2)), _rng.uniform(-1, 1, (3, 2))],
                           lambda tf, u, v: _lo(tf).LinearOperatorLowRankUpdate(
                               _lo(tf).LinearOperatorIdentity(3, dtype=tf.float64), u, v=v)),
    'circulant': ([], lambda tf: _lo(tf).LinearOperatorCirculant(
        _S, input_output_dtype=tf.float64)),
    'circulant_2d': ([], lambda tf: _lo(tf).LinearOperatorCirculant2D(
        _S2, input_output_dtype=tf.float64)),
    'circulant_3d': ([], lambda tf: _lo(tf).LinearOperatorCirculant3D(
        _S3, input_output_dtype=tf.float64)),
    'householder': ([np.array([1.0, 2.0, -0.5])],
                    lambda tf, v: _lo(tf).LinearOperatorHouseholder(v)),
    'permutation': ([], lambda tf: _lo(tf).LinearOperatorPermutation([2, 0, 1],
                                                                     dtype=tf.float64)),
    'toeplitz': ([np.array([3.0, 1.0, 0.5]), np.array([9.0, -1.0, 0.25])],
                 lambda tf, c, r: _lo(tf).LinearOperatorToeplitz(c, r)),
    'tridiag': ([np.array([[1.0, 0.5, 0.0], [4.0, 5.0, 6.0], [0.0, -1.0, 2.0]])],
                lambda tf, d: _lo(tf).LinearOperatorTridiag(d)),
    'tridiag_sequence': ([np.array([1.0, 0.5, 0.0]), np.array([4.0, 5.0, 6.0]),
                          np.array([0.0, -1.0, 2.0])], lambda tf, a, b, c:
                         _lo(tf).LinearOperatorTridiag([a, b, c], diagonals_format='sequence')),
}


def _arg(shape: tuple[int, ...], salt: int) -> np.ndarray:
    return np.random.default_rng(salt).uniform(-1, 1, shape)


def _value(x: Any) -> Any:
    x = np.asarray(x)
    if np.iscomplexobj(x):
        return {'real': x.real.tolist(), 'imag': x.imag.tolist()}
    return x.tolist()


def evaluate(tf: Any, name: str) -> dict[str, Any]:
    """Everything recorded about operator `name`, computed with library `tf`."""
    raw, build = SPECS[name]
    params = [tf.constant(p) for p in raw]
    with tf.GradientTape() as tape:
        tape.watch(params)
        op = build(tf, *params)
        batch = [int(d) for d in op.batch_shape]
        rows, cols = int(op.range_dimension), int(op.domain_dimension)
        x = tf.constant(_arg(tuple(batch) + (cols, 2), 1))
        out: dict[str, Any] = {
            'shape': [int(d) for d in op.shape], 'batch_shape': batch,
            'range_dimension': rows, 'domain_dimension': cols, 'tensor_rank': op.tensor_rank,
            'dtype': op.dtype.name, 'is_square': op.is_square,
            'is_non_singular': op.is_non_singular, 'is_self_adjoint': op.is_self_adjoint,
            'to_dense': _value(op.to_dense()), 'matmul': _value(op.matmul(x)),
            'matmul_adjoint': _value(op.matmul(tf.constant(_arg(tuple(batch) + (rows, 2), 2)),
                                               adjoint=True)),
            'matvec': _value(op.matvec(tf.constant(_arg(tuple(batch) + (cols,), 3)))),
            'adjoint': _value(op.adjoint().to_dense()),
        }
        loss = tf.reduce_sum(op.matmul(x) * _arg(tuple(batch) + (rows, 2), 4))
        if rows == cols:
            out['diag_part'] = _value(op.diag_part())
            out['trace'] = _value(op.trace())
        if rows == cols and op.is_non_singular is not False:
            rhs = tf.constant(_arg(tuple(batch) + (rows, 2), 5))
            solved = op.solve(rhs)
            out.update({
                'solve': _value(solved),
                'solvevec': _value(op.solvevec(tf.constant(_arg(tuple(batch) + (rows,), 6)))),
                'determinant': _value(op.determinant()),
                'log_abs_determinant': _value(op.log_abs_determinant()),
                'inverse': _value(op.inverse().to_dense()),
            })
            loss = loss + tf.reduce_sum(solved * _arg(tuple(batch) + (rows, 2), 7)) + \
                tf.reduce_sum(op.log_abs_determinant())
    grads = tape.gradient(loss, params) if params else []
    out['gradients'] = [None if g is None else _value(g) for g in grads]
    return out


def main() -> None:
    import tensorflow as tf  # deferred: optional dependency, only this recorder needs it
    tf.config.set_visible_devices([], 'GPU')
    out = {name: evaluate(tf, name) for name in SPECS}
    with open(FIXTURE, 'w', encoding='utf-8') as f:
        f.write(json.dumps(out, indent=0, sort_keys=True) + '\n')
    print(f'{FIXTURE}: {len(out)} operators')


if __name__ == '__main__':
    main()
