"""Entries of ops with structural arguments, and the ops checked against TensorFlow elsewhere."""
from typing import Any, Callable

import numpy as np

from tools.opinfo.samples import DType, OpInfo, R, Sample, cases, s, t


def core_more_entries() -> list[OpInfo]:
    """Array ops with structural arguments and the 3-D, dilated and morphological nn ops, in
    their own fixture groups (`array_more2`, `nn_more`)."""
    f, d, i32, i64 = 'float32', 'float64', 'int32', 'int64'
    img, flt = R((2, 5, 6, 3)), R((3, 2, 3, 4))
    vol, vflt = R((2, 4, 5, 3, 2)), R((2, 3, 2, 2, 3))
    ties_img = t(np.tile(np.array([[1.0, 1.0], [0.5, 1.0]], f), (1, 2, 2)).reshape(1, 4, 4, 1), f)
    ties_vol = t(np.tile(np.array([1.0, 0.5, 1.0, 1.0], f), 8).reshape(1, 2, 4, 4, 1), f)
    # (sampled classes, true and sampled expected counts) of a candidate sampler
    sampled = (t([1, 7, 3, 0], i64), t([[0.5, 0.2], [0.1, 0.3], [0.2, 0.5]], f),
               t([0.5, 0.1, 0.1, 0.4], f))
    sampled_one = (t([1, 7, 3, 0], i64), t([[0.5], [0.1], [0.2]], d), t([0.5, 0.1, 0.1, 0.4], d))
    array: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Bitcast', 'bitcast', cases(
            s('random', R((3, 4)), DType(i32)), s('narrow', R((2,), d), DType('uint16')),
            s('wide', t([[0, 0, 128, 63], [0, 0, 0, 64]], 'uint8'), DType(f)),
            s('shape-invalid', t([1, 2, 3], 'uint8'), DType(f))), {'grad': False}),
        ('DynamicPartition', 'dynamic_partition', cases(
            s('random', R((5, 3)), t([1, 0, 2, 1, 0], i32), 3),
            s('2d-partitions', R((2, 3, 2), d), t([[0, 1, 1], [1, 0, 0]], i32), 2),
            s('empty-part', R((3,)), t([0, 0, 0], i32), 2),
            s('index-invalid', R((3,)), t([0, 3, 1], i32), 2)), {'grad2': True}),
        ('DynamicStitch', 'dynamic_stitch', cases(
            s('random', [t([0, 2], i32), t([1, 3], i32)], [R((2, 3)), R((2, 3))]),
            s('2d-indices', [t([[0, 4], [2, 3]], i32)], [R((2, 2, 3), d)]),
            s('int', [t([1], i32), t([0], i32)], [t([5], i64), t([7], i64)])), {'grad2': True}),
        ('ParallelConcat', 'parallel_stack', cases(s('random', [R((2, 3)), R((2, 3))])),
         {'grad': False}),
        ('SpaceToBatchND', 'space_to_batch_nd', cases(
            s('random', R((2, 4, 6, 3)), [2, 3], [[0, 0], [0, 0]]),
            s('padded', R((1, 5, 5, 2), d), [2, 2], [[1, 0], [0, 1]]),
            s('one-dim', R((2, 6, 3)), [3], [[1, 2]]),
            s('divisible-invalid', R((1, 5, 4, 1)), [2, 2], [[0, 0], [0, 0]])),
         {'grad2': True}),
        ('BatchToSpaceND', 'batch_to_space', cases(
            s('random', R((6, 2, 2, 3)), [2, 3], [[0, 0], [0, 0]]),
            s('cropped', R((4, 3, 3, 2), d), [2, 2], [[1, 0], [0, 1]]),
            s('batch-invalid', R((3, 2, 2, 1)), [2, 2], [[0, 0], [0, 0]])), {'grad2': True}),
        ('strided_slice', 'strided_slice', cases(
            s('masks', R((3, 4, 5)), [0, 1, 0], [2, 3, 0], [1, 1, 1], begin_mask=1, end_mask=4),
            s('ellipsis', R((3, 4, 5), d), [0, 1], [0, 3], [1, 1], ellipsis_mask=1),
            s('new-axis-shrink', R((3, 4)), [0, 1, 0], [0, 2, 4], [1, 1, 2], new_axis_mask=1,
              shrink_axis_mask=2),
            s('negative-stride', R((5,)), [-1], [0], [-2]),
            s('default-strides', R((4, 3)), [1, 0], [3, 2])), {}),
        ('RandomIndexShuffle', 'random_index_shuffle', cases(
            s('random', t(np.arange(10), i64), t([1, 2, 3], i64), t(9, i64)),
            s('rounds', t(5, i32), t([4, 5, 6], i32), t(100000, i32), rounds=6),
            s('seed-rows', t([0, 1, 2], 'uint64'), t([[1, 2, 3], [4, 5, 6], [7, 8, 9]], i32),
              t(2 ** 40, 'uint64')),
            s('seed-invalid', t([0, 1], i64), t([1, 2], i64), t(9, i64))), {'grad': False}),
        ('Fingerprint', 'fingerprint', cases(
            s('bytes', t(np.arange(150, dtype=np.uint8).reshape(2, 75), 'uint8')),
            s('short-rows', t(np.arange(24).reshape(8, 3), i32)),
            s('floats', t([[1.5, 2.5], [3.0, -1.0]], f)),
            s('strings', t([b'hello', b'', b'x' * 70], 'string')),
            s('string-rows', t([[b'ab', b'cd'], [b'e', b'']], 'string')),
            s('method-invalid', t([1, 2], i32), 'md5')), {'grad': False}),
        ('histogram_fixed_width_bins', 'histogram_fixed_width_bins', cases(
            s('random', R((10,)), [-2.0, 2.0], nbins=5),
            s('outside', t([[-5.0, 0.0], [5.0, 1.0]], f), t([-1.0, 1.0], f), nbins=3)),
         {'grad': False}),
        ('required_space_to_batch_paddings', 'required_space_to_batch_paddings', cases(
            s('random', [5, 6], [2, 4], [[1, 1], [0, 2]]), s('no-base', [7], [3])),
         {'grad': False}),
    ]
    nn: list[tuple[str, str, Callable[[np.random.Generator], list[Sample]], dict[str, Any]]] = [
        ('Conv3D', 'nn.conv3d', cases(
            s('same', vol, vflt, strides=[1, 2, 1, 2, 1], padding='SAME'),
            s('valid', R((1, 4, 4, 3, 2), d), R((2, 2, 2, 2, 2), d), [1, 1, 1, 1, 1], 'VALID'),
            s('channels-invalid', vol, R((2, 2, 2, 3, 2)), [1, 1, 1, 1, 1], 'SAME')),
         {'grad2': True, 'ops': ('Conv3DBackpropInputV2', 'Conv3DBackpropFilterV2')}),
        ('nn.conv3d_transpose', 'nn.conv3d_transpose', cases(
            s('same', R((2, 2, 5, 2, 3)), vflt, [2, 4, 5, 3, 2], [1, 2, 1, 2, 1], 'SAME')), {}),
        ('Conv', 'conv', cases(
            s('3d', vol, vflt, [1, 2, 1, 2, 1], 'SAME'),
            s('2d', R((2, 5, 6, 3), d), R((3, 2, 3, 4), d), [1, 1, 2, 1], 'VALID'),
            s('1d-invalid', R((2, 7, 3)), R((3, 3, 2)), [1, 2, 1], 'SAME')), {'grad': False}),
        ('Conv2DBackpropInputV2', 'conv2d_backprop_input_v2', cases(
            s('random', R((2, 5, 6, 3)), R((3, 2, 3, 4)), R((2, 3, 3, 4)), [1, 2, 2, 1], 'SAME'),
            s('valid', R((1, 5, 5, 2), d), R((2, 2, 2, 3), d), R((1, 4, 4, 3), d), [1, 1, 1, 1],
              'VALID')), {'grad': False}),
        ('Conv2DBackpropFilterV2', 'conv2d_backprop_filter_v2', cases(
            s('random', R((2, 5, 6, 3)), R((3, 2, 3, 4)), R((2, 3, 3, 4)), [1, 2, 2, 1], 'SAME'),
            s('valid', R((1, 5, 5, 2), d), R((2, 2, 2, 3), d), R((1, 4, 4, 3), d), [1, 1, 1, 1],
              'VALID')), {'grad': False}),
        ('ExtractVolumePatches', 'extract_volume_patches', cases(
            s('same', vol, [1, 2, 3, 2, 1], [1, 2, 2, 1, 1], 'SAME'),
            s('valid', R((1, 3, 4, 4, 2), d), [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], 'VALID'),
            s('int', R((1, 2, 3, 3, 1), i32, -5, 5), [1, 1, 2, 2, 1], [1, 1, 1, 1, 1], 'VALID')),
         {'grad2': True}),
        ('MaxPool3D', 'nn.max_pool3d', cases(
            s('random', vol, ksize=2, strides=2, padding='SAME'),
            s('valid', vol, [1, 2, 3, 1, 1], 1, 'VALID'),
            s('ties', ties_vol, 2, 2, 'VALID')),
         {'grad2': True, 'ops': ('MaxPool3DGrad', 'MaxPool3DGradGrad')}),
        ('AvgPool3D', 'nn.avg_pool3d', cases(
            s('random', vol, 2, 2, 'SAME'), s('valid', R((1, 4, 4, 3, 2)), [1, 2, 2, 2, 1], 1,
                                              'VALID')),
         {'grad2': True, 'ops': ('AvgPool3DGrad',)}),
        ('MaxPoolWithArgmax', 'nn.max_pool_with_argmax', cases(
            s('random', img, 2, 2, 'SAME'),
            s('batch-index', img, [1, 3, 2, 1], [1, 1, 2, 1], 'VALID',
              include_batch_in_index=True),
            s('float64', R((2, 4, 4, 2), d), 2, 2, 'VALID'),
            s('ties', ties_img, 2, 2, 'VALID')),
         {'grad2': True, 'ops': ('MaxPoolGradWithArgmax',)}),
        ('Dilation2D', 'nn.dilation2d', cases(
            s('same', img, R((2, 3, 3), f, -0.5, 0.5), [1, 1, 1, 1], 'SAME', 'NHWC',
              [1, 1, 1, 1]),
            s('strided-rate', R((2, 5, 6, 3), d), R((2, 2, 3), d), [1, 2, 2, 1], 'VALID', 'NHWC',
              [1, 2, 2, 1])),
         {'ops': ('Dilation2DBackpropInput', 'Dilation2DBackpropFilter')}),
        ('nn.erosion2d', 'nn.erosion2d', cases(
            s('same', img, R((2, 3, 3), f, -0.5, 0.5), [1, 1, 1, 1], 'SAME', 'NHWC',
              [1, 2, 1, 1])), {}),
        ('IsotonicRegression', 'nn.isotonic_regression', cases(
            s('random', R((3, 5))), s('increasing', R((2, 4), d), decreasing=False),
            s('axis0', R((4, 3)), axis=0),
            s('ties', t([[1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 1.0, 1.0]], f)),
            s('int', t([[3, 1, 2]], i32))), {}),
        ('FractionalMaxPool', 'nn.fractional_max_pool', cases(
            s('random', R((2, 7, 9, 2)), [1.0, 1.5, 1.7, 1.0], seed=5),
            s('pseudo-overlapping', R((1, 11, 6, 3), d), [1.0, 2.3, 1.4, 1.0],
              pseudo_random=True, overlapping=True, seed=17),
            s('scalar-ratio', t(np.arange(2 * 8 * 8 * 1).reshape(2, 8, 8, 1) % 7, i64), 1.6,
              overlapping=True, seed=3),
            s('ratio-invalid', R((1, 3, 3, 1)), [1.0, 4.0, 1.0, 1.0], seed=1)),
         {'ops': ('FractionalMaxPoolGrad',)}),
        ('FractionalAvgPool', 'nn.fractional_avg_pool', cases(
            s('random', R((2, 7, 9, 2)), [1.0, 1.5, 1.7, 1.0], seed=5),
            s('pseudo-overlapping', R((1, 11, 6, 3), d), [1.0, 2.3, 1.4, 1.0],
              pseudo_random=True, overlapping=True, seed=17)),
         {'ops': ('FractionalAvgPoolGrad',)}),
        ('ComputeAccidentalHits', 'nn.compute_accidental_hits', cases(
            s('random', t([[1, 2], [3, 1]], i64), t([1, 5, 1, 3], i64), 2),
            s('none', t([[7]], i64), t([1, 2], i64), 1)), {'grad': False}),
        ('nn.atrous_conv2d', 'nn.atrous_conv2d', cases(
            s('same', img, flt, 2, 'SAME'), s('valid', img, R((2, 2, 3, 4)), 2, 'VALID')), {}),
        ('nn.atrous_conv2d_transpose', 'nn.atrous_conv2d_transpose', cases(
            s('same', R((2, 5, 6, 4)), R((3, 3, 3, 4)), [2, 5, 6, 3], 2, 'SAME'),
            s('valid', R((2, 3, 4, 4)), R((2, 2, 3, 4)), [2, 5, 6, 3], 2, 'VALID')), {}),
        ('nn.depthwise_conv2d_backprop_input', 'nn.depthwise_conv2d_backprop_input', cases(
            s('random', [2, 5, 6, 3], R((3, 2, 3, 2)), R((2, 5, 6, 6)), [1, 1, 1, 1], 'SAME'),
            s('strided', [2, 5, 6, 3], R((2, 2, 3, 1)), R((2, 2, 3, 3)), [1, 2, 2, 1],
              'VALID')), {}),
        ('nn.depthwise_conv2d_backprop_filter', 'nn.depthwise_conv2d_backprop_filter', cases(
            s('random', img, [3, 2, 3, 2], R((2, 3, 3, 6)), [1, 2, 2, 1], 'SAME')), {}),
        ('nn.nce_loss', 'nn.nce_loss', cases(
            s('random', R((10, 4)), R((10,)), t([[1, 2], [3, 4], [5, 1]], i64), R((3, 4)), 4, 10,
              num_true=2, sampled_values=sampled),
            s('accidental-hits', R((10, 4), d), R((10,), d), t([[1], [3], [0]], i64),
              R((3, 4), d), 4, 10, sampled_values=sampled_one, remove_accidental_hits=True)),
         {}),
        ('nn.sampled_softmax_loss', 'nn.sampled_softmax_loss', cases(
            s('random', R((10, 4)), R((10,)), t([[1, 2], [3, 4], [5, 1]], i64), R((3, 4)), 4,
              10, num_true=2, sampled_values=sampled),
            s('kept-hits', R((10, 4)), R((10,)), t([[1], [3], [0]], i64), R((3, 4)), 4, 10,
              sampled_values=sampled, remove_accidental_hits=False)), {}),
        ('nn.collapse_repeated', 'nn.collapse_repeated', cases(
            s('random', t([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], i32), t([5, 3], i32))),
         {'grad': False}),
    ]
    return ([OpInfo(op, call, gen, 'array_more2', **kw) for op, call, gen, kw in array] +
            [OpInfo(op, call, gen, 'nn_more', **kw) for op, call, gen, kw in nn])


