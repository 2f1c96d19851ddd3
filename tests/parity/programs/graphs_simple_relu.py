# "Introduction to graphs": converting Python control flow.
def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0

tf_simple_relu = tf.function(simple_relu)
print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
record('pos', tf_simple_relu(tf.constant(1)))
record('neg', tf_simple_relu(tf.constant(-1)))
graph = tf_simple_relu.get_concrete_function(tf.constant(1)).graph
types = sorted({op.type for op in graph.get_operations()})
record('if_op', [t for t in types if t in ('If', 'StatelessIf')])
record('has_greater', 'Greater' in types)
record('code_mentions_if_stmt', 'if_stmt' in tf.autograph.to_code(simple_relu))
