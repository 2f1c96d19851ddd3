"""The gradients declared next to the ops of `rt.math`/`rt.nn`/`rt.linalg` (SPEC §4, §7) agree
with central finite differences of the op's own kernel, in float64.

Each case runs a small program while a recorder collects the ops it runs (the dispatch tape
hook); the op of the case's type gets random output gradients, and its `gradient` is compared,
input by input, with the numeric derivative of `sum(output_grad * op(inputs))`.
"""
import types

import numpy as np
import pytest

import runtime as rt
from runtime import context
from runtime.ops import checks, conv, elementwise, linalg, nn, scan, special, stats, strings
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, REGISTRY

RNG = np.random.default_rng(7)
X = RNG.normal(size=(3, 4))
Y = RNG.normal(size=(3, 4))
POS = RNG.uniform(0.5, 2.0, size=(3, 4))
UNIT = RNG.uniform(-0.8, 0.8, size=(3, 4))
SPD = np.array([[4., 1., 0.5], [1., 3., 1.], [0.5, 1., 2.]])
M = RNG.normal(size=(3, 3)) + 3 * np.eye(3)
IMAGE = RNG.normal(size=(2, 5, 6, 3))
FILTER = RNG.normal(size=(3, 2, 3, 4))
CONV_ATTRS = {'strides': (1, 2, 2, 1), 'padding': 'SAME'}
POOL_ATTRS = {'ksize': (1, 2, 2, 1), 'strides': (1, 2, 2, 1), 'padding': 'SAME'}
LABELS = np.exp(Y) / np.exp(Y).sum(-1, keepdims=True)

