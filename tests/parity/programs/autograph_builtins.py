# AutoGraph: len, range, int/float/abs on tensors inside tf.function.
@tf.function
def f(x):
    n = len(x)
    total = tf.constant(0.0)
    for i in range(n):
        total += x[i]
    return n, total, abs(-total), float(n)

record('out', f(tf.constant([1.0, 2.0, 3.0])))
