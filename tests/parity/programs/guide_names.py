# Names TensorFlow's guides use: linalg decompositions, the other tensor scatters,
# custom_gradient, device scopes, the device lists. Sign-free views of singular vectors and
# eigenvectors (their signs are an implementation's choice).
a = tf.constant([[4., 1., 2.], [1., 3., 0.], [2., 0., 5.]])
b = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
s, u, v = tf.linalg.svd(b)
record('svd_s', s)
record('svd_shapes', [u.shape, v.shape, tf.linalg.svd(b, full_matrices=True)[1].shape])
record('svd_abs_u', tf.abs(u))
record('svd_rebuilt', tf.matmul(u * s, v, transpose_b=True))
record('svd_values_only', tf.linalg.svd(tf.reshape(tf.range(24.), [2, 3, 4]), compute_uv=False))
e, vecs = tf.linalg.eigh(a)
record('eigh_e', e)
record('eigh_abs_v', tf.abs(vecs))
record('eigvalsh', tf.linalg.eigvalsh(a))
record('lstsq', tf.linalg.lstsq(b, tf.constant([[1.], [2.], [3.]]), l2_regularizer=0.5))
record('lstsq_wide', tf.linalg.lstsq(tf.constant([[2., 0., 1.], [0., 3., 1.]]),
                                    tf.constant([[1.], [2.]])))
record('pinv', tf.linalg.pinv(b))
record('rank', [tf.linalg.matrix_rank(b), tf.linalg.matrix_rank(tf.ones([3, 3]))])
record('slogdet', tf.linalg.slogdet(a))
record('slogdet_singular', tf.linalg.slogdet(tf.zeros([2, 2])))
record('logdet', tf.linalg.logdet(a))
record('expm', tf.linalg.expm(a * 0.1))
record('expm_f64', tf.linalg.expm(tf.constant([[0., 1.], [-1., 0.]], tf.float64)))
record('triangular_solve', tf.linalg.triangular_solve(a, tf.constant([[1.], [2.], [3.]])))
x = tf.Variable(a * 0.1)
with tf.GradientTape(persistent=True) as t:
    losses = [tf.reduce_sum(tf.linalg.expm(x) * tf.reshape(tf.range(1., 10.), [3, 3])),
              tf.reduce_sum(tf.linalg.svd(x, compute_uv=False)),
              tf.reduce_sum(tf.linalg.eigh(x)[0] ** 2),
              tf.reduce_sum(tf.linalg.lstsq(x, tf.ones([3, 1]))),
              tf.linalg.slogdet(x)[1],
              tf.reduce_sum(tf.linalg.pinv(x))]
record('linalg_grads', [t.gradient(loss, x) for loss in losses])
raises('eigh_not_square', lambda: tf.linalg.eigh(b))
raises('svd_int', lambda: tf.linalg.svd(tf.constant([[1, 2]])))
raises('expm_int', lambda: tf.linalg.expm(tf.constant([[1, 2], [3, 4]])))

t4 = tf.constant([1, 2, 3, 4])
record('scatter_add', tf.tensor_scatter_nd_add(t4, [[1], [1], [3]], [10, 20, 30]))
record('scatter_sub', tf.tensor_scatter_nd_sub(t4, [[0], [2]], [5, 6]))
record('scatter_min', tf.tensor_scatter_nd_min(t4, [[0], [3]], [-1, 9]))
record('scatter_max', tf.tensor_scatter_nd_max(tf.constant([[1., 2.], [3., 4.]]), [[1]], [[0., 9.]]))
y = tf.Variable([1., 5., 3.])
with tf.GradientTape() as t:
    out = tf.tensor_scatter_nd_max(y, [[0], [1]], tf.constant([4., 5.]))
    loss = tf.reduce_sum(out * tf.constant([1., 2., 3.]))
record('scatter_max_grad', t.gradient(loss, y))


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


x0 = tf.constant(100.)
with tf.GradientTape() as t:
    t.watch(x0)
    y0 = log1pexp(x0)
record('custom_gradient_eager', [y0, t.gradient(y0, x0)])


@tf.function
def custom_in_graph(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = log1pexp(x)
    return t.gradient(y, x)


record('custom_gradient_graph', custom_in_graph(tf.constant(100.)))
w = tf.Variable([1., 2.])


@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * w, [dy * x * 10]
    return x * w, grad


xs = tf.constant([3., 4.])
with tf.GradientTape() as t:
    t.watch(xs)
    out = tf.reduce_sum(scaled(xs))
record('custom_gradient_variables', t.gradient(out, [xs, w]))


@tf.custom_gradient
def no_variables_arg(x):
    return x * w, lambda dy: dy


raises('custom_gradient_needs_variables', lambda: no_variables_arg(xs))

with tf.device('/GPU:0'):
    on_gpu = tf.constant(1.) + 1
record('device_eager', [on_gpu, on_gpu.device])


@tf.function
def placed(x):
    with tf.device('/CPU:0'):
        y = x + 1
    with tf.device('gpu:1'):
        z = y * 2
    return z - 1


graph = placed.get_concrete_function(tf.TensorSpec([])).graph
record('device_graph', [(op.type, op.device) for op in graph.get_operations()])
record('device_run', placed(tf.constant(1.)))
raises('device_bad', lambda: tf.device('foo').__enter__())
print(tf.config.list_physical_devices())
print(tf.config.list_physical_devices('GPU'), tf.config.list_logical_devices('CPU'))
record('version_is_str', isinstance(tf.__version__, str))
