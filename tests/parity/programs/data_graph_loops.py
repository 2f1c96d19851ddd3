# tf.data inside tf.function: loops over datasets and iterators, reduce, next, get_next.
D = tf.data.Dataset
ds = D.range(10)


@tf.function
def loop_sum(n):
    total = tf.constant(0, tf.int64)
    for x in D.range(n):
        if x == 3:
            continue
        if x > 6:
            break
        total += x
    return total


record('loop_sum', loop_sum(tf.constant(10, tf.int64)))
record('loop_sum_short', loop_sum(tf.constant(2, tf.int64)))


@tf.function
def captured_tuple_loop():
    total = tf.constant(0, tf.int64)
    for x, y in D.zip((ds, ds.map(lambda v: v * 10))):
        total += x + y
    return total


record('captured_tuple_loop', captured_tuple_loop())


@tf.function
def iterator_loop(it):
    total = tf.constant(0, tf.int64)
    for x in it:
        total += x
        if total > 5:
            break
    return total, it.get_next()


record('iterator_loop', iterator_loop(iter(ds)))


@tf.function
def batches(xs):
    total = tf.constant(0.0)
    steps = tf.constant(0)
    for x, y in D.from_tensor_slices((xs, xs * 2.0)).batch(3):
        total += tf.reduce_sum(x * y)
        steps += 1
    return total, steps


record('batches', batches(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0])))


@tf.function
def reduce_in_graph(n):
    return D.range(n).map(lambda x: x * 2).reduce(tf.constant(0, tf.int64), lambda s, x: s + x)


record('reduce_in_graph', reduce_in_graph(tf.constant(5, tf.int64)))


@tf.function
def next_in_graph():
    it = iter(D.range(3).map(lambda x: x + 100))
    a = next(it)
    b = it.get_next()
    opt = it.get_next_as_optional()
    return a, b, opt.has_value(), opt.get_value()


record('next_in_graph', next_in_graph())


@tf.function
def past_end():
    it = iter(D.range(1))
    it.get_next()
    return it.get_next()


raises('past_end', past_end)


@tf.function
def takes_dataset(d):
    total = tf.constant(0, tf.int64)
    for x in d:
        total += x
    return total


record('dataset_argument', [takes_dataset(D.range(4)), takes_dataset(D.range(6))])


@tf.function
def undefined_after_loop():
    for x in ds:
        last = x
    return last


raises('undefined_after_loop', undefined_after_loop)


@tf.function
def prints_once():
    return D.range(3).map(lambda x: print('tracing map') or x + 1).reduce(
        tf.constant(0, tf.int64), lambda s, x: s + x)


record('prints_once', [prints_once(), prints_once()])
