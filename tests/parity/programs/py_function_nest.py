# tf.py_function, tf.numpy_function and tf.nest inside and outside tf.function.
def np_double(x):
    return x * 2

@tf.function
def f(x):
    a = tf.numpy_function(np_double, [x], tf.float32)
    b = tf.py_function(lambda t: t + 1.0, [x], tf.float32)
    return a, b

record('funcs', f(tf.constant([1.0, 2.0])))
record('map_structure', tf.nest.map_structure(lambda t: t * 10, {'a': tf.constant(1), 'b': [tf.constant(2)]}))
record('flatten', tf.nest.flatten({'b': 2, 'a': [1, 3]}))
