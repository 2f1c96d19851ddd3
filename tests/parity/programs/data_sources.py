# tf.data: sources, element structures, cardinality and len (eager).
D = tf.data.Dataset
record('slices', list(D.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).as_numpy_iterator()))
record('tuple', list(D.from_tensor_slices(([1, 2, 3], [4.0, 5.0, 6.0])).as_numpy_iterator()))
nested = D.from_tensor_slices({'a': [1, 2], 'b': (np.array([1.5, 2.5]), ['x', 'y'])})
record('dict', list(nested.as_numpy_iterator()))
record('dict_shapes', [s.shape for s in tf.nest.flatten(nested.element_spec)])
record('dict_dtypes', [s.dtype for s in tf.nest.flatten(nested.element_spec)])
record('tensors', list(D.from_tensors(([1, 2, 3], 7)).as_numpy_iterator()))
record('range', list(D.range(5).as_numpy_iterator()))
record('range_args', list(D.range(2, 11, 3).as_numpy_iterator()))
record('range_down', list(D.range(5, 0, -2).as_numpy_iterator()))
record('range_dtype', D.range(3).element_spec.dtype)
record('range_int32', list(D.range(3, output_type=tf.int32).as_numpy_iterator()))


def gen():
    for i in range(4):
        yield i, [i] * 2


g = D.from_generator(gen, output_signature=(tf.TensorSpec([], tf.int32),
                                            tf.TensorSpec([2], tf.int32)))
record('generator', list(g.as_numpy_iterator()))
record('generator_card', g.cardinality())
record('zip', list(D.zip((D.range(3), D.range(10, 20))).as_numpy_iterator()))
record('zip_dict', list(D.zip({'i': D.range(2), 'j': D.range(5, 7)}).as_numpy_iterator()))
record('zip_card', D.zip((D.range(3), D.range(10, 20))).cardinality())
record('concat', list(D.range(3).concatenate(D.range(7, 9)).as_numpy_iterator()))
record('enumerate', list(D.from_tensor_slices([5, 6]).enumerate(3).as_numpy_iterator()))
record('len', len(D.range(10).batch(3)))
record('card_repeat', D.range(4).repeat().cardinality())
record('card_repeat_take', D.range(4).repeat().take(6).cardinality())
record('card_repeat_skip', D.range(4).repeat().skip(6).cardinality())
record('card_filter', D.range(4).filter(lambda x: x > 1).cardinality())
record('card_take_skip', D.range(10).skip(3).take(4).cardinality())
record('card_batch', [D.range(10).batch(3).cardinality(),
                      D.range(10).batch(3, drop_remainder=True).cardinality()])
record('infinite_constant', tf.data.INFINITE_CARDINALITY)
record('unknown_constant', tf.data.UNKNOWN_CARDINALITY)
raises('len_infinite', lambda: len(D.range(3).repeat()))
raises('len_unknown', lambda: len(D.range(3).filter(lambda x: x > 0)))
it = iter(D.range(2))
record('next', [next(it), next(it)])
raises('next_past_end', lambda: next(it))
opt = iter(D.range(1)).get_next_as_optional()
record('optional', [opt.has_value(), opt.get_value()])
empty = iter(D.range(0)).get_next_as_optional()
record('optional_empty', empty.has_value())
raises('slices_mismatch', lambda: D.from_tensor_slices(([1, 2], [1, 2, 3])))
