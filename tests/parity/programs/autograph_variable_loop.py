# A Variable updated in a tensor loop inside tf.function, reads in program order.
v = tf.Variable(0)
log = tf.Variable(tf.zeros([5], tf.int32))

@tf.function
def count_up(n):
    for i in tf.range(n):
        v.assign_add(i)
        log[i].assign(v.read_value())
    return v.read_value()

record('first', count_up(tf.constant(5)))
record('log', log)
record('second', count_up(tf.constant(2)))
record('v', v)
