"""Cases of the space-to-batch, partition and stitch, 3-D convolution and pooling, argmax and
fractional pooling, dilation, isotonic regression and volume patch ops: GRADIENT_CASES (op type ->
[(program on tensors, float64 inputs)]) for test_gradients_registry.py, whose finite
differences check them, and NO_GRADIENT_CASES for the ops without a gradient, which
test_native_registry.py runs compiled.

The max-pooling and dilation inputs are spread a whole unit apart, so a finite-difference
step never changes which element a window picks; MaxPool3D, which takes no float64, runs in
float32 with a step of a quarter (exact in float32 at these magnitudes).
"""
import numpy as np

import runtime as rt
from runtime.ops import conv3d as conv3d_ops
from runtime.ops import fractional_pool as fractional_ops
from runtime.ops import nn_more as nn_more_ops
from runtime.ops.dispatch import apply

RNG = np.random.default_rng(11)
VOLUME = RNG.uniform(-2, 2, (1, 3, 3, 2, 2))
VOLUME_FILTER = RNG.uniform(-2, 2, (2, 2, 1, 2, 2))
SPREAD_VOLUME = RNG.permutation(18).reshape(1, 3, 3, 2, 1) - 9.0
SPREAD_IMAGE = RNG.permutation(18).reshape(1, 3, 3, 2) - 9.0
POOL3D = {'ksize': (1, 2, 2, 1, 1), 'strides': (1, 1, 1, 1, 1), 'padding': 'VALID'}
CONV3D = {'strides': (1, 1, 2, 1, 1), 'padding': 'SAME'}


def _f32(x):
    return rt.cast(x, rt.float32)


def _f64(x):
    return rt.cast(x, rt.float64)


def _max_pool3d(x):
    return apply(conv3d_ops.MAX_POOL3D, [_f32(x)], POOL3D)


def _max_pool3d_grad(x, g):
    x32 = _f32(x)
    return _f64(apply(conv3d_ops.MAX_POOL3D_GRAD, [x32, _max_pool3d(x), _f32(g)], POOL3D))


def _max_pool3d_grad_grad(x, g):
    x32 = _f32(x)
    return _f64(apply(conv3d_ops.MAX_POOL3D_GRAD_GRAD, [x32, _max_pool3d(x), _f32(g)], POOL3D))


GRADIENT_CASES = {
    'SpaceToBatchND': [(lambda x: rt.space_to_batch_nd(x * x, [2, 2], [[1, 0], [0, 1]]),
                        [RNG.uniform(-2, 2, (1, 3, 3, 2))])],
    'BatchToSpaceND': [(lambda x: rt.batch_to_space(x * x, [2, 2], [[1, 0], [0, 1]]),
                        [RNG.uniform(-2, 2, (4, 2, 2, 2))])],
    'DynamicPartition': [(lambda x: rt.concat(rt.dynamic_partition(x * x, [1, 0, 1], 2), 0),
                          [RNG.uniform(-2, 2, (3, 2))])],
    'DynamicStitch': [(lambda a, b: rt.dynamic_stitch([[0, 2], [1]], [a * a, b]),
                       [RNG.uniform(-2, 2, (2, 3)), RNG.uniform(-2, 2, (1, 3))])],
    'Conv3D': [(lambda x, f: rt.nn.conv3d(x, f, [1, 1, 2, 1, 1], 'SAME'),
                [VOLUME, VOLUME_FILTER])],
    'Conv3DBackpropInputV2': [(lambda dy, f: apply(
        conv3d_ops.BACKPROP_INPUT, [np.array([1, 3, 3, 2, 2], np.int32), f, dy], CONV3D),
        [RNG.uniform(-2, 2, (1, 3, 2, 2, 2)), VOLUME_FILTER])],
    'Conv3DBackpropFilterV2': [(lambda x, dy: apply(
        conv3d_ops.BACKPROP_FILTER, [x, np.array([2, 2, 1, 2, 2], np.int32), dy], CONV3D),
        [VOLUME, RNG.uniform(-2, 2, (1, 3, 2, 2, 2))])],
    'MaxPool3D': [(lambda x: _f64(_max_pool3d(x)), [SPREAD_VOLUME])],
    'MaxPool3DGrad': [(_max_pool3d_grad, [SPREAD_VOLUME, RNG.uniform(-2, 2, (1, 2, 2, 2, 1))])],
    'MaxPool3DGradGrad': [(_max_pool3d_grad_grad,
                           [SPREAD_VOLUME, RNG.uniform(-2, 2, (1, 3, 3, 2, 1))])],
    'AvgPool3D': [(lambda x: rt.nn.avg_pool3d(x, [1, 2, 2, 2, 1], 1, 'SAME'), [VOLUME])],
    'AvgPool3DGrad': [(lambda g: apply(conv3d_ops.AVG_POOL3D_GRAD, [
        np.array([1, 3, 3, 2, 2], np.int32), g], POOL3D), [RNG.uniform(-2, 2, (1, 2, 2, 2, 2))])],
    'MaxPoolWithArgmax': [(lambda x: rt.nn.max_pool_with_argmax(x, 2, 1, 'VALID')[0] * x[0, 0, 0],
                           [SPREAD_IMAGE])],
    'Dilation2D': [(lambda x, f: rt.nn.dilation2d(x, f, [1, 1, 1, 1], 'SAME', 'NHWC',
                                                  [1, 1, 1, 1]),
                    [SPREAD_IMAGE[..., :1], RNG.uniform(-0.2, 0.2, (2, 2, 1))])],
    'IsotonicRegression': [(lambda x: rt.nn.isotonic_regression(x * x)[0],
                            [RNG.uniform(-2, 2, (2, 5))])],
    'FractionalMaxPool': [(lambda x: rt.nn.fractional_max_pool(
        x, [1.0, 1.4, 1.3, 1.0], overlapping=True, seed=7)[0], [SPREAD_IMAGE])],
    'FractionalAvgPool': [(lambda x: rt.nn.fractional_avg_pool(
        x * x, [1.0, 1.4, 1.3, 1.0], pseudo_random=True, seed=7)[0],
        [RNG.uniform(-2, 2, (1, 3, 3, 2))])],
    'ExtractVolumePatches': [(lambda x: rt.extract_volume_patches(
        x, [1, 2, 2, 1, 1], [1, 1, 1, 1, 1], 'VALID') ** 2, [VOLUME])],
}
# which cases need known dims: the patches' gradient needs the channel count
STATIC_ONLY = {'ExtractVolumePatches'}
# MaxPool3D and its gradient ops run in float32: a finite-difference step exact there
STEPS = {'MaxPool3D': 0.25, 'MaxPool3DGrad': 0.25, 'MaxPool3DGradGrad': 0.25}

