# tf.TensorArray in a tf.function loop (the RNN-style accumulation from the tf.function guide).
@tf.function
def squares(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i * i, tf.float32))
    return ta.stack()

record('squares', squares(tf.constant(5)))

batch_size, seq_len, feature_size = 2, 3, 4
def rnn_step(inp, state):
    return inp + state

@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]
    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])

inputs = tf.reshape(tf.range(24, dtype=tf.float32), [batch_size, seq_len, feature_size])
record('rnn', dynamic_rnn(rnn_step, inputs, tf.zeros([batch_size, feature_size])))
