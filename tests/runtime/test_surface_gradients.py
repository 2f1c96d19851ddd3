"""The gradients declared next to the ops of `rt.math`/`rt.nn`/`rt.linalg` agree
with central finite differences of the op's own kernel, in float64.

Each case runs a small program while a recorder collects the ops it runs (the dispatch tape
hook); the op of the case's type gets random output gradients, and its `gradient` is compared,
input by input, with the numeric derivative of `sum(output_grad * op(inputs))`.
"""
import types

import numpy as np
import pytest
from surface_gradient_cases import CASES, RNG

import runtime as rt
from runtime.core import context
from runtime.ops import checks, conv, elementwise, linalg, nn, scan, special, stats, strings
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, REGISTRY


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
