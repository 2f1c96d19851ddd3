"""Gamma, Poisson, binomial, stateless categorical, parameterized truncated normal numbers and
the candidate samplers: TensorFlow's output dtypes and shapes (recorded by
tools/tf_random_more_fixtures.py), TensorFlow's numbers where they are drawn as TensorFlow
draws them (stateless_categorical), the same numbers for the same seeds, and the right
distribution (moments at fixed seeds)."""
import json
import os

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from tools.tf_random_more_fixtures import CALLS, SAME_NUMBERS

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_random_more.json')
RECORDED = json.load(open(FIXTURE, encoding='utf-8'))


def _call(function, kwargs):
    result = getattr(rt.random, function)(**kwargs)
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize('name,function,kwargs', CALLS, ids=[c[0] for c in CALLS])
def test_outputs_have_tensorflows_dtypes_and_shapes(name, function, kwargs):
    rt.random.set_seed(None)
    outputs = _call(function, kwargs)
    recorded = RECORDED[name]
    assert [o.dtype.name for o in outputs] == [r['dtype'] for r in recorded]
    assert [list(o.shape) for o in outputs] == [r['shape'] for r in recorded]
    if name in SAME_NUMBERS:
        np.testing.assert_array_equal(outputs[0].numpy(), recorded[0]['value'])
    if function.endswith('candidate_sampler') and not kwargs['unique']:
        # without `unique`, the expected counts depend on the distribution only
        np.testing.assert_allclose(outputs[1].numpy(), recorded[1]['value'], rtol=1e-6)
        p_sampled = outputs[2].numpy()
        ids = outputs[0].numpy()
        assert ((0 <= ids) & (ids < kwargs.get('range_max', kwargs['num_sampled']))).all()
        assert p_sampled.shape == (kwargs['num_sampled'],)


@pytest.mark.parametrize('function,kwargs', [
    ('stateless_gamma', {'shape': [50], 'alpha': [2.0]}),
    ('stateless_poisson', {'shape': [50], 'lam': 3.0}),
    ('stateless_binomial', {'shape': [50], 'counts': 8.0, 'probs': 0.4}),
    ('stateless_parameterized_truncated_normal', {'shape': [50], 'minvals': -0.5}),
])
def test_stateless_numbers_depend_on_the_seed_only(function, kwargs):
    first = getattr(rt.random, function)(seed=[4, 5], **kwargs).numpy()
    again = getattr(rt.random, function)(seed=[4, 5], **kwargs).numpy()
    other = getattr(rt.random, function)(seed=[4, 6], **kwargs).numpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)


def test_stateful_numbers_repeat_after_the_same_global_seed_and_move_on_within_it():
    rt.random.set_seed(7)
    a1, a2 = rt.random.gamma([6], 1.5, seed=3), rt.random.gamma([6], 1.5, seed=3)
    rt.random.set_seed(7)
    b1 = rt.random.gamma([6], 1.5, seed=3)
    np.testing.assert_array_equal(a1.numpy(), b1.numpy())
    assert not np.array_equal(a1.numpy(), a2.numpy())
    rt.random.set_seed(None)


def _moments(x, axis=0):
    return np.mean(x, axis), np.var(x, axis)


def test_the_distributions_have_their_moments():
    n = 20000
    g = rt.random.stateless_gamma([n, 2], [1, 2], alpha=[0.5, 3.0], beta=[1.0, 2.0],
                                  dtype=rt.float64).numpy()
    mean, var = _moments(g)
    np.testing.assert_allclose(mean, [0.5, 1.5], rtol=0.03)
    np.testing.assert_allclose(var, [0.5, 0.75], rtol=0.06)
    p = rt.random.poisson([n], [2.0, 9.0], seed=5).numpy()
    np.testing.assert_allclose(_moments(p), [[2.0, 9.0], [2.0, 9.0]], rtol=0.05)
    b = rt.random.stateless_binomial([n], [3, 4], counts=10.0, probs=0.3).numpy()
    np.testing.assert_allclose(_moments(b), [3.0, 2.1], rtol=0.05)
    t = rt.random.stateless_parameterized_truncated_normal(
        [n], [5, 6], means=1.0, stddevs=2.0, minvals=0.0, maxvals=3.0).numpy()
    assert t.min() >= 0.0 and t.max() <= 3.0
    # mean of N(1, 2^2) cut to [0, 3]: 1 + 2 (phi(-1/2) - phi(1)) / (Phi(1) - Phi(-1/2))
    np.testing.assert_allclose(t.mean(), 1.4134, atol=0.03)
    far = rt.random.stateless_parameterized_truncated_normal([n], [5, 6], minvals=4.0,
                                                             maxvals=6.0).numpy()
    assert far.min() >= 4.0 and far.max() <= 6.0 and abs(far.mean() - 4.22) < 0.03


def test_unique_candidates_are_distinct_and_counted_over_the_tries():
    out = rt.random.log_uniform_candidate_sampler([[1, 2]], 2, 8, True, 20, seed=4)
    ids = out.sampled_candidates.numpy()
    assert len(set(ids.tolist())) == 8
    p = (np.log(ids + 2.0) - np.log(ids + 1.0)) / np.log(21.0)
    tries = np.log1p(-out.sampled_expected_count.numpy()) / np.log1p(-p)
    np.testing.assert_allclose(tries, tries[0], rtol=1e-4)  # one number of tries for all
    assert tries[0] >= 8
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.random.uniform_candidate_sampler([[1]], 1, 5, True, 3)


def test_they_run_in_functions_and_gamma_differentiates_in_alpha():
    @ag.function
    def draw(alpha):
        with rt.GradientTape() as tape:
            tape.watch(alpha)
            x = rt.random.stateless_gamma([3, 2], [1, 2], alpha=alpha, dtype=rt.float64)
        return x, tape.gradient(x, alpha), rt.random.poisson([2], 3.0, seed=1)

    alpha = rt.constant([0.7, 2.5], rt.float64)
    x, grad, p = draw(alpha)
    assert x.shape == (3, 2) and grad.shape == (2,) and p.shape == (2,)
    eager = rt.random.stateless_gamma([3, 2], [1, 2], alpha=alpha, dtype=rt.float64)
    np.testing.assert_array_equal(x.numpy(), eager.numpy())
    h = 1e-6
    up = rt.random.stateless_gamma([3, 2], [1, 2], alpha=alpha + h, dtype=rt.float64).numpy()
    down = rt.random.stateless_gamma([3, 2], [1, 2], alpha=alpha - h, dtype=rt.float64).numpy()
    np.testing.assert_allclose(grad.numpy(), ((up - down) / (2 * h)).sum(0), rtol=1e-5)
