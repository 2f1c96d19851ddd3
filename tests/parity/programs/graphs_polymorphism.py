# "Introduction to graphs": polymorphism, one Function and many graphs.
@tf.function
def my_relu(x):
    return tf.maximum(0., x)

print(my_relu(tf.constant(5.5)))
print(my_relu([1, -1]))
print(my_relu(tf.constant([3., -3.])))
record('count_after_three', my_relu.experimental_get_tracing_count())
print(my_relu(tf.constant(-2.5)))
print(my_relu(tf.constant([-1., 1.])))
record('count_after_five', my_relu.experimental_get_tracing_count())
record('list_result', my_relu([1, -1]))
