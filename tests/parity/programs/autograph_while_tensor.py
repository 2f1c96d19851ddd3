# AutoGraph reference: while on a tensor condition becomes a While op.
@tf.function
def collatz(n):
    steps = tf.constant(0)
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps

record('27', collatz(tf.constant(27)))
record('1', collatz(tf.constant(1)))
c = collatz.get_concrete_function(tf.constant(5))
types = {op.type for op in c.graph.get_operations()}
record('while', sorted(t for t in types if 'While' in t))
