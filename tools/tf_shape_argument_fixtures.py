"""Record what TensorFlow does with shape-like arguments written as lists that mix tensors and
Python ints (`[tf.shape(x)[0], 8]`), tensor axes and sizes, and int64 ones, inside a tf.function
whose input has an unknown and a known batch size: the static shape at trace time, and the value
and dtype of the result. Run with a Python that has tensorflow (never a project dependency):

    /path/to/tf-venv/bin/python tools/tf_shape_argument_fixtures.py

writes tests/runtime/fixtures/tf_shape_arguments.json, which tests/runtime/test_shape_arguments.py
reads (each case's expression is run there with `tf` bound to `runtime`).
"""
import json
import os
import sys

import numpy as np
import tensorflow as tf

# name -> expression in `tf`, `x` (a float32 [batch, 4] input), `b` (tf.shape(x)[0], int32),
# `b64` (b as int64), `i` (an int32 [batch] input counting from 0). Names starting `random`
# draw random numbers: only their shape and dtype are compared.
CASES = {
    'tile': 'tf.tile(x, [b, 1])',
    'space_to_batch_nd': 'tf.space_to_batch_nd(tf.reshape(x, [b, 2, 2, 1]), [2, 2], '
                         '[[0, 0], [0, b - 1]])',
    'tile_int64': 'tf.tile(x, [b64, 2])',
    'pad': 'tf.pad(x, [[0, b], [1, 1]])',
    'pad_value': 'tf.pad(x, [[b, 0], [0, 2]], constant_values=7.0)',
    'pad_reflect': 'tf.pad(x, [[1, b - 2], [2, 1]], mode="REFLECT")',
    'slice': 'tf.slice(x, [0, 0], [b, 2])',
    'slice_begin': 'tf.slice(x, [b - 2, 1], [-1, 2])',
    'split_sizes': 'tf.split(x, [1, b - 1], axis=0)[1]',
    'split_sizes_int64': 'tf.split(x, [b64 - 1, 1], axis=0)[0]',
    'eye': 'tf.eye(b)',
    'eye_columns': 'tf.eye(b, 4)',
    'eye_int64': 'tf.eye(b64, b64 + 1)',
    'expand_dims': 'tf.expand_dims(x, b - 3)',
    'zeros': 'tf.zeros([b, 8])',
    'zeros_plus': 'tf.zeros([b + 1, 8])',
    'zeros_int64': 'tf.zeros([b64, 8])',
    'zeros_shape': 'tf.zeros(tf.shape(x))',
    'zeros_shape_concat': 'tf.zeros(tf.concat([tf.shape(x), [2]], 0))',
    'zeros_shape_slice': 'tf.zeros(tf.shape(x)[1:])',
    'zeros_cast_shape': 'tf.zeros(tf.cast(tf.shape(x), tf.int64))',
    'ones': 'tf.ones([tf.shape(x)[0], 1])',
    'ones_int': 'tf.ones([b, 2], tf.int32)',
    'fill': 'tf.fill([b, 2], 1.5)',
    'fill_int64': 'tf.fill([b64], b64)',
    'reshape': 'tf.reshape(x, [b, 2, 2])',
    'reshape_minus_one': 'tf.reshape(x, [b, -1])',
    'reshape_int64': 'tf.reshape(x, [b64, 2, 2])',
    'broadcast_to': 'tf.broadcast_to(x[0], [b, 4])',
    'broadcast_to_int64': 'tf.broadcast_to(x[:1], [b64, 4])',
    'concat_axis': 'tf.concat([x, x], b - 3)',
    'transpose': 'tf.transpose(x, [b - 2, b - 3])',
    'reverse': 'tf.reverse(x, [b - 3])',
    'reduce_sum': 'tf.reduce_sum(x, b - 3)',
    'reduce_mean': 'tf.reduce_mean(x, [b - 2])',
    'reduce_max': 'tf.reduce_max(x, b64 - 3)',
    'reduce_min': 'tf.reduce_min(x, [b - 2, 0])',
    'reduce_prod': 'tf.reduce_prod(x, b - 3)',
    'reduce_any': 'tf.reduce_any(x > 0, b - 2)',
    'reduce_all': 'tf.reduce_all(x > -3, [b - 3])',
    'reduce_euclidean_norm': 'tf.math.reduce_euclidean_norm(x, b - 2)',
    'cumprod_axis': 'tf.math.cumprod(x, axis=b - 2)',
    'cumulative_logsumexp_axis': 'tf.math.cumulative_logsumexp(x, axis=b - 3)',
    'one_hot': 'tf.one_hot(i, b)',
    'gather_axis': 'tf.gather(x, [0, 1], axis=b - 2)',
    'cumsum_axis': 'tf.math.cumsum(x, axis=b - 3)',
    'band_part': 'tf.linalg.band_part(tf.ones([4, 4]), b - 3, b - 2)',
    'scatter_nd': 'tf.scatter_nd([[0], [1]], [1.0, 2.0], [b + 1])',
    'range': 'tf.range(b)',
    'range_int64': 'tf.range(b64)',
    'strided_slice': 'x[:b - 1, 1:]',
    'roll': 'tf.roll(x, [b - 2], [b - 3])',
    'roll_int64': 'tf.roll(x, b64, b64 - 2)',
    'unravel_index': 'tf.unravel_index(i, [b, 4])',
    'resize': 'tf.image.resize(x[None, :, :, None], [b + 1, 2])',
    'resize_nearest': 'tf.image.resize(x[:, :, None], [b, 3], method="nearest")',
    'resize_bicubic_int64': 'tf.image.resize(x[None, :, :, None], [b64, b64], method="bicubic")',
    'unravel_index_int64': 'tf.unravel_index(tf.cast(i, tf.int64) + 5, [b64, 4])',
    'random_normal': 'tf.random.normal([b, 5])',
    'random_uniform': 'tf.random.uniform([b, 5])',
    'random_uniform_int': 'tf.random.uniform([b, 2], 0, 10, tf.int32)',
    'random_truncated_normal': 'tf.random.truncated_normal([b64, 5])',
    'random_stateless_normal': 'tf.random.stateless_normal([b, 3], seed=[1, 2])',
    'random_stateless_uniform': 'tf.random.stateless_uniform([2, b], seed=[1, 2])',
    'random_stateless_uniform_int': ('tf.random.stateless_uniform([b, 2], seed=[1, 2], minval=0, '
                                     'maxval=5, dtype=tf.int32)'),
    'random_stateless_uniform_full_int': ('tf.random.stateless_uniform([b64], seed=[3, 4], '
                                          'minval=None, maxval=None, dtype=tf.int64)'),
    'random_stateless_truncated_normal': 'tf.random.stateless_truncated_normal([b, 2], [5, 6])',
    'random_gamma': 'tf.random.gamma([b, 2], [1.0, 2.0])',
    'random_poisson': 'tf.random.poisson([b64], 3.0)',
    'random_stateless_gamma': 'tf.random.stateless_gamma([b, 2], [1, 2], alpha=[1.0, 2.0])',
    'random_stateless_poisson': 'tf.random.stateless_poisson([b, 3], [1, 2], lam=2.0)',
    'random_stateless_binomial': ('tf.random.stateless_binomial([b64, 2], [1, 2], counts=5.0, '
                                  'probs=0.5)'),
    'random_stateless_categorical': 'tf.random.stateless_categorical(x, b, [1, 2])',
    'random_stateless_parameterized_truncated_normal': (
        'tf.random.stateless_parameterized_truncated_normal([b, 2], [1, 2])'),
}

