# tf.TensorArray eagerly: with clear_after_read=True (the default) a read element is cleared.
ta = tf.TensorArray(tf.int32, size=3)
ta = ta.write(0, 10)
ta = ta.write(1, 20)
ta = ta.write(2, 30)
record('read1', ta.read(1))
record('stack_after_read', ta.stack())
