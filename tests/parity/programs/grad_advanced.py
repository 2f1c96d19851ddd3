# "Advanced automatic differentiation": higher order, jacobians, output_gradients.
x = tf.Variable(1.0)
with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
record('dy_dx', dy_dx)
record('d2y_dx2', d2y_dx2)

x = tf.linspace(-3.0, 3.0, 7)
delta = tf.Variable(0.0)
with tf.GradientTape() as tape:
    y = tf.nn.sigmoid(x + delta)
record('scalar_source_grad', tape.gradient(y, delta))

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
record('jacobian', tape.jacobian(y, x))

x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(x * x, axis=1)
record('output_gradients', tape.gradient(y, x, output_gradients=tf.constant([1.0, 10.0])))

x = tf.Variable([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = tf.nn.softmax(x)
    z = tf.reduce_sum(y * tf.constant([[1.0, 3.0]]))
record('softmax_grad', tape.gradient(z, x))
