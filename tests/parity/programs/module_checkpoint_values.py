# tf.Module variables, trainable flags, name scopes in a training-style update.
class Scale(tf.Module):
    def __init__(self):
        super().__init__(name='scale')
        with self.name_scope:
            self.w = tf.Variable(2.0, name='w')
            self.steps = tf.Variable(0, trainable=False, name='steps')

    @tf.function
    def update(self, g):
        self.w.assign_sub(0.1 * g)
        self.steps.assign_add(1)
        return self.w * 1.0

m = Scale()
record('u1', m.update(tf.constant(1.0)))
record('u2', m.update(tf.constant(3.0)))
record('steps', m.steps)
record('names', sorted(v.name for v in m.variables))
record('trainable', [v.name for v in m.trainable_variables])
record('count', m.update.experimental_get_tracing_count())
