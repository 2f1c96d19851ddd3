# AutoGraph reference: nested functions, lambdas and methods are converted too.
def helper(x):
    if x > 0:
        return x * x
    return -x

class Scaler:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        while x < self.k:
            x = x * 2
        return x

s = Scaler(100)

@tf.function
def f(x):
    sq = lambda v: v * v
    return helper(x), s.apply(tf.abs(x) + 1), sq(x)

record('pos', f(tf.constant(3)))
record('neg', f(tf.constant(-3)))
code = tf.autograph.to_code(helper)
record('code_has_if_stmt', 'if_stmt' in code)
