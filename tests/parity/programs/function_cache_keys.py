# "Better performance with tf.function": what makes a new trace.
@tf.function
def f(x):
    print("Tracing!", type(x).__name__)
    return x

f(1); f(2); f(1)
record('python_scalars', f.experimental_get_tracing_count())
f(tf.constant(1)); f(tf.constant(2)); f(tf.constant(1.0)); f(tf.constant([1, 2]))
record('after_tensors', f.experimental_get_tracing_count())
f(np.array([1, 2], dtype=np.int32)); f(np.array([3, 4], dtype=np.int32))
record('after_numpy', f.experimental_get_tracing_count())
f([1, 2]); f((1, 2)); f({'a': 1})
record('after_nests', f.experimental_get_tracing_count())
record('list_out', f([1, 2]))