CASES = [  # (op type, program, float64 inputs)
    ('Log1p', rt.math.log1p, [POS]), ('Expm1', rt.math.expm1, [X]),
    ('Reciprocal', rt.math.reciprocal, [POS]), ('Rsqrt', rt.math.rsqrt, [POS]),
    ('Tan', rt.math.tan, [UNIT]), ('Asin', rt.math.asin, [UNIT]), ('Acos', rt.math.acos, [UNIT]),
    ('Atan', rt.math.atan, [X]), ('Asinh', rt.math.asinh, [X]),
    ('Acosh', rt.math.acosh, [POS + 1.0]), ('Atanh', rt.math.atanh, [UNIT]),
    ('Softsign', rt.nn.softsign, [X]),
    ('CumulativeLogsumexp', lambda x: rt.math.cumulative_logsumexp(x, axis=1), [X]),
    ('CumulativeLogsumexp',
     lambda x: rt.math.cumulative_logsumexp(x, 0, reverse=True), [X]),
    ('MatrixTriangularSolve', rt.linalg.triangular_solve, [M, X[:, :2].copy()]),
    ('MatrixTriangularSolve',
     lambda a, b: rt.linalg.triangular_solve(a, b, lower=False, adjoint=True),
     [M, X[:, :2].copy()]),
    ('Sinh', rt.math.sinh, [X]), ('Cosh', rt.math.cosh, [X]),
    ('Erf', rt.math.erf, [X]), ('Erfc', rt.math.erfc, [X]), ('Softplus', rt.math.softplus, [X]),
    ('SquaredDifference', rt.math.squared_difference, [X, Y[:1]]),
    ('DivNoNan', rt.math.divide_no_nan, [X, POS[0]]),
    ('Atan2', rt.math.atan2, [X, Y[:1]]), ('Xlogy', rt.math.xlogy, [X, POS]),
    ('Xdivy', rt.math.xdivy, [X[0], POS]), ('MulNoNan', rt.math.multiply_no_nan, [X, Y]),
    ('AddN', lambda a, b: rt.math.add_n([a, b, a]), [X, Y]),
    ('EuclideanNorm', lambda x: rt.math.reduce_euclidean_norm(x, axis=1), [X]),
    ('Cumsum', lambda x: rt.math.cumsum(x, axis=1, exclusive=True), [X]),
    ('Cumprod', lambda x: rt.math.cumprod(x, axis=1, reverse=True), [POS]),
    ('TopKV2', lambda x: rt.math.top_k(x, 2).values, [X]),
    ('SegmentSum', lambda x: rt.math.segment_sum(x, [0, 0, 1]), [X]),
    ('UnsortedSegmentSum', lambda x: rt.math.unsorted_segment_sum(x, [1, 0, 1], 2), [X]),
    ('Relu6', lambda x: rt.nn.relu6(4 * x), [X]), ('Elu', rt.nn.elu, [X]),
    ('Selu', rt.nn.selu, [X]), ('LeakyRelu', lambda x: rt.nn.leaky_relu(x, 0.3), [X]),
    ('Softmax', rt.nn.softmax, [X]), ('LogSoftmax', rt.nn.log_softmax, [X]),
    ('SoftmaxCrossEntropyWithLogits',
     lambda y, x: rt.nn.softmax_cross_entropy_with_logits(labels=y, logits=x), [LABELS, X]),
    ('SparseSoftmaxCrossEntropyWithLogits',
     lambda x: rt.nn.sparse_softmax_cross_entropy_with_logits([0, 3, 1], x), [X]),
    ('L2Loss', rt.nn.l2_loss, [X]), ('BiasAdd', rt.nn.bias_add, [X, Y[0]]),
    ('MatrixInverse', rt.linalg.inv, [M]), ('MatrixDeterminant', rt.linalg.det, [M]),
    ('MatrixSolve', rt.linalg.solve, [M, X[:, :2].copy()]),
    ('Cholesky', rt.linalg.cholesky, [SPD]), ('Qr', lambda a: rt.linalg.qr(a).q, [M]),
    ('Qr', lambda a: rt.linalg.qr(a).r, [M]),
    ('MatrixDiagV3', lambda v: rt.linalg.diag(v, k=1), [X[0]]),
    ('MatrixDiagPartV3', rt.linalg.diag_part, [X]),
    ('MatrixBandPart', lambda a: rt.linalg.band_part(a, 1, 0), [M]),
    ('Einsum', lambda a, b: rt.einsum('ij,kj->ik', a, b), [X, Y]),
    ('Einsum', lambda a, b: rt.einsum('ij,j->i', a, b), [X, Y[0]]),
    ('Einsum', lambda a: rt.einsum('ij->j', a), [X]),
    ('Conv2D', lambda x, w: rt.nn.conv2d(x, w, 2, 'SAME'), [IMAGE, FILTER]),
    ('Conv2D', lambda x, w: rt.nn.conv2d(x, w, 1, 'VALID'), [IMAGE, FILTER]),
    ('Conv2DBackpropInput', lambda w, dy: apply(conv.BACKPROP_INPUT, [
        np.array(IMAGE.shape, np.int32), rt.constant(w), rt.constant(dy)], CONV_ATTRS),
     [FILTER, RNG.normal(size=(2, 3, 3, 4))]),
    ('Conv2DBackpropFilter', lambda x, dy: apply(conv.BACKPROP_FILTER, [
        rt.constant(x), np.array(FILTER.shape, np.int32), rt.constant(dy)], CONV_ATTRS),
     [IMAGE, RNG.normal(size=(2, 3, 3, 4))]),
    ('MaxPool', lambda x: rt.nn.max_pool2d(x, 2, 2, 'SAME'), [IMAGE]),
    ('AvgPool', lambda x: rt.nn.avg_pool2d(x, 3, 2, 'SAME'), [IMAGE]),
    ('MaxPoolGrad', lambda x, g: apply(conv.MAX_POOL_GRAD, [
        rt.constant(x), rt.nn.max_pool2d(x, 2, 2, 'SAME'), rt.constant(g)], POOL_ATTRS),
     [IMAGE, RNG.normal(size=(2, 3, 3, 3))]),
    ('MaxPoolGradGrad', lambda x, g: apply(conv.MAX_POOL_GRAD_GRAD, [
        rt.constant(x), rt.nn.max_pool2d(x, 2, 2, 'SAME'), rt.constant(g)], POOL_ATTRS),
     [IMAGE, RNG.normal(size=IMAGE.shape)]),
    ('AvgPoolGrad', lambda g: apply(conv.AVG_POOL_GRAD, [
        np.array(IMAGE.shape, np.int32), rt.constant(g)], {**POOL_ATTRS, 'ksize': (1, 3, 3, 1)}),
     [RNG.normal(size=(2, 3, 3, 3))]),
    ('Lgamma', rt.math.lgamma, [POS]), ('Digamma', rt.math.digamma, [POS]),
    ('Polygamma', lambda x: rt.math.polygamma(2.0, x), [POS]),
    ('CheckNumerics', lambda x: rt.debugging.check_numerics(x, 'x'), [X]),
]


class Recorder:
    def __init__(self):
        self.records = []

    def record(self, opdef, inputs, attrs, outputs):
        self.records.append((opdef, list(inputs), dict(attrs or {}), outputs))


