# "Introduction to modules": tf.Module, submodules, variable names.
class Dense(tf.Module):
    def __init__(self, in_features, out_features, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([in_features, out_features]), name='w')
            self.b = tf.Variable(tf.zeros([out_features]), name='b')

    def __call__(self, x):
        y = tf.matmul(x, self.w) + self.b
        return tf.nn.relu(y)

class SequentialModule(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.dense_1 = Dense(in_features=3, out_features=3)
        self.dense_2 = Dense(in_features=3, out_features=2)

    def __call__(self, x):
        x = self.dense_1(x)
        return self.dense_2(x)

my_model = SequentialModule(name="the_model")
record('out', my_model(tf.constant([[2.0, 2.0, 2.0]])))
record('n_submodules', len(my_model.submodules))
record('n_variables', len(my_model.variables))
record('n_trainable', len(my_model.trainable_variables))
d = Dense(2, 2, name='dense')
record('names', sorted(v.name for v in d.variables))
record('module_name', d.name)
print(my_model.name)
