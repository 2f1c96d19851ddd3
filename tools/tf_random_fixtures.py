"""Write tests/runtime/fixtures/tf_random_numbers.json: TensorFlow's random numbers for fixed
seeds (run with a Python that has tensorflow; it is never a project dependency):

    /path/to/tf-venv/bin/python tools/tf_random_fixtures.py

Records, as raw bits, what the stateless ops and `tf.random.Generator` draw for a grid of
seeds, shapes and dtypes, eagerly and in a `tf.function`; tests/runtime/test_random_tf.py
checks that runtime draws the same bits.
"""
import json
import os

import numpy as np

tf = None  # TensorFlow, imported by main(): tests import `bits` from here without it

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, 'tests', 'runtime', 'fixtures', 'tf_random_numbers.json')
SEEDS = [[1, 2], [0, 0], [-1, 7], [123456789, -987654321], [2 ** 31 - 1, 5]]
SHAPES = [[1], [3], [5], [2, 3], [7, 3]]
FLOATS = ['float32', 'float64', 'float16']
INT_RANGES = [('int32', 0, 10), ('int32', -5, 2 ** 31 - 1), ('int32', -2 ** 31, 2 ** 31 - 1),
              ('int64', 0, 10), ('int64', -2 ** 40, 2 ** 62)]
BITS = {'float16': np.uint16, 'float32': np.uint32, 'float64': np.uint64}


def bits(t):
    """A tensor's values as ints: the raw bits of floats, the values of integers."""
    value = t.numpy()
    if value.dtype.kind == 'f':
        value = value.view(BITS[value.dtype.name])
    return [int(v) for v in value.ravel()]


def stateless_cases():
    cases = []
    for seed in SEEDS:
        key, counter = tf.raw_ops.StatelessRandomGetKeyCounter(seed=seed)
        cases.append({'kind': 'key_counter', 'seed': seed, 'key': bits(key),
                      'counter': bits(counter)})
        for shape in SHAPES:
            for dtype in FLOATS:
                for kind in ('uniform', 'normal', 'truncated_normal'):
                    fn = getattr(tf.random, 'stateless_' + kind)
                    cases.append({'kind': kind, 'seed': seed, 'shape': shape, 'dtype': dtype,
                                  'bits': bits(fn(shape, seed=seed, dtype=dtype))})
            for dtype, lo, hi in INT_RANGES:
                out = tf.random.stateless_uniform(shape, seed=seed, minval=lo, maxval=hi,
                                                  dtype=dtype)
                cases.append({'kind': 'uniform_int', 'seed': seed, 'shape': shape,
                              'dtype': dtype, 'minval': lo, 'maxval': hi, 'bits': bits(out)})
            for dtype in ('int32', 'int64'):
                out = tf.random.stateless_uniform(shape, seed=seed, minval=None, maxval=None,
                                                  dtype=dtype)
                cases.append({'kind': 'full_int', 'seed': seed, 'shape': shape, 'dtype': dtype,
                              'bits': bits(out)})
    for dtype in FLOATS:  # one long run of each: many pairs near a rounding boundary
        for kind in ('normal', 'truncated_normal'):
            fn = getattr(tf.random, 'stateless_' + kind)
            cases.append({'kind': kind, 'seed': [5, 6], 'shape': [513], 'dtype': dtype,
                          'bits': bits(fn([513], seed=[5, 6], dtype=dtype))})
    scaled = tf.random.stateless_uniform([5], seed=[3, 4], minval=-1.7, maxval=3.3)
    shifted = tf.random.stateless_normal([5], seed=[3, 4], mean=2.5, stddev=0.3,
                                         dtype='float64')
    cases.append({'kind': 'scaled', 'bits': bits(scaled), 'shifted': bits(shifted)})
    return cases


def generator_sequence(g):
    """The draws a test replays, in order, with the state after each."""
    out = []

    def note(label, t):
        out.append({'label': label, 'bits': bits(t), 'state': bits(g.state)})
    note('uniform', g.uniform([3]))
    note('uniform_range', g.uniform([2, 2], minval=-2.0, maxval=5.0, dtype='float64'))
    note('normal', g.normal([5], dtype='float64'))
    note('normal_half', g.normal([3], mean=1.0, stddev=2.0, dtype='float16'))
    note('truncated_normal', g.truncated_normal([7]))
    note('int32', g.uniform([4], minval=-3, maxval=9, dtype='int32'))
    note('int64', g.uniform([3], minval=0, maxval=2 ** 40, dtype='int64'))
    note('full_int64', g.uniform([2], minval=None, maxval=None, dtype='int64'))
    note('make_seeds', g.make_seeds(2))
    children = g.split(2)
    out.append({'label': 'split', 'bits': [bits(c.state) for c in children],
                'state': bits(g.state)})
    note('child_normal', children[1].normal([3]))
    note('skip', g.skip(5))
    g.reset_from_seed(99)
    note('reset_uniform', g.uniform([2]))
    return out


