# AutoGraph: accumulating in a tensor loop (TensorArray works, a Python list is unrolled when
# the loop is over a Python range).
@tf.function
def with_tensor_array(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * 10)
    return ta.stack()

record('ta', with_tensor_array(tf.constant(4)))

@tf.function
def with_python_range(x):
    parts = []
    for i in range(3):
        parts.append(x * i)
    return tf.stack(parts)

record('py_list', with_python_range(tf.constant(2)))
