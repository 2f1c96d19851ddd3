# print while tracing shows symbolic tensors.
@tf.function
def f(x):
    print('Tracing with', x)
    y = x + 1
    print('y is', y)
    print('shape', y.shape, 'dtype', y.dtype)
    return y

f(tf.constant(1))
f(tf.constant([1.0, 2.0]))
record('count', f.experimental_get_tracing_count())
