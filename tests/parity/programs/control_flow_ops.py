# tf.cond, tf.while_loop, tf.switch_case, eagerly and in graphs.
record('cond_eager', tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2)))
i, s = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (tf.constant(0), tf.constant(0)))
record('while_eager', [i, s])
record('while_max_iter', tf.while_loop(lambda i: i < 100, lambda i: (i + 1,), (tf.constant(0),),
                                       maximum_iterations=7))

@tf.function
def one_var_list():
    # A body returning a bare tensor for a one-element list of loop variables (in a graph;
    # eagerly TensorFlow fails unpacking the tensor, a TypeError by accident).
    return tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])

record('one_var_list', one_var_list())

@tf.function
def f(x):
    a = tf.cond(x > 0, lambda: x * 2, lambda: -x)
    b = tf.switch_case(tf.cast(x, tf.int32) % 3, [lambda: tf.constant(10.0), lambda: tf.constant(20.0),
                                                   lambda: tf.constant(30.0)])
    n, = tf.while_loop(lambda k: k < x, lambda k: (k * 2.0,), (tf.constant(1.0),))
    return a, b, n

record('graph_pos', f(tf.constant(5.0)))
record('graph_neg', f(tf.constant(-4.0)))
types = {op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()}
record('types', sorted(t for t in types if t in ('StatelessIf', 'If', 'StatelessCase', 'Case',
                                                   'StatelessWhile', 'While')))