SIGNATURES = {'unknown_batch': [None, 4], 'known_batch': [3, 4]}


def run(tf_module, expression, batch_shape):
    """(static shape as a list or None, value, dtype name) of `expression` traced with an input
    of `batch_shape`, then called on a [3, 4] input."""
    static = []

    def body(x, i):
        b = tf_module.shape(x)[0]
        b64 = tf_module.cast(b, tf_module.int64)
        out = eval(expression, {'tf': tf_module, 'x': x, 'i': i, 'b': b, 'b64': b64})
        static.append(out.shape)
        return out

    fn = tf_module.function(body, input_signature=[
        tf_module.TensorSpec(batch_shape, tf_module.float32),
        tf_module.TensorSpec(batch_shape[:1], tf_module.int32)])
    x = tf_module.reshape(tf_module.range(12.0), [3, 4]) - 5.0
    out = fn(x, tf_module.range(3))
    shape = static[0]
    return (None if shape.rank is None else list(shape.as_list()),
            np.asarray(out.numpy()).tolist(), out.dtype.name)


def main(argv):
    fixtures = os.path.join(os.path.dirname(__file__), '..', 'tests', 'runtime', 'fixtures')
    records = {}
    for name, expression in CASES.items():
        record = {'expression': expression}
        for label, shape in SIGNATURES.items():
            static, value, dtype = run(tf, expression, shape)
            record[label] = static
            record['dtype'] = dtype
            if not name.startswith('random'):
                record['value'] = value
            else:
                record['shape'] = list(np.shape(value))
        records[name] = record
    with open(os.path.join(fixtures, 'tf_shape_arguments.json'), 'w') as f:
        json.dump({'tensorflow': tf.__version__, 'cases': records}, f, indent=1,
                  sort_keys=True)
        f.write('\n')
    print(f'{len(records)} cases recorded', file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1:])
