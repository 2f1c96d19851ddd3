# "Better performance with tf.function": input_signature.
@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
    print("Tracing with", x)
    return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

record('a', next_collatz(tf.constant([1, 2])))
record('b', next_collatz(tf.constant([1, 2, 3, 4, 5])))
raises('wrong_dtype', lambda: next_collatz(tf.constant([1.0, 2.0])))
raises('wrong_rank', lambda: next_collatz(tf.constant([[1, 2], [3, 4]])))
record('count', next_collatz.experimental_get_tracing_count())
record('sig_shape', next_collatz.input_signature[0].shape)
