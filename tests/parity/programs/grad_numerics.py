# Gradient pitfalls from Q&A threads: tf.where with NaN, sqrt at 0, norm at 0, clipping.
x = tf.constant([-1.0, 0.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    unsafe = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x))
    safe = tf.where(x > 0, tf.sqrt(tf.where(x > 0, x, tf.ones_like(x))), tf.zeros_like(x))
    n = tf.norm(x * 0.0)
    clipped = tf.clip_by_value(x, -0.5, 2.0)
    relu = tf.nn.relu(x)
record('unsafe', tape.gradient(unsafe, x))
record('safe', tape.gradient(safe, x))
record('norm_at_zero', tape.gradient(n, x))
record('clip', tape.gradient(clipped, x))
record('relu_at_zero', tape.gradient(relu, x))
g = [tf.constant([3.0, 4.0]), tf.constant([12.0])]
clipped, norm = tf.clip_by_global_norm(g, 6.5)
record('global_norm', norm)
record('clipped', clipped)
record('clip_by_norm', tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0))
