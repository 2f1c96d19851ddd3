# AutoGraph reference: and/or/not and conditional expressions on tensors.
@tf.function
def f(x, y):
    a = (x > 0) and (y > 0)
    b = (x > 0) or (y > 0)
    c = not (x > y)
    d = x if x > y else y
    return a, b, c, d

record('pp', f(tf.constant(1), tf.constant(2)))
record('np', f(tf.constant(-1), tf.constant(2)))
record('nn', f(tf.constant(-1), tf.constant(-5)))
