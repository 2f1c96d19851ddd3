# Shape and argument errors users hit: eagerly and while tracing.
raises('concat_rank', lambda: tf.concat([tf.ones([2, 2]), tf.ones([2])], axis=0))
raises('add_broadcast', lambda: tf.ones([2, 3]) + tf.ones([4]))
raises('reshape', lambda: tf.reshape(tf.ones([6]), [4, -1]))
raises('stack', lambda: tf.stack([tf.ones([2]), tf.ones([3])]))
raises('squeeze_axis', lambda: tf.squeeze(tf.ones([2, 3]), axis=0))
raises('transpose_perm', lambda: tf.transpose(tf.ones([2, 3]), [0]))
raises('one_hot_float', lambda: tf.one_hot(tf.constant([0.5]), 3))

@tf.function
def traced_add(x, y):
    return x + y

raises('traced_broadcast', lambda: traced_add(tf.ones([2, 3]), tf.ones([4])))

@tf.function
def traced_matmul(x):
    return tf.matmul(x, tf.ones([3, 2]))

record('ok', traced_matmul(tf.ones([1, 3])))
raises('traced_matmul', lambda: traced_matmul(tf.ones([1, 4])))
raises('variable_in_cond', lambda: tf.Variable([1.0]).assign(tf.ones([2])))
