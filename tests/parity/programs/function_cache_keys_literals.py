# "Better performance with tf.function": Python scalars are cache keys by type and value
# (this project makes 1, True and 1.0 three keys; TensorFlow 2.21 lets equal values share a trace).
@tf.function
def f(x):
    print("Tracing!", type(x).__name__)
    return x

f(1); f(True); f(1.0); f(1)
record('count', f.experimental_get_tracing_count())
record('float_result', f(1.0))
