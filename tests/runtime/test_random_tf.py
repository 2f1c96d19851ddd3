"""Seeded random numbers are TensorFlow's, bit for bit: the stateless ops and
rt.random.Generator against fixtures recorded with TensorFlow (tools/tf_random_fixtures.py)."""
import json
import os
import types

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.ops.philox import key_counter_of
from tools.tf_random_fixtures import PROGRAMS, bits  # the programs that made the fixtures

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_random_numbers.json')

DATA = json.load(open(FIXTURE, encoding='utf-8'))


def _draw(case):
    kind, seed, shape = case['kind'], case['seed'], case['shape']
    if kind == 'uniform_int':
        return rt.random.stateless_uniform(shape, seed=seed, minval=case['minval'],
                                           maxval=case['maxval'], dtype=case['dtype'])
    if kind == 'full_int':
        return rt.random.stateless_uniform(shape, seed=seed, minval=None, maxval=None,
                                           dtype=case['dtype'])
    return getattr(rt.random, 'stateless_' + kind)(shape, seed=seed, dtype=case['dtype'])


STATELESS = [c for c in DATA['stateless'] if c['kind'] not in ('key_counter', 'scaled')]


@pytest.mark.parametrize('kind', ['uniform', 'normal', 'truncated_normal', 'uniform_int',
                                  'full_int'])
def test_stateless_numbers_are_tensorflows(kind):
    cases = [c for c in STATELESS if c['kind'] == kind]
    assert cases
    for case in cases:
        out = _draw(case)
        assert out.shape.as_list() == case['shape'] and out.dtype.name == case['dtype']
        assert bits(out) == case['bits'], (case['seed'], case['shape'], case['dtype'])


def test_seeds_become_tensorflows_key_and_counter():
    for case in [c for c in DATA['stateless'] if c['kind'] == 'key_counter']:
        key, counter = key_counter_of(case['seed'])
        assert np.asarray(key).view(np.uint64).tolist() == case['key']
        assert np.asarray(counter).view(np.uint64).tolist() == case['counter']


def test_minval_maxval_mean_and_stddev_scale_in_the_dtype_as_tensorflow():
    case = [c for c in DATA['stateless'] if c['kind'] == 'scaled'][0]
    scaled = rt.random.stateless_uniform([5], seed=[3, 4], minval=-1.7, maxval=3.3)
    shifted = rt.random.stateless_normal([5], seed=[3, 4], mean=2.5, stddev=0.3,
                                         dtype=rt.float64)
    assert bits(scaled) == case['bits'] and bits(shifted) == case['shifted']


class TensorFlowNames(types.ModuleType):
    """`tf` for the fixture programs: runtime's names, with `tf.function` as ag.function."""

    def __init__(self):
        super().__init__('tf')
        self.function = ag.function

    def __getattr__(self, name):
        return getattr(rt, name)


@pytest.mark.parametrize('name', sorted(PROGRAMS))
def test_the_fixture_programs_draw_tensorflows_numbers(name):
    """Generator sequences (split, make_seeds, skip, reset_from_seed, the state after each
    draw), a Generator and stateless ops in a function, the seeded stateful ops eagerly and
    in a function called twice, shuffle and categorical."""
    try:
        assert PROGRAMS[name](TensorFlowNames()) == DATA[name]
    finally:
        rt.random.set_seed(None)


def test_a_generator_in_a_function_builds_tensorflows_ops():
    g = rt.random.Generator.from_seed(7)

    @ag.function
    def draw():
        return (g.normal([3]), g.uniform([2], 0, 5, dtype=rt.int64),
                rt.random.stateless_truncated_normal([3], seed=[3, 4]))
    ops = {op.type for op in draw.get_concrete_function().graph.get_operations()}
    assert {'RngReadAndSkip', 'StatelessRandomNormalV2', 'StatelessTruncatedNormalV2',
            'StatelessRandomUniformIntV2', 'StatelessRandomGetKeyCounter'} <= ops


# ---- the API around the numbers -------------------------------------------------------------

def test_create_rng_state_cuts_seeds_as_tensorflow():
    def state(seed):
        made = rt.random.create_rng_state(seed, 'philox')
        assert made.dtype is rt.int64 and made.shape == (3,)
        return made.numpy().tolist()
    assert state(1234) == [1234, 0, 0] and state(-1) == [-1, -1, -1]
    assert state(2 ** 70 + 5) == [5, 64, 0]
    assert state([1, 2]) == [0, 1, 2] and state([1, 2, 3, 4]) == [1, 2, 3]


