# AutoGraph reference: returns inside a tensor if/elif followed by a final return (this project
# converts early returns; TensorFlow 2.21 raises ValueError here).
@tf.function
def classify(x):
    if x > 10:
        return tf.constant(2)
    elif x > 0:
        return tf.constant(1)
    return tf.constant(0)

record('big', classify(tf.constant(11)))
record('small', classify(tf.constant(3)))
record('neg', classify(tf.constant(-3)))
