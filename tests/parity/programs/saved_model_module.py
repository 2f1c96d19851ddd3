# "Introduction to modules": saving a tf.Module with tf.saved_model and loading it back.
import tempfile


class Adder(tf.Module):
    def __init__(self):
        super().__init__()
        self.total = tf.Variable(10.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def add(self, x):
        self.total.assign_add(tf.reduce_sum(x))
        return {'sum': self.total * 1.0, 'count': tf.size(x)}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def scale(self, k):
        return self.total * k

m = Adder()
record('before', m.add(tf.constant([1.0, 2.0])))
path = tempfile.mkdtemp()
tf.saved_model.save(m, path, signatures={'add': m.add.get_concrete_function(),
                                         'scale': m.scale.get_concrete_function()})
loaded = tf.saved_model.load(path)
record('loaded_total', loaded.total)
record('loaded_add', loaded.add(tf.constant([4.0])))
record('loaded_total_after', loaded.total)
record('sig_keys', sorted(loaded.signatures.keys()))
record('sig_scale', loaded.signatures['scale'](k=tf.constant(2.0)))
raises('bad_dtype', lambda: loaded.add(tf.constant([1, 2])))
