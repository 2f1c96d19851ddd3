# Tensor indexing: ints, slices, negative steps, ellipsis, newaxis, tensor indices in a graph.
x = tf.reshape(tf.range(24), [2, 3, 4])
record('int', x[1])
record('neg', x[-1, -1])
record('slice', x[:, 1:, :2])
record('step', x[0, ::-1, ::2])
record('ellipsis', x[..., 0])
record('newaxis', x[:, None, 0].shape)
record('scalar', x[1, 2, 3])

@tf.function
def pick(x, i):
    return x[i], x[:, i], x[i:i + 1]

record('graph', pick(tf.constant([[1, 2], [3, 4]]), tf.constant(1)))
raises('out_of_range', lambda: x[5])
