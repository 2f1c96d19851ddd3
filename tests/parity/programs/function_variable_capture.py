# "Better performance with tf.function": variables are captured, Python values baked in.
v = tf.Variable(1.0)
scale = 2.0

@tf.function
def f(x):
    return v * x * scale

record('a', f(tf.constant(3.0)))
v.assign(10.0)
scale = 100.0
record('b', f(tf.constant(3.0)))
record('count', f.experimental_get_tracing_count())

@tf.function
def bump():
    v.assign_add(1.0)
    v.assign_add(1.0)
    return v.read_value()

record('bump', bump())
record('v_after', v)
