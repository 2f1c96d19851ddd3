# tf.function returns keep their structure: dicts, tuples, namedtuples, None, Python numbers.
import collections

Pair = collections.namedtuple('Pair', ['first', 'second'])

@tf.function
def f(x):
    return {'double': x * 2, 'pair': Pair(x, x + 1), 'none': None, 'number': 3, 'nested': [x, (x,)]}

out = f(tf.constant(2))
record('out', out)
record('pair_type', type(out['pair']).__name__)
c = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
record('concrete', c(tf.constant([1.0, 2.0])))
record('output_shape', c.structured_outputs['double'].shape)

@tf.function
def g(args):
    a, b = args['a'], args['b']
    return a + b

record('dict_arg', g({'a': tf.constant(1.0), 'b': tf.constant(2.0)}))
record('dict_arg_count', g.experimental_get_tracing_count())
g({'a': tf.constant(5.0), 'b': tf.constant(6.0)})
record('dict_arg_count2', g.experimental_get_tracing_count())
