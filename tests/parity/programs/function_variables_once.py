# "Better performance with tf.function": create variables only on the first call.
class Count(tf.Module):
    def __init__(self):
        self.count = None

    @tf.function
    def __call__(self):
        if self.count is None:
            self.count = tf.Variable(0)
        return self.count.assign_add(1)

c = Count()
record('first', c())
record('second', c())
record('third', c())

@tf.function
def bad(x):
    v = tf.Variable(1.0)
    return v + x

raises('bad_first', lambda: bad(tf.constant(1.0)))
raises('bad_retrace', lambda: bad(tf.constant([1.0, 2.0])))
