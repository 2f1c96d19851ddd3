# "Better performance with tf.function": loops over Python lists unroll at trace time.
@tf.function
def sum_list(values):
    total = tf.constant(0.0)
    for v in values:
        total += v
    return total

record('sum', sum_list([tf.constant(1.0), tf.constant(2.0), tf.constant(3.5)]))
c = sum_list.get_concrete_function([tf.constant(1.0), tf.constant(2.0)])
types = [op.type for op in c.graph.get_operations()]
record('while_in_graph', any(t in ('While', 'StatelessWhile') for t in types))
record('adds', types.count('AddV2'))
