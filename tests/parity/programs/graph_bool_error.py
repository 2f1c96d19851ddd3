# Using a symbolic tensor as a Python bool without autograph.
@tf.function(autograph=False)
def f(x):
    if x > 0:
        return x
    return -x

raises('no_autograph', lambda: f(tf.constant(1)))
record('ok_with_python_arg', tf.function(lambda x, n: x * n, autograph=False)(tf.constant(2), 3))

@tf.function
def g(x):
    return x.numpy()

raises('numpy_in_graph', lambda: g(tf.constant(1)))
