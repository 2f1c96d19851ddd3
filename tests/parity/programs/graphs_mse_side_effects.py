# "Introduction to graphs": print runs only while tracing; run_functions_eagerly.
y_true = tf.constant([1, 9, 3, 4, 2])
y_pred = tf.constant([2, 1, 3, 8, 0])

@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)

error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
record('mse', error)
tf.config.run_functions_eagerly(True)
error = get_MSE(y_true, y_pred)
error = get_MSE(y_true, y_pred)
record('eager_mode_flag', tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(False)
record('mse_eagerly', error)
record('flag_after', tf.config.functions_run_eagerly())
