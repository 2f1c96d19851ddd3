"""Programs on TensorFlow's names, each a function of `tf`, run with TensorFlow by
tools/tf_surface_fixtures.py (fixtures/tf_surface.json) and here through `autograph_rt` by
test_tf_surface.py: the names `autograph_rt` gained for the ledger, checked value by value."""
import numpy as np

SEGMENTS = ([1., 5., 3., 2.], [0, 0, 2, 2])
M22 = [[1., 2.], [3., 5.]]


def _ema(tf):
    v = tf.Variable([1., 2.])
    ema = tf.train.ExponentialMovingAverage(0.5, num_updates=3)
    ema.apply([v])
    v.assign([3., 4.])
    ema.apply([v])
    return ema.average(v).read_value(), ema.average_name(v)


def _bitwise(tf):
    b = tf.bitwise
    return (b.bitwise_and(6, 3), b.bitwise_or(6, 3), b.bitwise_xor(6, 3), b.left_shift(1, 3),
            b.right_shift(-8, 1), b.invert(tf.constant(5, tf.uint8)))


def _case(tf):
    return tf.case([(tf.constant(False), lambda: tf.constant(1)),
                    (tf.constant(True), lambda: tf.constant(2))], default=lambda: tf.constant(3))


def _grid(tf, n, shape, scale=1.0):
    return tf.reshape(tf.range(float(n)), shape) * scale


CASES = {
    'sequence_mask': lambda tf: tf.sequence_mask([1, 3, 2], 4),
    'unsorted_segment_max': lambda tf: tf.math.unsorted_segment_max(*SEGMENTS, 4),
    'segment_max': lambda tf: tf.math.segment_max(*SEGMENTS),
    'segment_mean': lambda tf: tf.math.segment_mean(*SEGMENTS),
    'unsorted_segment_sqrt_n': lambda tf: tf.math.unsorted_segment_sqrt_n(*SEGMENTS, 3),
    'polyval': lambda tf: tf.math.polyval([1., 2., 3.], tf.constant([2., -1.])),
    'zero_fraction': lambda tf: tf.math.zero_fraction([0, 1, 0, 3]),
    'is_strictly_increasing': lambda tf: tf.math.is_strictly_increasing([1, 2, 2]),
    'saturate_cast': lambda tf: tf.dtypes.saturate_cast(tf.constant([300., -5., 7.]), tf.uint8),
    'xlog1py': lambda tf: tf.math.xlog1py([0., 2.], [1., 3.]),
    'lbeta': lambda tf: tf.math.lbeta([1., 2., 3.]),
    'reciprocal_no_nan': lambda tf: tf.math.reciprocal_no_nan([0., 2.]),
    'roll': lambda tf: tf.roll([[1, 2, 3], [4, 5, 6]], [1, -1], [0, 1]),
    'unique': lambda tf: tf.unique([3, 1, 3, 2, 1]),
    'unique_with_counts': lambda tf: tf.unique_with_counts([3, 1, 3, 2, 1]),
    'unravel_index': lambda tf: tf.unravel_index([5, 7, 0], [3, 4]),
    'searchsorted': lambda tf: tf.searchsorted([[1., 3., 5.]], [[3., 6., 0.]], side='right'),
    'reverse_sequence': lambda tf: tf.reverse_sequence([[1, 2, 3], [4, 5, 6]], [2, 3],
                                                       seq_axis=1, batch_axis=0),
    'rint': lambda tf: tf.math.rint([0.5, 1.5, -2.5, 2.4]),
    'truncatediv': lambda tf: tf.truncatediv([-7, 7], [2, -2]),
    'truncatemod': lambda tf: tf.truncatemod([-7, 7], [2, -2]),
    'invert_permutation': lambda tf: tf.math.invert_permutation([2, 0, 1]),
    'histogram_fixed_width': lambda tf: tf.histogram_fixed_width(
        [0., 0.1, 0.5, 0.9, 2., -1.], [0., 1.], nbins=4),
    'bitwise': _bitwise,
    'random_split': lambda tf: tf.random.split([1, 2], 3),
    'random_fold_in': lambda tf: tf.random.fold_in([7, 9], 4),
    'cross': lambda tf: tf.linalg.cross([[1., 2., 3.]], [[4., 5., 6.]]),
    'set_diag': lambda tf: tf.linalg.set_diag(tf.ones([3, 3]), [1., 2., 3.]),
    'tensor_diag_part': lambda tf: tf.linalg.tensor_diag_part(_grid(tf, 16, [2, 2, 2, 2])),
    'batch_normalization': lambda tf: tf.nn.batch_normalization(tf.constant(M22), 1.5, 2., 0.5,
                                                                3., 1e-3),
    'weighted_ce': lambda tf: tf.nn.weighted_cross_entropy_with_logits([1., 0.], [0.5, -0.5], 2.),
    'log_poisson_full': lambda tf: tf.nn.log_poisson_loss([0.5, 3.], [0.1, 0.2],
                                                          compute_full_loss=True),
    'crelu': lambda tf: tf.nn.crelu([[-1., 2.]]),
    'weighted_moments': lambda tf: tf.nn.weighted_moments(tf.constant(M22), [0],
                                                          tf.constant([[1.], [3.]])),
    'depth_to_space': lambda tf: tf.nn.depth_to_space(_grid(tf, 16, [1, 2, 2, 4]), 2),
    'space_to_depth': lambda tf: tf.nn.space_to_depth(_grid(tf, 16, [1, 4, 4, 1]), 2),
    'conv1d': lambda tf: tf.nn.conv1d(_grid(tf, 10, [1, 5, 2]), _grid(tf, 12, [3, 2, 2]), 2,
                                      'SAME'),
    'conv2d_transpose': lambda tf: tf.nn.conv2d_transpose(
        _grid(tf, 8, [1, 2, 2, 2]), _grid(tf, 36, [3, 3, 2, 2], 0.1), [1, 4, 4, 2], 2),
    'depthwise_conv2d': lambda tf: tf.nn.depthwise_conv2d(
        _grid(tf, 18, [1, 3, 3, 2]), _grid(tf, 16, [2, 2, 2, 2], 0.1), [1, 1, 1, 1], 'VALID'),
    'lrn': lambda tf: tf.nn.lrn(_grid(tf, 8, [1, 1, 2, 4]), 1),
    'max_pool1d': lambda tf: tf.nn.max_pool(_grid(tf, 10, [1, 5, 2]), 2, 2, 'SAME'),
    'sufficient_statistics': lambda tf: tf.nn.sufficient_statistics(tf.constant(M22), [0])[:3],
    'ensure_shape_static': lambda tf: tf.ensure_shape(tf.zeros([2, 3]), [None, 3]).shape.as_list(),
    'eye_batch': lambda tf: tf.eye(2, batch_shape=[2]),
    'case': _case,
    'broadcast_dynamic_shape': lambda tf: tf.broadcast_dynamic_shape([2, 1], [3]),
    'get_static_value': lambda tf: tf.get_static_value(tf.constant([1, 2])),
    'error_codes': lambda tf: [tf.errors.InvalidArgumentError(None, None, 'x').error_code,
                               tf.errors.NOT_FOUND,
                               tf.errors.UnknownError(None, None, 'u').error_code],
    'ema': _ema,
}


def describe(value):
    """A value as JSON data: tensors and arrays as their dtype and nested lists."""
    if isinstance(value, (tuple, list)):
        return [describe(x) for x in value]
    if hasattr(value, 'numpy'):
        value = value.numpy()
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        array = np.asarray(value)
        return {'dtype': str(array.dtype), 'value': array.tolist()}
    return value
