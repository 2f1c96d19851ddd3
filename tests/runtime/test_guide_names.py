"""The names TensorFlow's guides use, eagerly and in
graphs. tests/parity/programs/guide_names.py compares the same names with TensorFlow."""
import os
import re

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph.importer import import_graph_def

ROOT = os.path.join(os.path.dirname(__file__), '..', '..')


def _op_types(fn, *specs):
    graph = ag.function(fn).get_concrete_function(*specs).graph
    return {op.type for op in graph.get_operations()}


def test_version_is_the_projects():
    text = open(os.path.join(ROOT, 'pyproject.toml'), encoding='utf-8').read()
    assert rt.__version__ == re.search(r'^version = "([^"]+)"', text, re.M).group(1)


# ---- rt.linalg --------------------------------------------------------------------------------

def test_decompositions_build_tensorflows_ops_in_graphs():
    m = rt.TensorSpec([3, 3])
    assert 'Svd' in _op_types(lambda x: rt.linalg.svd(x), m)
    assert 'SelfAdjointEigV2' in _op_types(lambda x: rt.linalg.eigh(x), m)
    assert 'LogMatrixDeterminant' in _op_types(lambda x: rt.linalg.slogdet(x), m)
    assert 'MatrixExponential' in _op_types(lambda x: rt.linalg.expm(x), m)
    assert {'Cholesky', 'MatrixTriangularSolve'} <= _op_types(
        lambda x: rt.linalg.lstsq(x, rt.ones([3, 1])), m)
    assert 'MatrixSolveLs' in _op_types(lambda x: rt.linalg.lstsq(x, rt.ones([3, 1]),
                                                                  fast=False), m)
    assert {'Svd', 'SelectV2'} <= _op_types(lambda x: rt.linalg.pinv(x), m)


def test_decompositions_agree_with_numpy_eagerly_and_in_a_function():
    rng = np.random.default_rng(3)
    a = rng.normal(size=(2, 4, 3))
    sym = a[0, :3] @ a[0, :3].T + np.eye(3)

    @ag.function
    def run(a, sym):
        return (rt.linalg.svd(a, compute_uv=False), rt.linalg.eigvalsh(sym),
                rt.linalg.expm(sym * 0.1), rt.linalg.pinv(a), rt.linalg.matrix_rank(a))
    for s, e, ex, pv, rank in [run(rt.constant(a), rt.constant(sym)),
                               run.python_function(rt.constant(a), rt.constant(sym))]:
        np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-10)
        np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(sym), rtol=1e-10)
        w, q = np.linalg.eigh(sym * 0.1)
        np.testing.assert_allclose(ex.numpy(), (q * np.exp(w)) @ q.T, rtol=1e-10)
        np.testing.assert_allclose(pv.numpy(), np.linalg.pinv(a), rtol=1e-8, atol=1e-12)
        assert rank.dtype is rt.int32 and rank.numpy().tolist() == [3, 3]


def test_lstsq_fast_and_exact_agree_and_regularize():
    rng = np.random.default_rng(4)
    a, b = rng.normal(size=(5, 3)), rng.normal(size=(5, 2))
    exact = np.linalg.lstsq(a, b, rcond=None)[0]
    np.testing.assert_allclose(rt.linalg.lstsq(a, b).numpy(), exact, rtol=1e-8)
    np.testing.assert_allclose(rt.linalg.lstsq(a, b, fast=False).numpy(), exact, rtol=1e-8)
    ridge = np.linalg.solve(a.T @ a + 0.3 * np.eye(3), a.T @ b)
    np.testing.assert_allclose(rt.linalg.lstsq(a, b, l2_regularizer=0.3).numpy(), ridge,
                               rtol=1e-8)
    np.testing.assert_allclose(rt.linalg.lstsq(a, b, 0.3, fast=False).numpy(), ridge,
                               rtol=1e-8)


def _finite_difference(f, a, eps=1e-6):
    out = np.zeros_like(a)
    for i in np.ndindex(*a.shape):
        d = np.zeros_like(a)
        d[i] = eps
        out[i] = (f(a + d) - f(a - d)) / (2 * eps)
    return out


@pytest.mark.parametrize('shape', [(4, 3), (3, 5), (3, 3)])
def test_svd_gradient_through_u_s_and_v(shape):
    rng = np.random.default_rng(sum(shape))
    a = rng.normal(size=shape)
    k = min(shape)
    w1, w2, w3 = rng.normal(size=(shape[0], k)), rng.normal(size=(shape[1], k)), rng.normal(
        size=k)

    def loss(x):  # squares: independent of the singular vectors' signs
        u, s, vh = np.linalg.svd(x, full_matrices=False)
        return (u ** 2 * w1).sum() + (vh.T ** 2 * w2).sum() + (s * w3).sum()
    x = rt.Variable(a)
    with rt.GradientTape() as tape:
        s, u, v = rt.linalg.svd(x)
        total = rt.reduce_sum(u ** 2 * w1) + rt.reduce_sum(v ** 2 * w2) + rt.reduce_sum(s * w3)
    np.testing.assert_allclose(tape.gradient(total, x).numpy(), _finite_difference(loss, a),
                               atol=1e-6)


