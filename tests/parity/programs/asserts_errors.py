# tf.debugging asserts and error types, eagerly and in graphs.
raises('assert_equal_eager', lambda: tf.debugging.assert_equal(tf.constant(1), tf.constant(2)))
record('assert_equal_ok', tf.debugging.assert_equal(tf.constant(1), tf.constant(1)))
raises('assert_greater', lambda: tf.debugging.assert_greater(tf.constant([1, 2]), tf.constant([0, 2])))
raises('assert_rank_static', lambda: tf.debugging.assert_rank(tf.constant([1, 2]), 2))
raises('check_numerics', lambda: tf.debugging.check_numerics(tf.constant([1.0, np.nan]), 'bad'))

@tf.function
def checked(x):
    tf.debugging.Assert(tf.reduce_all(x > 0), [x])
    return x * 2

record('assert_ok', checked(tf.constant([1, 2])))
raises('assert_fails', lambda: checked(tf.constant([1, -2])))

raises('gather_oob', lambda: tf.gather(tf.constant([1, 2]), 5))
raises('reshape_bad', lambda: tf.reshape(tf.range(6), [4, 2]))
raises('matmul_bad', lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3])))
raises('is_op_error', lambda: issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError))
