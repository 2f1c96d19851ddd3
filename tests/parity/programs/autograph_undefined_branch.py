# AutoGraph limitations: a variable defined in one branch only.
@tf.function
def f(x):
    if x > 0:
        y = x * 2
    return y

raises('one_branch', lambda: f(tf.constant(1)))

@tf.function
def g(x):
    if x > 0:
        y = tf.constant(1.0)
    else:
        y = tf.constant(1)
    return y

raises('dtype_mismatch', lambda: g(tf.constant(1)))
