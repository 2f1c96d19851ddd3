# "Introduction to graphs": non-strict execution.
def unused_return_eager(x):
    tf.gather(x, [1])
    return x

raises('eager_gather', lambda: unused_return_eager(tf.constant([0.0])))

@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])
    return x

record('graph', unused_return_graph(tf.constant([0.0])))

@tf.function
def used_gather(x):
    return tf.gather(x, [1])

raises('used_gather', lambda: used_gather(tf.constant([0.0])))
