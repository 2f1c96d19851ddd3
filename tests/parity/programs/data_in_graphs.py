# tf.data inside tf.function: each transformation's elements, collected in the graph.
D = tf.data.Dataset


def collect(ds):
    """The elements of a dataset of int64 scalars, in order, as one tensor (in the graph)."""
    return ds.reduce(tf.zeros([0], tf.int64), lambda acc, x: tf.concat([acc, [x]], 0))


@tf.function
def transformations(n):
    r = D.range(n)
    return {
        'map_filter': collect(r.map(lambda x: x * x).filter(lambda x: x % 2 == 0)),
        'batch_sum': collect(r.batch(3).map(lambda b: tf.reduce_sum(b))),
        'padded': collect(D.range(1, 4).map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
                          .padded_batch(2).unbatch().map(lambda v: tf.reduce_sum(v))),
        'repeat_skip_take': collect(r.repeat().skip(3).take(8)),
        'flat_map': collect(D.range(4).flat_map(lambda x: D.range(x))),
        'interleave': collect(D.range(1, 4).interleave(lambda x: D.from_tensors(x).repeat(x),
                                                       cycle_length=2)),
        'scan': collect(r.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s))),
        'take_while': collect(r.take_while(lambda x: x < 4)),
        'zip_enumerate': collect(D.zip((r, r.skip(2))).enumerate().map(
            lambda i, p: i * 100 + p[0] * 10 + p[1])),
        'concatenate_shard': collect(r.concatenate(D.range(3)).shard(3, 1)),
        'cardinality': r.batch(4).cardinality(),
    }


record('transformations', transformations(tf.constant(10, tf.int64)))
record('transformations_short', transformations(tf.constant(3, tf.int64)))
