"""Seeded random numbers are TensorFlow's, bit for bit: the stateless ops and
rt.random.Generator against fixtures recorded with TensorFlow (tools/tf_random_fixtures.py)."""
import json
import os
import sys

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.ops.philox import key_counter_of

FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'tf_random_numbers.json')
sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
from tf_random_fixtures import bits  # noqa: E402 - the fixtures' own encoding of values

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


def _replay(g, draws):
    def check(label, t):
        expected = next(d for d in draws if d['label'] == label)
        assert bits(t) == expected['bits'], label
        assert bits(g.state) == expected['state'], label
    check('uniform', g.uniform([3]))
    check('uniform_range', g.uniform([2, 2], minval=-2.0, maxval=5.0, dtype=rt.float64))
    check('normal', g.normal([5], dtype=rt.float64))
    check('normal_half', g.normal([3], mean=1.0, stddev=2.0, dtype=rt.float16))
    check('truncated_normal', g.truncated_normal([7]))
    check('int32', g.uniform([4], minval=-3, maxval=9, dtype=rt.int32))
    check('int64', g.uniform([3], minval=0, maxval=2 ** 40, dtype=rt.int64))
    check('full_int64', g.uniform([2], minval=None, maxval=None, dtype=rt.int64))
    check('make_seeds', g.make_seeds(2))
    children = g.split(2)
    split = next(d for d in draws if d['label'] == 'split')
    assert [bits(c.state) for c in children] == split['bits']
    assert bits(g.state) == split['state']
    child = next(d for d in draws if d['label'] == 'child_normal')
    assert bits(children[1].normal([3])) == child['bits']
    check('skip', g.skip(5))
    g.reset_from_seed(99)
    check('reset_uniform', g.uniform([2]))


def test_generator_sequences_are_tensorflows():
    for case in DATA['generator']:
        g = rt.random.Generator.from_seed(case['seed'])
        assert bits(g.state) == case['state'], case['seed']
        _replay(g, case['draws'])


def test_generator_and_stateless_ops_in_a_function_draw_tensorflows_numbers():
    case = DATA['function']
    g = rt.random.Generator.from_seed(case['seed'])

    @ag.function
    def draw():
        return (g.normal([3]), g.truncated_normal([2]), g.uniform([2], 0, 5, dtype=rt.int64),
                rt.random.stateless_truncated_normal([3], seed=[3, 4]))
    for expected in case['calls']:
        assert [bits(t) for t in draw()] == expected
    assert bits(g.state) == case['state']
    ops = {op.type for op in draw.get_concrete_function().graph.get_operations()}
    assert {'RngReadAndSkip', 'StatelessRandomNormalV2', 'StatelessTruncatedNormalV2',
            'StatelessRandomUniformIntV2', 'StatelessRandomGetKeyCounter'} <= ops


def test_seeded_stateful_ops_draw_tensorflows_numbers_eagerly():
    for case in DATA['seeded_ops']:
        rt.random.set_seed(case['global_seed'])
        draws = [lambda: rt.random.uniform([3]), lambda: rt.random.normal([2, 2]),
                 lambda: rt.random.uniform([2], seed=5), lambda: rt.random.uniform([2], seed=5),
                 lambda: rt.random.truncated_normal([5], dtype=rt.float64),
                 lambda: rt.random.uniform([4], 0, 10, dtype=rt.int32),
                 lambda: rt.random.uniform([3], -2.5, 4.0, dtype=rt.float64, seed=9),
                 lambda: rt.random.normal([3], mean=1.5, stddev=0.2, seed=9),
                 lambda: rt.nn.dropout(rt.ones([8]), rate=0.5, seed=3),
                 lambda: rt.random.uniform([2], dtype=rt.float16, seed=1)]
        if case['global_seed'] is None:
            draws = [d for i, d in enumerate(draws) if i in (2, 3, 6, 7, 8, 9)]
        assert [bits(draw()) for draw in draws] == case['draws'], case['global_seed']
    rt.random.set_seed(None)


def test_seeded_ops_in_a_function_draw_tensorflows_numbers_call_after_call():
    rt.random.set_seed(22)

    @ag.function
    def draw():
        return (rt.random.uniform([3]), rt.random.normal([2]), rt.random.uniform([2], seed=5),
                rt.random.truncated_normal([2], dtype=rt.float64),
                rt.random.uniform([3], 0, 100, dtype=rt.int64),
                rt.nn.dropout(rt.ones([6]), rate=0.5))
    for expected in DATA['seeded_function']:
        assert [bits(t) for t in draw()] == expected
    rt.random.set_seed(None)


def test_shuffle_is_tensorflows():
    rt.random.set_seed(None)
    got = [bits(rt.random.shuffle(rt.range(9), seed=7)) for _ in range(2)]
    got += [bits(rt.random.shuffle(rt.range(5.), seed=7)) for _ in range(2)]  # its own stream
    got.append(bits(rt.random.shuffle(rt.reshape(rt.range(8), [4, 2]), seed=3)))
    rt.random.set_seed(22)
    got += [bits(rt.random.shuffle(rt.range(10))), bits(rt.random.shuffle(rt.range(1000)))]

    @ag.function
    def draw():
        return rt.random.shuffle(rt.range(6))
    assert got + [bits(draw()), bits(draw())] == DATA['shuffles']
    assert rt.random.shuffle(rt.constant(3), seed=3).numpy() == 3
    rt.random.set_seed(None)


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
