# "Better performance with tf.function": reduce_retracing relaxes shapes.
@tf.function(reduce_retracing=True)
def g(x):
    print('Tracing with', x.shape)
    return x * 2

record('a', g(tf.constant([1, 2, 3])))
record('b', g(tf.constant([1, 2, 3, 4, 5])))
record('c', g(tf.constant([1, 2, 3, 4, 5, 6, 7])))
record('count', g.experimental_get_tracing_count())