def generator_cases():
    cases = []
    for seed in [1, 42, 2 ** 70 + 5, -1, [1, 2], [7, 8, 9, 10]]:
        g = tf.random.Generator.from_seed(seed)
        cases.append({'seed': seed, 'state': bits(g.state), 'draws': generator_sequence(g)})
    return cases


def function_case():
    g = tf.random.Generator.from_seed(7)

    @tf.function
    def draw():
        return (g.normal([3]), g.truncated_normal([2]), g.uniform([2], 0, 5, dtype=tf.int64),
                tf.random.stateless_truncated_normal([3], seed=[3, 4]))
    calls = [[bits(t) for t in draw()] for _ in range(2)]
    return {'seed': 7, 'calls': calls, 'state': bits(g.state)}


def seeded_op_sequence():
    """The stateful random ops under tf.random.set_seed and op seeds, eagerly, in order."""
    out = []
    for global_seed in (22, 0, None):
        tf.random.set_seed(global_seed)
        draws = [tf.random.uniform([3]), tf.random.normal([2, 2]),
                 tf.random.uniform([2], seed=5), tf.random.uniform([2], seed=5),
                 tf.random.truncated_normal([5], dtype='float64'),
                 tf.random.uniform([4], 0, 10, dtype='int32'),
                 tf.random.uniform([3], -2.5, 4.0, dtype='float64', seed=9),
                 tf.random.normal([3], mean=1.5, stddev=0.2, seed=9),
                 tf.nn.dropout(tf.ones([8]), rate=0.5, seed=3),
                 tf.random.uniform([2], dtype='float16', seed=1)]
        if global_seed is None:  # only the op-seeded draws are reproducible
            draws = [d for i, d in enumerate(draws) if i in (2, 3, 6, 7, 8, 9)]
        out.append({'global_seed': global_seed, 'draws': [bits(d) for d in draws]})
    return out


def seeded_ops_in_a_function():
    """The same ops traced into a tf.function under set_seed(22): op seeds 0, 1, ... by the
    graph's count, each node's stream continuing from call to call."""
    tf.random.set_seed(22)

    @tf.function
    def draw():
        return (tf.random.uniform([3]), tf.random.normal([2]), tf.random.uniform([2], seed=5),
                tf.random.truncated_normal([2], dtype='float64'),
                tf.random.uniform([3], 0, 100, dtype='int64'),
                tf.nn.dropout(tf.ones([6]), rate=0.5))
    return [[bits(t) for t in draw()] for _ in range(2)]


def shuffles():
    """tf.random.shuffle: op-seeded streams per dtype, rows, a scalar, global-seeded, a
    function called twice."""
    tf.random.set_seed(None)
    out = [bits(tf.random.shuffle(tf.range(9), seed=7)) for _ in range(2)]
    out += [bits(tf.random.shuffle(tf.range(5.), seed=7)) for _ in range(2)]
    out.append(bits(tf.random.shuffle(tf.reshape(tf.range(8), [4, 2]), seed=3)))
    tf.random.set_seed(22)
    out += [bits(tf.random.shuffle(tf.range(10))), bits(tf.random.shuffle(tf.range(1000)))]

    @tf.function
    def draw():
        return tf.random.shuffle(tf.range(6))
    return out + [bits(draw()), bits(draw())]


def main():
    global tf
    import tensorflow  # the optional dependency this tool exists for (never the project's)
    tf = tensorflow
    data = {'tensorflow': tf.__version__, 'stateless': stateless_cases(),
            'generator': generator_cases(), 'function': function_case(),
            'seeded_ops': seeded_op_sequence(), 'seeded_function': seeded_ops_in_a_function(),
            'shuffles': shuffles()}
    with open(OUT, 'w') as f:
        json.dump(data, f, separators=(',', ':'))
    print(f'wrote {OUT}')


if __name__ == '__main__':
    main()