_IMAGE = RNG.uniform(-2, 2, (1, 4, 4, 2))
NO_GRADIENT_CASES = {
    'Bitcast': [(lambda x: rt.bitcast(x, rt.int32), [_IMAGE])],
    'ParallelConcat': [(lambda x: rt.parallel_stack([x, x * 2.0]), [_IMAGE])],
    'ComputeAccidentalHits': [(lambda x: rt.nn.compute_accidental_hits(
        [[1, 2], [3, 1]], [1, 5, 1, 3], 2)[2] * rt.cast(rt.reduce_sum(x), rt.float32), [_IMAGE])],
    'Conv': [(lambda x: rt.conv(x, rt.ones([2, 2, 2, 3], rt.float64), [1, 1, 1, 1], 'SAME'),
              [_IMAGE])],
    'Conv2DBackpropInputV2': [(lambda x: rt.conv2d_backprop_input_v2(
        x, rt.ones([2, 2, 2, 3], rt.float64), rt.ones([1, 4, 4, 3], rt.float64), [1, 1, 1, 1],
        'SAME'), [_IMAGE])],
    'Conv2DBackpropFilterV2': [(lambda x: rt.conv2d_backprop_filter_v2(
        x, rt.ones([2, 2, 2, 3], rt.float64), rt.ones([1, 4, 4, 3], rt.float64), [1, 1, 1, 1],
        'SAME'), [_IMAGE])],
    'MaxPoolGradWithArgmax': [(lambda x: apply(nn_more_ops.MAX_POOL_GRAD_WITH_ARGMAX, [
        x, rt.ones([1, 3, 3, 2], rt.float64),
        rt.nn.max_pool_with_argmax(x, 2, 1, 'VALID')[1]],
        {'ksize': [1, 2, 2, 1], 'strides': [1, 1, 1, 1], 'padding': 'VALID'}), [_IMAGE])],
    'Dilation2DBackpropInput': [(lambda x: apply(nn_more_ops.DILATION2D_BACKPROP_INPUT, [
        x, rt.zeros([2, 2, 2], rt.float64), rt.ones([1, 4, 4, 2], rt.float64)],
        {'strides': [1, 1, 1, 1], 'rates': [1, 1, 1, 1], 'padding': 'SAME'}), [_IMAGE])],
    'Dilation2DBackpropFilter': [(lambda x: apply(nn_more_ops.DILATION2D_BACKPROP_FILTER, [
        x, rt.zeros([2, 2, 2], rt.float64), rt.ones([1, 4, 4, 2], rt.float64)],
        {'strides': [1, 1, 1, 1], 'rates': [1, 1, 1, 1], 'padding': 'SAME'}), [_IMAGE])],
    'RandomIndexShuffle': [(lambda x: rt.random_index_shuffle(
        rt.cast(rt.range(6), rt.int64), [1, 2, 3], rt.cast(rt.size(x), rt.int64)), [_IMAGE])],
    'Fingerprint': [(lambda x: rt.fingerprint(x), [_IMAGE])],
    'FractionalMaxPoolGrad': [(lambda x: apply(fractional_ops.FRACTIONAL_MAX_POOL_GRAD, [
        x, rt.zeros([1, 2, 2, 2], rt.float64), rt.ones([1, 2, 2, 2], rt.float64),
        np.array([0, 2, 4], np.int64), np.array([0, 1, 4], np.int64)], {}), [_IMAGE])],
    'FractionalAvgPoolGrad': [(lambda x: apply(fractional_ops.FRACTIONAL_AVG_POOL_GRAD, [
        np.array([1, 4, 4, 2], np.int64), x[:, :2, :2], np.array([0, 2, 4], np.int64),
        np.array([0, 1, 4], np.int64)], {'overlapping': True}), [_IMAGE])],
}
