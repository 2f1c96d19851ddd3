# "Better performance with tf.function": Python side effects happen while tracing only.
import sys

external_list = []

@tf.function
def side_effect(x):
    print('Python side effect')
    tf.print('TF side effect', output_stream=sys.stdout)
    external_list.append(x)
    return x + 1

side_effect(tf.constant(1))
side_effect(tf.constant(2))
side_effect(tf.constant(3))
record('list_len', len(external_list))
record('result', side_effect(tf.constant(4)))
