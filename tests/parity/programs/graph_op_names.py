# Graph building: op names, tensor names, placeholders, name scopes.
g = tf.Graph()
with g.as_default():
    x = tf.compat.v1.placeholder(tf.float32, shape=[None, 2], name='x') if hasattr(tf, 'compat') else tf.placeholder(tf.float32, shape=[None, 2], name='x')
    y = x * 2.0
    z = y + 1.0
    w = tf.reduce_sum(z)
    with tf.name_scope('block'):
        u = tf.identity(w)
    z2 = y + 3.0
record('names', [t.name for t in (x, y, z, w, u, z2)])
record('types', [op.type for op in g.get_operations()])
record('shapes', [y.shape, w.shape])
record('inputs', [t.name for t in g.get_operation_by_name('mul').inputs])
