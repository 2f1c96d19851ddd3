# "Custom training: walkthrough": a softmax classifier with Adam and sparse cross-entropy.
features = tf.constant([[5.1, 3.5], [4.9, 3.0], [6.2, 3.4], [5.9, 3.0], [7.7, 2.6], [6.3, 2.5]])
labels = tf.constant([0, 0, 1, 1, 2, 2])

class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.constant([[0.1, -0.2, 0.3], [0.0, 0.2, -0.1]]))
        self.b = tf.Variable(tf.zeros([3]))

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b

model = Model()
optimizer = tf.optimizers.Adam(learning_rate=0.01)

def loss(model, x, y):
    logits = model(x)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss_value = loss(model, x, y)
    grads = tape.gradient(loss_value, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss_value

record('loss0', loss(model, features, labels))
for epoch in range(50):
    train_step(features, labels)
record('loss50', loss(model, features, labels))
pred = tf.argmax(model(features), axis=1, output_type=tf.int32)
record('pred_dtype', pred.dtype)
record('accuracy', tf.reduce_mean(tf.cast(tf.equal(pred, labels), tf.float32)))
record('argmax_default_dtype', tf.argmax(model(features), axis=1).dtype)
