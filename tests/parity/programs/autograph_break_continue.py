# AutoGraph reference: break and continue inside tensor loops.
@tf.function
def f(x):
    total = tf.constant(0)
    i = tf.constant(0)
    while i < 100:
        i += 1
        if i % 3 == 0:
            continue
        if total > x:
            break
        total += i
    return total, i

record('a', f(tf.constant(20)))
record('b', f(tf.constant(1000)))

@tf.function
def first_negative(xs):
    idx = tf.constant(-1)
    for i in tf.range(tf.shape(xs)[0]):
        if xs[i] < 0:
            idx = i
            break
    return idx

record('neg', first_negative(tf.constant([3.0, 2.0, -1.0, -5.0])))
record('none', first_negative(tf.constant([3.0, 2.0])))
