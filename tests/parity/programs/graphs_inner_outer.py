# "Introduction to graphs": a tf.function applies to the functions it calls.
def inner_function(x, y, b):
    x = tf.matmul(x, y)
    x = x + b
    return x

@tf.function
def outer_function(x):
    y = tf.constant([[2.0], [3.0]])
    b = tf.constant(4.0)
    return inner_function(x, y, b)

record('out', outer_function(tf.constant([[1.0, 2.0]])))
c = outer_function.get_concrete_function(tf.constant([[1.0, 2.0]]))
types = {op.type for op in c.graph.get_operations()}
record('has_matmul', 'MatMul' in types)
record('has_add', 'AddV2' in types)