def test_generator_errors_are_tensorflows():
    g = rt.random.Generator.from_seed(5)
    with pytest.raises(ValueError, match='minval and maxval must be both'):
        g.uniform([2], dtype=rt.int32)
    with pytest.raises(TypeError):
        g.normal([2], dtype=rt.int32)
    with pytest.raises(ValueError, match='incompatible'):
        rt.random.Generator.from_state([1, 2], 'philox')
    with pytest.raises(rt.errors.UnimplementedError):
        rt.random.Generator.from_seed(1, alg='threefry')
    with pytest.raises(ValueError, match='unsupported value'):
        rt.random.Generator.from_seed(1, alg='mersenne')
    with pytest.raises(AssertionError):
        rt.random.Generator()
    assert g.state.numpy().tolist() == [5, 0, 0]  # failed draws leave the state alone


def test_stateless_errors_are_tensorflows():
    with pytest.raises(rt.errors.InvalidArgumentError, match='Need minval < maxval'):
        rt.random.stateless_uniform([2], seed=[1, 2], minval=5, maxval=3, dtype=rt.int32)
    with pytest.raises(rt.errors.InvalidArgumentError, match=r'shape \[2\], not \[3\]'):
        rt.random.stateless_uniform([2], seed=[1, 2, 3])
    with pytest.raises(rt.errors.InvalidArgumentError, match='Tseed'):
        rt.random.stateless_uniform([2], seed=[1., 2.])
    with pytest.raises(ValueError, match='must be both None or not None'):
        rt.random.stateless_uniform([2], seed=[1, 2], dtype=rt.int32)
    with pytest.raises(ValueError, match='Accepted dtypes'):
        rt.random.stateless_uniform([2], seed=[1, 2], dtype=rt.bool)
    with pytest.raises(TypeError):
        rt.random.stateless_normal([2], seed=[1, 2], dtype=rt.int32)
    with pytest.raises(rt.errors.InvalidArgumentError, match='Dimension -1 must be >= 0'):
        rt.random.stateless_uniform([-1], seed=[1, 2])


def test_global_generator_can_be_set_and_is_shared():
    first = rt.random.get_global_generator()
    assert first is rt.random.get_global_generator()
    try:
        rt.random.set_global_generator(rt.random.Generator.from_seed(7))
        replay = rt.random.Generator.from_seed(7)
        np.testing.assert_array_equal(rt.random.get_global_generator().normal([2]).numpy(),
                                      replay.normal([2]).numpy())
    finally:
        rt.random.set_global_generator(first)


def test_a_seed_tensor_in_a_function_gives_the_eager_numbers():
    @ag.function
    def draw(seed):
        return rt.random.stateless_normal([4], seed=seed)
    seed = rt.constant([10, 11])
    np.testing.assert_array_equal(draw(seed).numpy(),
                                  rt.random.stateless_normal([4], seed=[10, 11]).numpy())


def test_normals_are_tensorflows_without_the_numpy_form_of_the_c_library(monkeypatch):
    """The fallback (numpy's wider math, the C library called near rounding boundaries) gives
    the same bits as the numpy form of glibc's logf/sinf/cosf."""
    from runtime.ops import philox
    for name in ('log', 'sin', 'cos'):
        monkeypatch.setitem(philox._GLIBC_AGREES, name, False)
    cases = [c for c in STATELESS if c['kind'] in ('normal', 'truncated_normal')]
    for case in cases:
        assert bits(_draw(case)) == case['bits'], (case['seed'], case['shape'])


def test_a_variable_made_from_a_random_draw_in_a_first_trace_is_lifted_out_of_the_graph():
    # TensorFlow's init_scope lifts such an initializer: the function needs no call first
    # (mlp_core's model, built on its first trace, saved before it ever ran)
    made = []

    @ag.function(input_signature=[rt.TensorSpec([None, 3], rt.float32)])
    def layer(x):
        if not made:
            limit = rt.sqrt(6.0) / rt.sqrt(rt.cast(3 + 2, rt.float32))
            made.append(rt.Variable(rt.random.uniform((3, 2), -limit, limit, seed=22)))
        return rt.matmul(x, made[0])
    rt.random.set_seed(5)
    concrete = layer.get_concrete_function()
    lifted = made[0].numpy()
    rt.random.set_seed(5)
    limit = np.sqrt(6.0, dtype=np.float32) / np.sqrt(np.float32(5))
    eager = rt.random.uniform((3, 2), -limit, limit, seed=22).numpy()
    np.testing.assert_allclose(lifted, eager, rtol=1e-6)  # the op's first draw, as eagerly
    assert concrete.initialized_variables == ()
    np.testing.assert_allclose(layer(rt.ones([1, 3])).numpy(), lifted.sum(0, keepdims=True),
                               rtol=1e-6)