# Ops whose calls are programs rather than values (state, datasets, control flow, random
# streams, I/O), and the image, signal and string ops whose public calls other tests record
# from TensorFlow: checked against TensorFlow by the tests named here.
COVERED: dict[str, tuple[str, ...]] = {
    'tests/parity and tests/runtime/test_control_flow.py (control flow programs)': (
        'If', 'StatelessIf', 'While', 'StatelessWhile', 'Case', 'StatelessCase',
        'TensorListConcatV2', 'TensorListFromTensor', 'TensorListGather',
        'TensorListGetItem', 'TensorListLength', 'TensorListReserve',
        'TensorListScatterIntoExistingList', 'TensorListSetItem', 'TensorListSplit',
        'TensorListStack', 'Assert', 'PrintV2', 'NoOp', 'IdentityN'),
    'tests/runtime/test_state.py, tests/runtime/test_optimizers.py (variables)': (
        'VarHandleOp', 'ReadVariableOp', 'AssignVariableOp', 'AssignAddVariableOp',
        'AssignSubVariableOp', 'ResourceApplyAdam', 'ResourceApplyGradientDescent',
        'ResourceApplyKerasMomentum', 'ResourceScatterNdUpdate', 'ResourceStridedSliceAssign'),
    'tests/runtime/test_random_more.py (seeded determinism, moments, shapes, dtypes; '
    'StatelessMultinomial against TensorFlow-recorded numbers)': (
        'RandomGamma', 'RandomPoissonV2', 'RandomGammaGrad', 'StatelessRandomGammaV3',
        'StatelessRandomPoisson', 'StatelessRandomBinomial', 'StatelessMultinomial',
        'StatelessParameterizedTruncatedNormal', 'UniformCandidateSampler',
        'LogUniformCandidateSampler', 'LearnedUnigramCandidateSampler',
        'FixedUnigramCandidateSampler', 'AllCandidateSampler'),
    'tests/runtime/test_random_tf.py (random streams recorded from TensorFlow)': (
        'RandomStandardNormal', 'RandomUniform', 'RandomUniformInt', 'TruncatedNormal',
        'RandomShuffle', 'Multinomial', 'RngReadAndSkip', 'StatelessRandomGetKeyCounter',
        'StatelessRandomNormalV2', 'StatelessRandomUniformFullIntV2',
        'StatelessRandomUniformIntV2', 'StatelessRandomUniformV2',
        'StatelessTruncatedNormalV2', 'DummySeedGenerator'),
    'tests/runtime/data and tests/interop/test_tensorflow_data.py (datasets)': (
        'AnonymousIteratorV3', 'BatchDatasetV2', 'CacheDataset', 'ConcatenateDataset',
        'DatasetCardinality', 'DirectedInterleaveDataset', 'FilterDataset', 'FlatMapDataset',
        'GeneratorDataset', 'InterleaveDataset', 'IteratorGetNext',
        'IteratorGetNextAsOptional', 'MakeIterator', 'MapDataset', 'OptionalGetValue',
        'OptionalHasValue', 'OptionsDataset', 'PaddedBatchDatasetV2',
        'ParallelMapDatasetV2', 'PrefetchDataset', 'RangeDataset', 'ReduceDataset',
        'RepeatDataset', 'ScanDataset', 'ShardDataset', 'ShuffleDatasetV3', 'SkipDataset',
        'TakeDataset', 'TakeWhileDataset', 'TensorDataset', 'TensorSliceDataset',
        'TextLineDataset', 'UnbatchDataset', 'ZipDataset'),
    'tests/runtime/test_io_more.py (file datasets and transformations recorded from '
    'TensorFlow by tools/tf_io_more_fixtures.py)': (
        'TFRecordDatasetV2', 'FixedLengthRecordDatasetV2', 'AssertCardinalityDataset',
        'IgnoreErrorsDataset', 'UniqueDataset', 'DatasetToSingleElement', 'SqlDataset',
        'RandomDataset', 'GroupByWindowDataset', 'GroupByReducerDataset',
        'StringToHashBucketFast', 'EncodeWav', 'DecodeWav', 'CombinedNonMaxSuppression',
        'ExtractGlimpseV2', 'DecodeGif', 'SampleDistortedBoundingBoxV2',
        'StatelessSampleDistortedBoundingBox'),
    'tests/runtime/summary and tests/interop/test_tensorflow_summary.py (summaries)': (
        'SummaryWriter', 'FlushSummaryWriter', 'WriteSummary', 'WriteGraphSummary',
        'EncodePng'),
    'tests/runtime/test_execution.py (Python functions in graphs)': (
        'PyFunc', 'PyFuncStateless', 'EagerPyFunc'),
    'tests/runtime/graph (the structural ops of every graph)': (
        'Const', 'Placeholder', 'BroadcastGradientArgs'),
    'tests/runtime/test_tf_surface_calls.py (rt.image calls recorded from TensorFlow) and '
    'tests/runtime/test_gradients_registry.py (gradients against TensorFlow)': (
        'AdjustHue', 'AdjustSaturation', 'CropAndResize', 'CropAndResizeGradImage',
        'DrawBoundingBoxesV2', 'ExtractImagePatches', 'HSVToRGB', 'RGBToHSV',
        'NonMaxSuppressionV3', 'NonMaxSuppressionV4', 'NonMaxSuppressionV5',
        'NonMaxSuppressionWithOverlaps', 'ResizeBicubic', 'ResizeBicubicGrad', 'ResizeBilinear',
        'ResizeBilinearGrad', 'ResizeNearestNeighbor', 'ResizeNearestNeighborGrad'),
    'tests/runtime/test_tf_surface_calls.py (rt.signal calls recorded from TensorFlow) and '
    'tests/runtime/test_gradients_registry.py (gradients against TensorFlow)': (
        'FFT', 'FFT2D', 'FFT3D', 'FFTND', 'IFFT', 'IFFT2D', 'IFFT3D', 'IFFTND', 'RFFT', 'RFFT2D',
        'RFFT3D', 'RFFTND', 'IRFFT', 'IRFFT2D', 'IRFFT3D', 'IRFFTND'),
    'tests/runtime/test_tf_surface_calls.py (rt.io calls recorded from TensorFlow) '
    'and tests/runtime/test_io_files.py (files)': (
        'DecodeBase64', 'EncodeBase64', 'DecodeBmp', 'DecodeCSV', 'DecodeCompressed',
        'DecodeImage', 'DecodeJSONExample', 'DecodePng', 'ExtractJpegShape', 'MatchingFiles',
        'ParseExampleV2', 'ParseSequenceExampleV2', 'ParseTensor', 'SerializeTensor',
        'ReadFile', 'WriteFile'),
    'tests/runtime/test_tf_surface_calls.py (rt.strings calls recorded from TensorFlow)': (
        'StringNGrams', 'StringToHashBucket', 'StringToHashBucketStrong', 'UnicodeTranscode',
        'UnsortedSegmentJoin'),
    'tests/autograph/saved_model/test_tensorflow_variable_ops.py (TensorFlow graphs with '
    'variable row scatters, loaded and run) and tests/runtime/test_gradients_registry.py': (
        'ResourceGather', 'ResourceScatterAdd', 'ResourceScatterDiv', 'ResourceScatterMax',
        'ResourceScatterMin', 'ResourceScatterMul', 'ResourceScatterNdAdd',
        'ResourceScatterNdSub', 'ResourceScatterSub', 'ResourceScatterUpdate'),
    'tests/runtime/executor/test_native_registry.py (a clock: its value is compared with no '
    'recording)': ('Timestamp',),
    'tests/runtime/test_string_split.py and tests/interop (ragged string results)': (
        'StringSplit', 'StringSplitV2', 'UnicodeDecode', 'UnicodeDecodeWithOffsets',
        'UnicodeEncode', 'DecodeRaw', 'DecodePaddedRaw'),
}
