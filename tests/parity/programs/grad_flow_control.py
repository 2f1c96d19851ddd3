# "Introduction to gradients": gradients through Python control flow and tf.function loops.
x = tf.constant(1.0)
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    if x > 0.0:
        result = v0
    else:
        result = v1 ** 2
dv0, dv1 = tape.gradient(result, [v0, v1])
record('dv0', dv0)
record('dv1', dv1)
record('dx', tape.gradient(result, x))

@tf.function
def power_loop(x, n):
    y = tf.constant(1.0)
    for _ in tf.range(n):
        y = y * x
    return y

@tf.function
def grad_power(x, n):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = power_loop(x, n)
    return tape.gradient(y, x)

record('grad_loop', grad_power(tf.constant(3.0), tf.constant(4)))

@tf.function
def grad_cond(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        if x > 0:
            y = x * x * x
        else:
            y = -x
    return tape.gradient(y, x)

record('grad_cond_pos', grad_cond(tf.constant(2.0)))
record('grad_cond_neg', grad_cond(tf.constant(-2.0)))
