# AutoGraph: enumerate and zip over tensors (this project converts them; TensorFlow 2.21 raises
# OperatorNotAllowedInGraphError "Iterating over a symbolic tf.Tensor").
@tf.function
def f(x):
    weighted = tf.constant(0.0)
    for i, v in enumerate(x):
        weighted += tf.cast(i, tf.float32) * v
    pairs = tf.constant(0.0)
    for a, b in zip(x, x):
        pairs += a * b
    return weighted, pairs

record('out', f(tf.constant([1.0, 2.0, 3.0])))
