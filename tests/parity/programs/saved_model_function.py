# tf.saved_model with a tuple-returning function as the serving signature.
import tempfile


class M(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def stats(self, x):
        return tf.reduce_mean(x, axis=0), tf.reduce_max(x)

m = M()
path = tempfile.mkdtemp()
tf.saved_model.save(m, path, signatures=m.stats.get_concrete_function())
loaded = tf.saved_model.load(path)
out = loaded.signatures['serving_default'](x=tf.constant([[1.0, 2.0], [3.0, 5.0]]))
record('keys', sorted(out.keys()))
record('out', out)
record('direct', loaded.stats(tf.constant([[1.0, 2.0]])))
