# "Custom training: walkthrough": a linear model trained with SGD inside tf.function.
class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)

    def __call__(self, x):
        return self.w * x + self.b

xs = tf.linspace(-2.0, 2.0, 20)
ys = xs * 3.0 + 2.0
model = Linear()
opt = tf.optimizers.SGD(learning_rate=0.1)

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, [model.w, model.b])
    opt.apply_gradients(zip(grads, [model.w, model.b]))
    return loss

losses = [train_step(xs, ys) for _ in range(30)]
record('first_loss', losses[0])
record('last_loss', losses[-1])
record('w', model.w)
record('b', model.b)
record('count', train_step.experimental_get_tracing_count())
record('n_vars', len(model.trainable_variables))
