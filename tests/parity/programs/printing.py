# What print and tf.print show.
import sys

print(tf.constant(5.5))
print(tf.constant([1, 2, 3]))
print(tf.constant([[1, 2], [3, 4]]))
print(tf.constant(True))
print(tf.constant('hi'))
print(tf.constant([b'a', b'bc']))
print(repr(tf.constant([1.0, 0.0])))
v = tf.Variable(1.0)
print(v)
print(tf.Variable([1, 2]))
tf.print(tf.constant([1, 2, 3]), output_stream=sys.stdout)
tf.print('a', 1, tf.constant(2.5), output_stream=sys.stdout)
tf.print(tf.constant(['x', 'y']), output_stream=sys.stdout)
tf.print('sep', 'test', sep='-', end='!\n', output_stream=sys.stdout)
tf.print({'a': tf.constant(1)}, output_stream=sys.stdout)
tf.print(tf.constant([[1.5, 2.0], [3.25, 4.0]]), output_stream=sys.stdout)
