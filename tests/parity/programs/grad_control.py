# "Introduction to gradients": what is watched, None gradients, stop_gradient, second call error.
x0 = tf.Variable(3.0, name='x0')
x1 = tf.Variable(3.0, name='x1', trainable=False)
x2 = tf.Variable(2.0, name='x2') + 1.0
x3 = tf.constant(3.0, name='x3')
with tf.GradientTape() as tape:
    y = (x0 ** 2) + (x1 ** 2) + (x2 ** 2)
grad = tape.gradient(y, [x0, x1, x2, x3])
record('grads', grad)

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
    x_sq = x * x
    with t.stop_recording():
        y_sq = y * y
    z = x_sq + y_sq
record('stop_recording', t.gradient(z, {'x': x, 'y': y}))

x = tf.Variable(2.)
with tf.GradientTape() as tape:
    z = x * 2 + tf.stop_gradient(x * 3)
record('stop_gradient', tape.gradient(z, x))

x = tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
tape.gradient(y, x)
raises('second_call', lambda: tape.gradient(y, x))

x = tf.Variable([2., 2.])
y = tf.Variable(3.)
with tf.GradientTape() as tape:
    z = y ** 2
record('unconnected_zero', tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))

x = tf.Variable(2)
with tf.GradientTape() as tape:
    y = x * 2
record('int_source', tape.gradient(y, x))