def test_eigh_and_expm_gradients_match_finite_differences_in_a_function():
    rng = np.random.default_rng(5)
    m = rng.normal(size=(4, 4))
    m = m + m.T
    weights = rng.normal(size=(4, 4))

    def eig_loss(x):
        e, v = np.linalg.eigh(np.tril(x) + np.tril(x, -1).T)  # the op reads the lower half
        return (v ** 2 * weights).sum() + (e * np.arange(4)).sum()

    def exp_loss(x):
        return (_expm(x * 0.2) * weights).sum()

    @ag.function
    def grads(x):
        with rt.GradientTape(persistent=True) as tape:
            tape.watch(x)
            e, v = rt.linalg.eigh(x)
            first = rt.reduce_sum(v ** 2 * weights) + rt.reduce_sum(e * np.arange(4.))
            second = rt.reduce_sum(rt.linalg.expm(x * 0.2) * weights)
        return tape.gradient(first, x), tape.gradient(second, x)
    g_eig, g_exp = grads(rt.constant(m))
    np.testing.assert_allclose(g_eig.numpy(), _finite_difference(eig_loss, m), atol=1e-6)
    np.testing.assert_allclose(g_exp.numpy(), _finite_difference(exp_loss, m), atol=1e-6)


def _expm(x):
    total, term = np.eye(len(x)), np.eye(len(x))
    for k in range(1, 40):
        term = term @ x / k
        total = total + term
    return total


