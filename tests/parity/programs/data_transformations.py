# tf.data: transformations, their element specs and error types (eager).
D = tf.data.Dataset
r = D.range(10)
record('map', list(r.map(lambda x: x * x).as_numpy_iterator()))
record('map_tuple', list(D.from_tensor_slices(([1, 2], [10, 20])).map(
    lambda a, b: (b - a, a * b)).as_numpy_iterator()))
record('map_dict', list(D.from_tensor_slices({'a': [1.0, 2.0]}).map(
    lambda d: {'twice': d['a'] * 2.0, 'a': d['a']}).as_numpy_iterator()))
record('map_cond', list(r.map(lambda x: x if x > 4 else -x).as_numpy_iterator()))
record('filter', list(r.filter(lambda x: x % 3 == 0).as_numpy_iterator()))
record('batch', list(r.batch(4).as_numpy_iterator()))
record('batch_drop', list(r.batch(4, drop_remainder=True).as_numpy_iterator()))
record('batch_shapes', [r.batch(4).element_spec.shape,
                        r.batch(4, drop_remainder=True).element_spec.shape])
record('batch_tuple', list(D.from_tensor_slices(([1, 2, 3], [[1.0], [2.0], [3.0]])).batch(
    2).as_numpy_iterator()))
ragged = D.range(1, 5).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
record('padded', list(ragged.padded_batch(2).as_numpy_iterator()))
record('padded_shape', list(ragged.padded_batch(3, padded_shapes=[5], padding_values=tf.constant(
    -1, tf.int64)).as_numpy_iterator()))
record('padded_spec', ragged.padded_batch(2).element_spec.shape)
record('unbatch', list(r.batch(3).unbatch().as_numpy_iterator()))
record('repeat', list(D.range(3).repeat(2).as_numpy_iterator()))
record('repeat_take', list(D.range(3).repeat().take(7).as_numpy_iterator()))
record('skip_take', list(D.range(3).repeat().skip(4).take(4).as_numpy_iterator()))
record('take_all', list(r.take(-1).as_numpy_iterator()))
record('skip_all', list(r.skip(-1).as_numpy_iterator()))
record('flat_map', list(D.range(4).flat_map(lambda x: D.range(x)).as_numpy_iterator()))
record('interleave', list(D.range(1, 4).interleave(
    lambda x: D.from_tensors(x).repeat(x), cycle_length=2, block_length=1).as_numpy_iterator()))
record('interleave_block', list(D.range(1, 5).interleave(
    lambda x: D.range(x * 10, x * 10 + 3), cycle_length=3, block_length=2
).as_numpy_iterator()))
record('take_while', list(r.take_while(lambda x: x < 4).as_numpy_iterator()))
record('scan', list(r.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)
                           ).as_numpy_iterator()))
record('reduce', r.reduce(tf.constant(0, tf.int64), lambda s, x: s + x))
record('reduce_tuple', r.reduce((tf.constant(0, tf.int64), tf.constant(1, tf.int64)),
                                lambda s, x: (s[0] + x, s[1] * 2)))
c = D.range(3).cache()
record('cache', [list(c.as_numpy_iterator()), list(c.as_numpy_iterator())])
record('prefetch', list(r.prefetch(3).as_numpy_iterator()))
record('prefetch_autotune', list(r.prefetch(tf.data.AUTOTUNE).as_numpy_iterator()))
record('shard', list(r.shard(3, 1).as_numpy_iterator()))
record('apply', list(r.apply(lambda d: d.take(2)).as_numpy_iterator()))
options = tf.data.Options()
options.deterministic = True
record('with_options', list(r.with_options(options).take(2).as_numpy_iterator()))
record('options_kept', r.with_options(options).map(lambda x: x).options().deterministic)
record('parallel_map', list(r.map(lambda x: x + 1, num_parallel_calls=tf.data.AUTOTUNE,
                                  deterministic=True).as_numpy_iterator()))
raises('batch_zero', lambda: r.batch(0))
raises('map_object', lambda: r.map(lambda x: object()))
raises('batch_ragged', lambda: list(ragged.batch(2)))
raises('unbatch_scalar', lambda: r.unbatch())
raises('filter_not_bool', lambda: r.filter(lambda x: x))
