# "Better performance with tf.function": Python arguments retrace, tensors do not.
@tf.function
def train(num_steps):
    print("Tracing with num_steps = ", num_steps)
    tf.print("Executing with num_steps = ", num_steps, output_stream=sys.stdout)
    for _ in tf.range(num_steps):
        pass

import sys

print("Retracing occurs for different Python arguments.")
train(num_steps=10)
train(num_steps=20)
print()
print("Traces are reused for Tensor arguments.")
train(num_steps=tf.constant(10))
train(num_steps=tf.constant(20))
record('count', train.experimental_get_tracing_count())
