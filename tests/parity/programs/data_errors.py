# tf.data: the error types of bad input, eagerly.
D = tf.data.Dataset
raises('slices_scalar', lambda: D.from_tensor_slices(1))
raises('shuffle_zero', lambda: list(D.range(3).shuffle(0)))
raises('padded_rank', lambda: D.range(3).map(lambda x: tf.fill([2], x)).padded_batch(
    2, padded_shapes=[2, 2]))
raises('shard_bad', lambda: D.range(3).shard(2, 5))
raises('generator_shape', lambda: list(D.from_generator(
    lambda: iter([[1, 2, 3]]), output_signature=tf.TensorSpec([2], tf.int32))))
raises('concatenate_types', lambda: D.range(3).concatenate(D.from_tensor_slices([1.0])))
raises('range_step_zero', lambda: D.range(0, 3, 0))
raises('take_while_not_bool', lambda: D.range(3).take_while(lambda x: x))
raises('reduce_state_dtype', lambda: D.range(3).reduce(tf.constant(0.0), lambda s, x: x))
