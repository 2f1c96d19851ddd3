# "Introduction to modules": tf.function on methods, each instance traces on its own.
class MySequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.scale = tf.Variable(2.0)

    @tf.function
    def __call__(self, x):
        print('tracing', self.name)
        return x * self.scale

a = MySequentialModule(name='a')
b = MySequentialModule(name='b')
record('a', a(tf.constant([1.0, 2.0])))
record('a2', a(tf.constant([3.0, 4.0])))
record('b', b(tf.constant([1.0, 2.0])))
b.scale.assign(5.0)
record('b2', b(tf.constant([1.0, 2.0])))
