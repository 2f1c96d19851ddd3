# tf.data: buffer shuffles, seeded and reshuffled per epoch (properties, not TF's exact order).
D = tf.data.Dataset
s = D.range(100).shuffle(10, seed=1)
first, second = list(s.as_numpy_iterator()), list(s.as_numpy_iterator())
record('is_permutation', sorted(first) == list(range(100)))
record('reshuffled', first != second)
record('same_seed_same_order', first == list(D.range(100).shuffle(10, seed=1).as_numpy_iterator()))
fixed = D.range(100).shuffle(10, seed=3, reshuffle_each_iteration=False)
record('fixed_order', list(fixed.as_numpy_iterator()) == list(fixed.as_numpy_iterator()))
# an element at position k comes from the first k + buffer_size input elements
record('buffer_bound', all(v < k + 10 for k, v in enumerate(first)))
record('buffer_one', list(D.range(5).shuffle(1).as_numpy_iterator()))
epochs = list(D.range(4).shuffle(4, seed=2).repeat(3).as_numpy_iterator())
record('epochs_each_permutation', [sorted(epochs[i:i + 4]) for i in range(0, 12, 4)])
record('shuffle_card', s.cardinality())
record('shuffle_spec', s.element_spec.dtype)
