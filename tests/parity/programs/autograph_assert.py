# AutoGraph reference: a Python assert on a tensor (this project converts it; TensorFlow 2's
# default tf.function does not).
@tf.function
def with_python_assert(x):
    assert x > 0, 'x must be positive'
    return x

record('py_assert_ok', with_python_assert(tf.constant(3)))
raises('py_assert_fails', lambda: with_python_assert(tf.constant(-3)))
