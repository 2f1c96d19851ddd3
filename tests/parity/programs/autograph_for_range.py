# AutoGraph reference: for over tf.range, Python range, and a tensor.
@tf.function
def f(n):
    s = tf.constant(0)
    for i in tf.range(n):
        s += i * i
    t = tf.constant(0)
    for i in range(4):
        t += i
    u = tf.constant(0.0)
    for row in tf.constant([[1.0, 2.0], [3.0, 4.0]]):
        u += tf.reduce_sum(row)
    return s, t, u

record('out', f(tf.constant(5)))
record('zero', f(tf.constant(0)))