def _op_view(opdef, inputs, attrs, outputs):
    """What a gradient function sees: `.inputs`, `.outputs`, `.attrs`, `.get_attr`, `.opdef`."""
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    all_attrs = {**opdef.defaults, **attrs}
    return types.SimpleNamespace(inputs=inputs, outputs=outputs, attrs=all_attrs, opdef=opdef,
                                 get_attr=all_attrs.__getitem__)


def _value(t):
    return np.asarray(t.numpy() if isinstance(t, rt.Tensor) else t)


@pytest.mark.parametrize('op_type, program, inputs', CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_finite_differences(op_type, program, inputs):
    recorder = Recorder()
    with context.recording(recorder):
        program(*[rt.constant(a) for a in inputs])
    opdef, op_inputs, attrs, outputs = [r for r in recorder.records if r[0].name == op_type][-1]
    op = _op_view(opdef, op_inputs, attrs, outputs)
    seeds = [RNG.normal(size=np.shape(_value(o))) if o.dtype.is_floating else None
             for o in op.outputs]
    upstream = [rt.constant(s) if s is not None else rt.zeros_like(o)
                for s, o in zip(seeds, op.outputs)]
    grads = opdef.gradient(op, *upstream)
    assert len(grads) == len(op_inputs)

    def objective(values):
        out = apply(opdef, values, attrs)
        out = out if isinstance(out, list) else [out]
        return sum(float(np.sum(s * o.numpy())) for s, o in zip(seeds, out) if s is not None)

    values = [_value(t) for t in op_inputs]
    for i, (v, g) in enumerate(zip(values, grads)):
        if v.dtype.kind != 'f':
            assert g is None
            continue
        if g is None and not isinstance(op_inputs[i], rt.Tensor):
            continue  # a constant operand TensorFlow gives no gradient (polygamma's order)
        numeric = np.zeros(v.shape)
        for index in np.ndindex(v.shape):
            for sign in (1, -1):
                shifted = [w.copy() for w in values]
                shifted[i][index] += sign * 1e-6
                numeric[index] += sign * objective(shifted) / 2e-6
        assert g is not None, f'{op_type}: no gradient for input {i}'
        assert g.shape == v.shape
        np.testing.assert_allclose(g.numpy(), numeric, rtol=1e-5, atol=1e-6,
                                   err_msg=f'{op_type} input {i}')


OUR_MODULES = {m.__name__ for m in (checks, conv, elementwise, linalg, nn, scan, special,
                                    stats, strings)}


def test_every_op_of_these_modules_declares_its_gradient_and_is_checked():
    ours = [opdef for opdef in REGISTRY.values()
            if getattr(opdef.kernel, '__module__', None) in OUR_MODULES or
            opdef.name in {c[0] for c in CASES}]
    checked = {c[0] for c in CASES}
    for opdef in ours:
        assert opdef.gradient is not None, f'{opdef.name} declares no gradient'
        if opdef.gradient is not NO_GRADIENT:
            assert opdef.name in checked, f'{opdef.name} has a gradient but no case'


@pytest.mark.parametrize('shape', [list, lambda dims: [None] * len(dims)],
                         ids=['known shapes', 'unknown dims'])
@pytest.mark.parametrize('op_type, program, inputs', CASES, ids=[c[0] for c in CASES])
def test_gradient_graphs_compute_what_the_eager_gradients_do(op_type, program, inputs, shape):
    """The gradient functions build ordinary graph ops from a graph Operation, and running them
    gives the eager gradient."""
    recorder = Recorder()
    with context.recording(recorder):
        program(*[rt.constant(a) for a in inputs])
    opdef, op_inputs, attrs, outputs = [r for r in recorder.records if r[0].name == op_type][-1]
    op = _op_view(opdef, op_inputs, attrs, outputs)
    seeds = [np.ones(np.shape(_value(o))) if o.dtype.is_floating else np.zeros(
        np.shape(_value(o)), _value(o).dtype) for o in op.outputs]
    eager = opdef.gradient(op, *[rt.constant(s) for s in seeds])

    g = rt.Graph()
    with g.as_default():
        placeholders = [rt.placeholder(rt.as_dtype(np.asarray(_value(t)).dtype),
                                       shape(np.shape(_value(t)))) for t in op_inputs]
        out = apply(opdef, placeholders, attrs)
        node = (out[0] if isinstance(out, list) else out).op
        symbolic = opdef.gradient(node, *[rt.constant(s) for s in seeds])
    feeds = dict(zip(placeholders, [_value(t) for t in op_inputs]))
    for e, s in zip(eager, symbolic):
        assert (e is None) == (s is None)
        if e is not None:
            np.testing.assert_allclose(g.run(s, feeds), e.numpy(), rtol=1e-10, atol=1e-12)
