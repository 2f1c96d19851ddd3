# "Introduction to gradients": scalars, variables, watch, persistent tapes.
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = x ** 2
record('dy_dx', tape.gradient(y, x))

w = tf.Variable(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), name='w')
b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
xx = tf.constant([[1., 2., 3.]])
with tf.GradientTape(persistent=True) as tape:
    y = xx @ w + b
    loss = tf.reduce_mean(y ** 2)
[dl_dw, dl_db] = tape.gradient(loss, [w, b])
record('dl_dw', dl_dw)
record('dl_db', dl_db)
my_vars = {'w': w, 'b': b}
grad = tape.gradient(loss, my_vars)
record('dict_grad_b', grad['b'])
del tape

x0 = tf.constant(3.0)
with tf.GradientTape() as g:
    g.watch(x0)
    y = x0 * x0
record('watched', g.gradient(y, x0))

x = tf.constant([1, 3.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z = y * y
record('dz_dx', tape.gradient(z, x))
record('dy_dx2', tape.gradient(y, x))
