# AutoGraph reference: control flow on Python values stays Python (unrolled).
@tf.function
def f(x, n):
    if n > 2:
        x = x * 10
    for _ in range(n):
        x = x + 1
    return x

record('a', f(tf.constant(1), 3))
record('b', f(tf.constant(1), 1))
c = f.get_concrete_function(tf.constant(1), 3)
types = {op.type for op in c.graph.get_operations()}
record('no_control_flow', not any(t in types for t in ('If', 'StatelessIf', 'While', 'StatelessWhile')))
record('count', f.experimental_get_tracing_count())
