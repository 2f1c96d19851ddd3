# tf.map_fn, tf.scan, tf.foldl.
record('map_square', tf.map_fn(lambda x: x * x, tf.constant([1, 2, 3, 4])))
record('map_rows', tf.map_fn(lambda row: tf.reduce_sum(row), tf.constant([[1.0, 2.0], [3.0, 4.0]])))
record('map_dtype', tf.map_fn(lambda x: tf.cast(x, tf.float32) / 2, tf.constant([1, 2, 3]),
                              fn_output_signature=tf.float32))
record('scan_cumsum', tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4, 5])))
record('scan_init', tf.scan(lambda a, x: a * x, tf.constant([1.0, 2.0, 3.0]), initializer=tf.constant(2.0)))
record('foldl', tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3, 4])))

@tf.function
def in_graph(x):
    return tf.map_fn(lambda v: v + 1.0, x), tf.scan(lambda a, v: a + v, x)

record('in_graph', in_graph(tf.constant([1.0, 2.0, 3.0])))
