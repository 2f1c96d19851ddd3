# AutoGraph limitations: loop variables must keep their shape unless told otherwise.
@tf.function
def grow(n):
    x = tf.constant([1])
    for i in tf.range(n):
        x = tf.concat([x, [i]], axis=0)
    return x

raises('no_invariant', lambda: grow(tf.constant(3)))

@tf.function
def grow_ok(n):
    x = tf.constant([1])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, [i]], axis=0)
    return x

record('with_invariant', grow_ok(tf.constant(3)))

@tf.function
def change_dtype(n):
    x = tf.constant(0)
    for i in tf.range(n):
        x = tf.cast(x, tf.float32)
    return x

raises('dtype_change', lambda: change_dtype(tf.constant(3)))