def test_linalg_errors():
    with pytest.raises(rt.errors.InvalidArgumentError, match='allowed values'):
        rt.linalg.svd(rt.constant([[1, 2]]))
    with pytest.raises(TypeError, match='allowed values'):
        _op_types(lambda x: rt.linalg.svd(x), rt.TensorSpec([2, 2], rt.int32))
    with pytest.raises(rt.errors.InvalidArgumentError, match='must be square'):
        rt.linalg.eigh(rt.ones([3, 2]))
    with pytest.raises(ValueError, match='must be square'):
        _op_types(lambda x: rt.linalg.slogdet(x), rt.TensorSpec([3, 2]))
    with pytest.raises(ValueError, match='does not support matrices of type int32'):
        rt.linalg.expm(rt.constant([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match='rows'):
        rt.linalg.lstsq(rt.ones([3, 2]), rt.ones([2, 1]))
    x = rt.Variable(np.eye(2))
    with rt.GradientTape() as tape:
        y = rt.linalg.lstsq(x, rt.ones([2, 1], rt.float64), fast=False)
    with pytest.raises(ValueError, match='fast=False'):
        tape.gradient(y, x)


# ---- tensor_scatter_nd_add/sub/min/max ---------------------------------------------------------

def test_tensor_scatters_in_a_function_and_their_gradients():
    @ag.function
    def scatter(t, u):
        at = [[0], [2]]
        return (rt.tensor_scatter_nd_add(t, [[1], [1]], u), rt.tensor_scatter_nd_sub(t, at, u),
                rt.tensor_scatter_nd_min(t, at, u), rt.tensor_scatter_nd_max(t, at, u))
    t, u = rt.constant([1., 2., 3.]), rt.constant([5., -1.])
    add, sub, lo, hi = scatter(t, u)
    assert add.numpy().tolist() == [1., 6., 3.] and sub.numpy().tolist() == [-4., 2., 4.]
    assert lo.numpy().tolist() == [1., 2., -1.] and hi.numpy().tolist() == [5., 2., 3.]
    types = _op_types(scatter, rt.TensorSpec([3]), rt.TensorSpec([2]))
    assert {'TensorScatterAdd', 'TensorScatterSub', 'TensorScatterMin',
            'TensorScatterMax'} <= types
    with rt.GradientTape(persistent=True) as tape:
        tape.watch([t, u])
        a = rt.reduce_sum(rt.tensor_scatter_nd_sub(t, [[0], [2]], u) * [1., 2., 3.])
        b = rt.reduce_sum(rt.tensor_scatter_nd_max(t, [[0], [2]], rt.constant([1., 3.])))
    assert tape.gradient(a, u).numpy().tolist() == [-1., -3.]
    assert tape.gradient(b, t).numpy().tolist() == [0.5, 1., 0.5]  # ties split the gradient


def test_tensor_scatter_errors():
    with pytest.raises(TypeError, match='updates have dtype'):
        rt.tensor_scatter_nd_add(rt.constant([1., 2.]), [[0]], rt.constant([1]))
    with pytest.raises(rt.errors.InvalidArgumentError, match='does not index'):
        rt.tensor_scatter_nd_min(rt.constant([1., 2.]), [[5]], [1.])


# ---- rt.custom_gradient ------------------------------------------------------------------------

@rt.custom_gradient
def _clip_gradients(y):
    def backward(dy):
        return rt.clip_by_norm(dy, 0.5)
    return y, backward


def test_custom_gradient_replaces_the_gradient_eagerly_and_in_a_graph():
    v = rt.Variable(2.0)
    with rt.GradientTape() as tape:
        out = _clip_gradients(v * v)
    assert float(tape.gradient(out, v)) == 2.0  # 4 clipped to 0.5, times dv^2/dv = 4

    @ag.function
    def step():
        with rt.GradientTape() as tape:
            out = _clip_gradients(v * v)
        return tape.gradient(out, v)
    assert float(step()) == 2.0
    graph = step.get_concrete_function().graph
    identity_n = [op for op in graph.get_operations() if op.type == 'IdentityN']
    assert identity_n and repr(identity_n[0].get_attr('_gradient_op_type')).startswith(
        'CustomGradient-')


def test_custom_gradient_with_several_arguments_and_nested_results():
    @rt.custom_gradient
    def pair(x, y):
        def grad(d_sum, d_prod):
            return d_sum + d_prod * 100, d_sum - d_prod
        return (x + y, x * y), grad
    x, y = rt.constant(3.), rt.constant(4.)
    with rt.GradientTape() as tape:
        tape.watch([x, y])
        s, p = pair(x, y)
        total = s + p
    gx, gy = tape.gradient(total, [x, y])
    assert (float(s), float(p)) == (7., 12.) and (float(gx), float(gy)) == (101., 0.)


def test_custom_gradient_errors():
    w = rt.Variable(1.)

    @rt.custom_gradient
    def uses_w(x):
        return x * w, lambda dy: dy

    with pytest.raises(TypeError, match="keyword argument 'variables'"):
        uses_w(rt.constant(1.))

    @rt.custom_gradient
    def not_a_pair(x):
        return x
    with pytest.raises(TypeError, match=r'pair \(result, grad_fn\)'):
        not_a_pair(rt.constant(1.))


# ---- rt.device and rt.config ----------------------------------------------------------------

def test_device_scopes_record_tensorflows_device_names_in_graphs():
    @ag.function
    def placed(x):
        with rt.device('/job:localhost/replica:0/task:0/device:CPU:0'):
            with rt.device('GPU:1'):
                y = x * 2
            z = y + 1
        with rt.device(None):
            w = z - 1
        return w
    graph = placed.get_concrete_function(rt.TensorSpec([])).graph
    device = {op.type: op.device for op in graph.get_operations()}
    assert device['Mul'] == '/job:localhost/replica:0/task:0/device:GPU:1'
    assert device['AddV2'] == '/job:localhost/replica:0/task:0/device:CPU:0'
    assert device['Sub'] == '' and device['Placeholder'] == ''
    text = str(graph.as_graph_def())
    assert 'device: "/job:localhost/replica:0/task:0/device:GPU:1"' in text
    assert float(placed(rt.constant(1.))) == 2.0
    assert rt.constant(1.).device == '/job:localhost/replica:0/task:0/device:CPU:0'
    assert rt.Variable(1.).device == rt.constant(1.).device


def test_device_names_tensorflow_refuses():
    with pytest.raises(ValueError, match="Unknown attribute 'foo'"):
        rt.device('foo')
    with pytest.raises(ValueError, match='Multiple device types'):
        rt.device('/CPU:0/GPU:1')


def test_config_lists_the_cpu_only():
    physical = rt.config.list_physical_devices()
    assert [(d.name, d.device_type) for d in physical] == [('/physical_device:CPU:0', 'CPU')]
    assert repr(physical[0]) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert rt.config.list_physical_devices('GPU') == []
    assert [d.name for d in rt.config.list_logical_devices('cpu')] == ['/device:CPU:0']
    assert rt.config.get_visible_devices('GPU') == []


def test_a_graph_def_keeps_its_devices_through_an_import():
    graph = rt.Graph()
    with graph.as_default():
        with rt.device('/GPU:0'):
            x = rt.constant(2.) * 3.
    again = import_graph_def(graph.as_graph_def())
    assert {op.type: op.device for op in again.get_operations()}['Mul'] == '/device:GPU:0'
    assert x.device == '/device:GPU:0'


def test_an_identity_n_naming_a_gradient_it_does_not_carry_passes_gradients_through():
    from runtime.ops.identity_n import identity_n  # as a GraphDef read back from a file has it
    x = rt.constant([1., 2.])
    with rt.GradientTape() as tape:
        tape.watch(x)
        y, = identity_n([x * 3.], gradient='CustomGradient-7')
    assert tape.gradient(y, x).numpy().tolist() == [3., 3.]
