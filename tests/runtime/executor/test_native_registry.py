"""Every op of the registry runs under `jit_compile=True`, natively or by calling its
numpy kernel from the compiled code, and gives the default executor's results: each op's cases
(the gradient registry's, and below those of the ops without a gradient) run compiled on
inputs of the shapes traced (as `ag.function` traces eager values) and inside a `rt.range`
loop, against the same functions without `jit_compile`.

An op added with neither a native form nor a kernel fails `test_every_op_runs_compiled`. The
cases run in a few large functions (one compile each: numba compiles slowly); a failure names
the op.
"""
import os
import tempfile

import numpy as np
import pytest
from core_more_gradient_cases import NO_GRADIENT_CASES
from test_gradients_registry import CASES, Case

import autograph as ag
import runtime as rt
from runtime.executor import native
from runtime.ops import random_more
from runtime.ops.dispatch import apply
from runtime.ops.registry import REGISTRY

pytest.importorskip('numba')


@pytest.fixture(autouse=True)
def cold_cache(tmp_path_factory, monkeypatch):
    """Compile into the test run's temp dir, as test_native.py does (a cold cache, as in CI)."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


rng = np.random.default_rng(5)
F = rng.uniform(-2, 2, (3, 4))
I32 = np.array([[3, -7, 0, 12], [5, 2, -1, 8]], np.int32)


def _variable_updates(x):
    v = rt.Variable(np.zeros((2, 4)))
    v.assign(x)
    v.assign_add(x * 2.0)
    v.assign_sub(x)
    return v.read_value()


def _optimizers(x):
    outs = []
    for optimizer in (rt.optimizers.SGD(0.1), rt.optimizers.SGD(0.1, momentum=0.9),
                      rt.optimizers.Adam(0.1)):
        v = rt.Variable(np.ones((2, 4)))
        optimizer.apply_gradients([(x, v)])
        outs.append(v.read_value())
    return rt.stack(outs)


def _scatter_and_slice_assign(x):
    v = rt.Variable(np.zeros((2, 4)))
    v.scatter_nd_update([[0, 1], [1, 2]], [5.0, 6.0])
    v[:, 3].assign(x[:, 0])
    return v.read_value()


def _scatter_nd_arithmetic_and_sparse_read(x):
    v = rt.Variable(np.zeros((2, 4)))
    v.scatter_nd_add([[0, 1], [1, 2]], x[0, :2])
    v.scatter_nd_sub([[1, 2]], x[1, :1])
    return v.sparse_read([1, 0, 1])


def _py_function(x):
    return rt.py_function(lambda a: np.asarray(a) * 2.0 + 1.0, [x], rt.float64)


def _dataset_pipeline(x):
    ds = rt.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2.0).batch(2)
    return ds.reduce(rt.constant(0.0, rt.float64), lambda a, b: a + rt.reduce_sum(b))


# Cases of the ops that declare NO_GRADIENT (or are structural), as the gradient registry's:
# Case(program on tensors, input arrays).
EXTRA = {
    'All': [Case(lambda x: rt.reduce_all(x > -3.0, axis=1), [F])],
    'Any': [Case(lambda x: rt.reduce_any(x > 1.0, axis=0), [F])],
    'ArgMax': [Case(lambda x: rt.argmax(x, axis=1), [F])],
    'ArgMin': [Case(lambda x: rt.argmin(x, axis=0), [F])],
    'AsString': [Case(lambda x: rt.strings.length(rt.strings.as_string(x)), [I32])],
    'Assert': [Case(lambda x: (rt.debugging.Assert(rt.reduce_all(x > -10), [x]), x * 2)[1],
                    [F])],
    'AssignVariableOp': [Case(_variable_updates, [F[:2]])],
    'Ceil': [Case(rt.math.ceil, [F])], 'Floor': [Case(rt.math.floor, [F])],
    'Round': [Case(rt.math.round, [F])],
    'Equal': [Case(lambda a, b: rt.equal(a, b), [I32, I32[::-1].copy()])],
    'NotEqual': [Case(lambda a, b: rt.not_equal(a, b), [I32, I32[::-1].copy()])],
    'Less': [Case(lambda a, b: rt.less(a, b), [F, F[::-1].copy()])],
    'LessEqual': [Case(lambda a, b: rt.less_equal(a, b), [F, F.T.copy().T])],
    'Greater': [Case(lambda a, b: rt.greater(a, b), [I32, I32[::-1].copy()])],
    'GreaterEqual': [Case(lambda a, b: rt.greater_equal(a, b), [F, F[::-1].copy()])],
    'FloorDiv': [Case(lambda a: a // 3, [I32]), Case(lambda a: -a // 2, [I32])],
    'IsFinite': [Case(lambda x: rt.math.is_finite(x / (x - x[0, 0])), [F])],
    'IsInf': [Case(lambda x: rt.math.is_inf(x / (x - x[0, 0])), [F])],
    'IsNan': [Case(lambda x: rt.math.is_nan(rt.math.log(x)), [F])],
    'LogicalAnd': [Case(lambda x: rt.logical_and(x > 0, x < 1), [F])],
    'LogicalOr': [Case(lambda x: rt.logical_or(x > 1, x < -1), [F])],
    'LogicalNot': [Case(lambda x: rt.logical_not(x > 0), [F])],
    'DenseBincount': [Case(lambda x: rt.math.bincount(rt.abs(x) % 5, minlength=6), [I32])],
    'InTopKV2': [Case(lambda x: rt.math.in_top_k(rt.constant([1, 3, 0]), x, 2), [F])],
    'LinSpace': [Case(lambda x: rt.linspace(x[0, 0], x[1, 1], 5), [F])],
    'OneHot': [Case(lambda x: rt.one_hot(rt.abs(x[0]) % 4, 4), [I32])],
    'OnesLike': [Case(lambda x: rt.ones_like(x) + x, [F])],
    'ZerosLike': [Case(lambda x: rt.zeros_like(x) + x, [I32])],
    'PrintV2': [Case(lambda x: (rt.print('x:', x), x + 1)[1], [I32])],
    'EagerPyFunc': [Case(_py_function, [F])],
    'PyFunc': [Case(lambda x: rt.numpy_function(lambda a: a * 3.0, [x], rt.float64), [F])],
    'PyFuncStateless': [Case(lambda x: rt.numpy_function(lambda a: a - 1.0, [x], rt.float64,
                                                          stateful=False), [F])],
    'Range': [Case(lambda x: rt.range(x[0, 0], x[0, 3], 2), [I32])],
    'Rank': [Case(lambda x: rt.rank(x) + 1, [F])],
    'Shape': [Case(lambda x: rt.shape(x) * 2, [F])],
    'Size': [Case(lambda x: rt.size(x) * 2, [F])],
    'ResourceApplyGradientDescent': [Case(_optimizers, [F[:2]])],
    'ResourceScatterNdUpdate': [Case(_scatter_and_slice_assign, [F[:2]])],
    'ResourceScatterNdAdd': [Case(_scatter_nd_arithmetic_and_sparse_read, [F[:2]])],
    'StopGradient': [Case(lambda x: rt.stop_gradient(x) * 2, [F])],
    'StringFormat': [Case(lambda x: rt.strings.length(rt.strings.format('{} and {}', [x, x])),
                          [I32])],
    'StringJoin': [Case(lambda x: rt.strings.length(rt.strings.join(
        [rt.strings.as_string(x), rt.strings.upper(rt.strings.as_string(x))], '-')), [I32])],
    'StringToNumber': [Case(lambda x: rt.strings.to_number(rt.strings.as_string(x)), [I32])],
    'StringSplitV2': [Case(lambda x: rt.strings.to_number(rt.strings.split(
        rt.strings.reduce_join(rt.strings.as_string(x[0]), separator=' '))), [I32])],
    'StringSplit': [Case(lambda x: rt.strings.length(rt.strings.bytes_split(
        rt.strings.as_string(x[0, 1]))), [I32])],
    'UnicodeEncode': [Case(lambda x: rt.strings.length(rt.strings.unicode_split(
        rt.strings.as_string(x[0, 1]), 'UTF-8')), [I32])],
    'UnicodeDecode': [Case(lambda x: rt.strings.unicode_decode(rt.strings.as_string(x[0, 1]),
                                                               'UTF-8') + 1, [I32])],
    'UnicodeDecodeWithOffsets': [Case(lambda x: rt.strings.unicode_decode_with_offsets(
        rt.strings.as_string(x[0, 3]), 'UTF-8')[1] * 2, [I32])],
    'DecodeRaw': [Case(lambda x: rt.io.decode_raw(rt.strings.as_string(x[0, 3]), rt.uint8) + 1,
                       [I32])],
    'DecodePaddedRaw': [Case(lambda x: rt.io.decode_raw(rt.strings.as_string(x[0, 1]), rt.uint8,
                                                        fixed_length=3), [I32])],
    'StaticRegexFullMatch': [Case(lambda x: rt.strings.regex_full_match(
        rt.strings.as_string(x), '-?[0-9]'), [I32])],
    'TensorListReserve': [Case(lambda x: rt.TensorArray(rt.float64, size=1, dynamic_size=True)
                               .write(0, x[0]).write(1, x[1]).write(2, x[2]).stack(), [F])],
    'Where': [Case(lambda x: rt.where(x > 0.5), [F])],
    'ReduceDataset': [Case(_dataset_pipeline, [F[0]])],
    'AdjustContrastv2': [Case(lambda x: rt.image.adjust_contrast(x, 2.0),
                              [F.reshape(3, 2, 2).astype(np.float32)])],
    'Unique': [Case(lambda x: rt.unique(rt.reshape(x, [-1]) % 3)[1], [I32])],
    'UniqueWithCounts': [Case(lambda x: rt.unique_with_counts(rt.reshape(x % 3, [-1]))[2],
                              [I32])],
    'UnravelIndex': [Case(lambda x: rt.unravel_index(rt.abs(x[0]) % 12, [3, 4]), [I32])],
    'LowerBound': [Case(lambda x: rt.searchsorted(rt.sort(x), x), [F])],
    'UpperBound': [Case(lambda x: rt.searchsorted(rt.sort(x), x, side='right'), [F])],
    'Rint': [Case(rt.math.rint, [F])],
    'TruncateDiv': [Case(lambda x: rt.truncatediv(x, 3), [I32])],
    'TruncateMod': [Case(lambda x: rt.truncatemod(x, 3), [I32])],
    'InvertPermutation': [Case(lambda x: rt.math.invert_permutation(
        rt.argsort(x[0])) + x[0, 0] * 0, [I32])],
    'HistogramFixedWidth': [Case(lambda x: rt.histogram_fixed_width(x, [-2.0, 2.0], nbins=5),
                                 [F])],
    'Timestamp': [Case(lambda x: x + rt.cast(rt.timestamp() > 0, rt.float64), [F])],
    'BitwiseAnd': [Case(lambda x: rt.bitwise.bitwise_and(x, 6), [I32])],
    'BitwiseOr': [Case(lambda x: rt.bitwise.bitwise_or(x, 6), [I32])],
    'BitwiseXor': [Case(lambda x: rt.bitwise.bitwise_xor(x, 6), [I32])],
    'Invert': [Case(rt.bitwise.invert, [I32])],
    'LeftShift': [Case(lambda x: rt.bitwise.left_shift(x, 2), [I32])],
    'RightShift': [Case(lambda x: rt.bitwise.right_shift(x, 1), [I32])],
}


# the ops of rt.experimental.numpy, rt.signal, rt.image, rt.io and rt.strings without a gradient
# case: each runs by its kernel when compiled
_IMAGE = rng.uniform(0, 1, (1, 4, 5, 3))
_PNG = rt.io.encode_png(np.arange(24, dtype=np.uint8).reshape(2, 4, 3)).numpy()
_BMP = (b'BM' + (54 + 8).to_bytes(4, 'little') + bytes(4) + (54).to_bytes(4, 'little') +
        (40).to_bytes(4, 'little') + (2).to_bytes(4, 'little') + (1).to_bytes(4, 'little') +
        (1).to_bytes(2, 'little') + (24).to_bytes(2, 'little') + bytes(24) + bytes(range(6)) +
        bytes(2))
_JPEG = b'\xff\xd8\xff\xc0\x00\x11\x08\x00\x06\x00\x09\x03' + bytes(9)
_FILE = os.path.join(tempfile.mkdtemp(), 'data.txt')
with open(_FILE, 'wb') as _f:
    _f.write(b'hello')
_EXAMPLE = rt.io.decode_json_example(
    '{"features": {"feature": {"a": {"floatList": {"value": [1.5, 2.5]}}}}}').numpy()
_SEQUENCE = bytes.fromhex('120e0a0c0a017412070a051a030a0105')  # feature list t: [[5]]
_BOXES = np.asarray([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 5, 1, 6]], np.float64)


def _with(value):
    """A case whose result does not depend on the input (it only feeds the program)."""
    return lambda x: value()


EXTRA.update({
    'BitwiseAnd': [Case(lambda x: rt.bitwise.bitwise_and(x, 6), [I32])],
    'BitwiseOr': [Case(lambda x: rt.bitwise.bitwise_or(x, 6), [I32])],
    'BitwiseXor': [Case(lambda x: rt.bitwise.bitwise_xor(x, 6), [I32])],
    'Invert': [Case(lambda x: rt.bitwise.invert(x), [I32])],
    'LeftShift': [Case(lambda x: rt.bitwise.left_shift(x, 2), [I32])],
    'RightShift': [Case(lambda x: rt.bitwise.right_shift(x, 1), [I32])],
    'NextAfter': [Case(lambda x: rt.experimental.numpy.nextafter(x, 0.0), [F])],
    'FFTND': [Case(lambda x: rt.signal.fftnd(rt.complex(x, x)), [F])],
    'IFFTND': [Case(lambda x: rt.signal.ifftnd(rt.complex(x, x)), [F])],
    'RFFTND': [Case(lambda x: rt.signal.rfftnd(x), [F])],
    'IRFFTND': [Case(lambda x: rt.signal.irfftnd(rt.complex(x, x)), [F])],
    'RFFT3D': [Case(lambda x: rt.signal.rfft3d(rt.reshape(x, [1, 3, 4])), [F])],
    'IRFFT3D': [Case(lambda x: rt.signal.irfft3d(rt.complex(rt.reshape(x, [1, 3, 4]), x[0, 0])),
                     [F])],
    'RGBToHSV': [Case(lambda x: rt.image.rgb_to_hsv(x), [_IMAGE])],
    'HSVToRGB': [Case(lambda x: rt.image.hsv_to_rgb(x), [_IMAGE])],
    'AdjustHue': [Case(lambda x: rt.image.adjust_hue(x, 0.2), [_IMAGE.astype(np.float32)])],
    'AdjustSaturation': [Case(lambda x: rt.image.adjust_saturation(x, 1.5),
                              [_IMAGE.astype(np.float32)])],
    'DrawBoundingBoxesV2': [Case(lambda x: rt.image.draw_bounding_boxes(
        x, [[[0.1, 0.2, 0.8, 0.9]]], [[1.0, 0.0, 0.0, 1.0]]), [_IMAGE.astype(np.float32)])],
    'NonMaxSuppressionV3': [Case(lambda x: rt.image.non_max_suppression(
        rt.cast(x, rt.float32), [0.9, 0.8, 0.7], 2), [_BOXES])],
    'NonMaxSuppressionV4': [Case(lambda x: rt.image.non_max_suppression_padded(
        rt.cast(x, rt.float32), [0.9, 0.8, 0.7], 3, pad_to_max_output_size=True)[0], [_BOXES])],
    'NonMaxSuppressionV5': [Case(lambda x: rt.image.non_max_suppression_with_scores(
        rt.cast(x, rt.float32), [0.9, 0.8, 0.7], 2)[1], [_BOXES])],
    'NonMaxSuppressionWithOverlaps': [Case(lambda x: rt.image.non_max_suppression_overlaps(
        x[:, :3], [0.9, 0.8, 0.7], 2), [_BOXES])],
    'DecodePng': [Case(_with(lambda: rt.io.decode_png(_PNG)), [F])],
    'DecodeBmp': [Case(_with(lambda: rt.io.decode_bmp(_BMP)), [F])],
    'DecodeImage': [Case(_with(lambda: rt.io.decode_image(_PNG)), [F])],
    'ExtractJpegShape': [Case(_with(lambda: rt.io.extract_jpeg_shape(_JPEG)), [F])],
    'EncodeBase64': [Case(lambda x: rt.io.encode_base64(rt.strings.as_string(x)), [I32])],
    'DecodeBase64': [Case(lambda x: rt.io.decode_base64(rt.io.encode_base64(
        rt.strings.as_string(x))), [I32])],
    'DecodeCompressed': [Case(lambda x: rt.io.decode_compressed(rt.strings.as_string(x)),
                              [I32])],
    'DecodeCSV': [Case(lambda x: rt.io.decode_csv(rt.strings.as_string(x), [[0]])[0], [I32])],
    'DecodeJSONExample': [Case(_with(lambda: rt.io.decode_json_example('{}')), [F])],
    'SerializeTensor': [Case(lambda x: rt.io.serialize_tensor(x), [F])],
    'ParseTensor': [Case(lambda x: rt.io.parse_tensor(rt.io.serialize_tensor(x), rt.float64),
                         [F])],
    'ParseExampleV2': [Case(_with(lambda: rt.io.parse_single_example(
        _EXAMPLE, {'a': rt.io.FixedLenFeature([2], rt.float32)})['a']), [F])],
    'ParseSequenceExampleV2': [Case(_with(lambda: rt.io.parse_single_sequence_example(
        _SEQUENCE, sequence_features={'t': rt.io.FixedLenSequenceFeature(
            [1], rt.int64)})[1]['t']), [F])],
    'ReadFile': [Case(_with(lambda: rt.io.read_file(_FILE)), [F])],
    'WriteFile': [Case(lambda x: (rt.io.write_file(_FILE + '.out',
                                                   rt.strings.as_string(x[0, 0])), x)[1], [F])],
    'MatchingFiles': [Case(_with(lambda: rt.io.matching_files(_FILE)), [F])],
    'StringNGrams': [Case(lambda x: rt.strings.ngrams(rt.strings.as_string(x), 2), [I32])],
    'UnsortedSegmentJoin': [Case(lambda x: rt.strings.unsorted_segment_join(
        rt.strings.as_string(x), [1, 0], 2), [I32])],
    'StringToHashBucket': [Case(lambda x: rt.strings.to_hash_bucket(
        rt.strings.as_string(x), 10), [I32])],
    'StringToHashBucketStrong': [Case(lambda x: rt.strings.to_hash_bucket_strong(
        rt.strings.as_string(x), 10, [1, 2]), [I32])],
    'UnicodeTranscode': [Case(lambda x: rt.strings.unicode_transcode(
        rt.strings.as_string(x), 'UTF-8', 'UTF-16-BE'), [I32])],
})
# the special-function, linear-algebra and stateless random ops without a gradient case
_SPD = np.array([[4.0, 1.0], [2.0, 3.0]])
EXTRA.update({
    'IgammaGradA': [Case(lambda x: rt.math.igamma(x * 0 + 2.0, rt.abs(x) + 0.5), [F])],
    'RandomGammaGrad': [Case(lambda x: apply(random_more.RANDOM_GAMMA_GRAD, [
        rt.abs(x) + 0.5, rt.abs(x) + 1.0]), [F])],
    'Lu': [Case(lambda x: rt.linalg.lu(x + _SPD)[0], [F[:2, :2]])],
    'MatrixLogarithm': [Case(lambda x: rt.math.real(rt.linalg.logm(rt.complex(
        x + _SPD, x * 0))), [F[:2, :2] * 0.1])],
    'StatelessRandomPoisson': [Case(lambda x: rt.random.stateless_poisson(
        [3], [1, 2], rt.abs(x[0, :1]) + 1.0, dtype=rt.float64) + x[0, 0], [F])],
    'StatelessRandomBinomial': [Case(lambda x: rt.random.stateless_binomial(
        [3], [1, 2], 5.0, 0.5, output_dtype=rt.float64) + x[0, 0], [F])],
    'StatelessMultinomial': [Case(lambda x: rt.random.stateless_categorical(x, 4, [1, 2]),
                                  [F])],
    'StatelessParameterizedTruncatedNormal': [Case(
        lambda x: rt.random.stateless_parameterized_truncated_normal(
            [4], [1, 2], means=x[0], minvals=x[0] - 1.0, maxvals=x[0] + 1.0), [F])],
    'AllCandidateSampler': [Case(lambda x: rt.random.all_candidate_sampler(
        [[1, 2]], 2, 3, True)[1] + rt.cast(x[0, :2], rt.float32), [F])],
})
EXTRA.update({op: [Case(fn, inputs) for fn, inputs in cases]
              for op, cases in NO_GRADIENT_CASES.items()})
# the ops of tf.audio, GIF decoding, more image and string ops, and getting a dataset's one
# element (tests/runtime/test_io_more.py compares them with TensorFlow)
_GIF = bytes.fromhex('47494638376102000100810000000000ffffff0000000000002c0000000002000100'
                     '0008050001040808003b')  # 2 x 1 pixels, black and white
EXTRA.update({
    'EncodeWav': [Case(lambda x: rt.audio.encode_wav(rt.cast(x[:, :2] / 4, rt.float32), 8000),
                       [F])],
    'DecodeWav': [Case(lambda x: rt.audio.decode_wav(rt.audio.encode_wav(
        rt.cast(x[:, :2] / 4, rt.float32), 8000))[0], [F])],
    'DecodeGif': [Case(_with(lambda: rt.io.decode_gif(_GIF)), [F])],
    'StringToHashBucketFast': [Case(lambda x: rt.strings.to_hash_bucket_fast(
        rt.strings.as_string(x), 10), [I32])],
    'CombinedNonMaxSuppression': [Case(lambda x: rt.image.combined_non_max_suppression(
        rt.reshape(rt.cast(x, rt.float32), [1, 3, 1, 4]), [[[0.9], [0.8], [0.7]]], 2, 3)[0],
        [_BOXES])],
    'ExtractGlimpseV2': [Case(lambda x: rt.image.extract_glimpse(
        x, [2, 3], [[0.1, -0.2]], noise='zero'), [_IMAGE.astype(np.float32)])],
    'StatelessSampleDistortedBoundingBox': [Case(
        lambda x: rt.image.stateless_sample_distorted_bounding_box(
            [40, 60, 3], rt.cast(x, rt.float32), [1, 2])[2],
        [np.array([[[0.1, 0.2, 0.6, 0.7]]])])],
    'DatasetToSingleElement': [Case(lambda x: rt.data.Dataset.from_tensors(
        x).get_single_element() * 2, [F])],
})
# the gradient ops of resize and crop_and_resize, which the gradient cases build
BUILT_BY_GRADIENTS = {'ResizeBilinearGrad', 'ResizeNearestNeighborGrad', 'ResizeBicubicGrad',
                      'CropAndResizeGradImage'}
RANDOM = {  # the same op seeds in both functions give the same numbers
    'RandomUniform': lambda x: rt.random.uniform([2, 3]) + x[0, 0],
    'RandomStandardNormal': lambda x: rt.random.normal([2, 3]) + x[0, 0],
    'TruncatedNormal': lambda x: rt.random.truncated_normal([2, 3]) + x[0, 0],
    'RandomUniformInt': lambda x: rt.random.uniform([4], 0, 9, dtype=rt.int32) * 2,
    'RandomShuffle': lambda x: rt.random.shuffle(x),
    'StatelessRandomUniformV2': lambda x: rt.random.stateless_uniform([3], [1, 2]) + x[0, 0],
    'StatelessRandomNormalV2': lambda x: rt.random.stateless_normal([3], [1, 2]) + x[0, 0],
    'RandomPoissonV2': lambda x: rt.random.poisson([3], 2.0) + x[0, 0],
    'UniformCandidateSampler': lambda x: rt.cast(rt.random.uniform_candidate_sampler(
        [[1, 2]], 2, 3, True, 10)[0], rt.float32) + x[0, 0],
    'LogUniformCandidateSampler': lambda x: rt.cast(rt.random.log_uniform_candidate_sampler(
        [[1, 2]], 2, 3, False, 10)[0], rt.float32) + x[0, 0],
    'LearnedUnigramCandidateSampler': lambda x: rt.cast(
        rt.random.learned_unigram_candidate_sampler([[1, 2]], 2, 3, True, 10)[0],
        rt.float32) + x[0, 0],
    'FixedUnigramCandidateSampler': lambda x: rt.cast(
        rt.random.fixed_unigram_candidate_sampler([[1, 2]], 2, 3, False, 4,
                                                  unigrams=[1.0, 2.0, 3.0, 4.0])[0],
        rt.float32) + x[0, 0],
    'SampleDistortedBoundingBoxV2': lambda x: rt.image.sample_distorted_bounding_box(
        [40, 60, 3], [[[0.1, 0.2, 0.6, 0.7]]], seed=3)[1] + rt.cast(x[0, 0], rt.int32),
}


def _cases():
    cases = []
    for op_type in sorted(CASES):
        cases += [(op_type, case) for case in CASES[op_type][:1]]
    for op_type in sorted(EXTRA):
        cases += [(op_type, case) for case in EXTRA[op_type]]
    return cases


# cases that take a gradient with a tape, which a While body cannot hold
BUILT_WITH_A_TAPE = {'MirrorPadGrad', 'ReluGrad', 'StridedSliceGrad'}


@ag.do_not_convert
def _looped(fn, xs, n):
    """`fn(*xs)` computed again in each of `n` steps of a While loop (when it is one tensor)."""
    y = fn(*xs)
    if not isinstance(y, rt.Tensor):
        return y
    return rt.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, fn(*xs)), (0, y))[1]


def _program(cases):
    """One function running every case, then again inside a `rt.range(n)` loop (a case giving
    one tensor); returns each case's outputs, then those of the loops."""
    inputs = [[rt.Variable(a) if case.variables else None for a in case.inputs]
              for _, case in cases]
    functions = [ag.do_not_convert(case.fn) for _, case in cases]  # traced as they are
    loops = [op_type not in BUILT_WITH_A_TAPE for op_type, _ in cases]

    def program(n, *arrays):
        outs, looped = [], []
        it = iter(arrays)
        for fn, variables, loop in zip(functions, inputs, loops):
            xs = [v if v is not None else next(it) for v in variables]
            outs.append(fn(*xs))
            looped.append(_looped(fn, xs, n) if loop else fn(*xs))
        return outs + looped
    arrays = [rt.constant(a) for (_, case), variables in zip(cases, inputs)
              for a, v in zip(case.inputs, variables) if v is None]
    return program, arrays


def _compare(cases):
    program, arrays = _program(cases)
    default, jit = ag.function(program), ag.function(program, jit_compile=True)
    expected = default(rt.constant(2), *arrays)
    got = jit(rt.constant(2), *arrays)
    assert len(got) == len(expected) == 2 * len(cases)
    for (op_type, _), g, e in zip(cases + cases, got, expected):
        g, e = rt.nest.flatten(g), rt.nest.flatten(e)
        for a, b in zip(g, e):
            a, b = np.asarray(a), np.asarray(b)
            assert a.dtype == b.dtype and a.shape == b.shape, op_type
            if b.dtype.kind == 'f':
                np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12, err_msg=op_type)
            else:
                np.testing.assert_array_equal(a, b, err_msg=op_type)
    return jit


def test_every_op_runs_compiled():
    """Natively or by its kernel: an op with neither would make its graphs fail to compile."""
    assert [name for name, opdef in REGISTRY.items() if native.coverage(opdef) is None] == []


def test_every_op_has_a_case_here():
    covered = set(CASES) | set(EXTRA) | set(RANDOM) | BUILT_BY_GRADIENTS
    structural = {'Const', 'Placeholder', 'NoOp', 'VarHandleOp', 'ReadVariableOp'}
    # ops that only gradients or other ops' functions build, run by the cases of those
    built_by_others = {'AssignAddVariableOp', 'AssignSubVariableOp', 'BroadcastGradientArgs',
                       'ResourceApplyAdam', 'ResourceApplyKerasMomentum',
                       'ResourceStridedSliceAssign', 'RngReadAndSkip',
                       'StatelessRandomGetKeyCounter', 'StatelessRandomUniformIntV2',
                       'TensorListLength', 'Multinomial', 'ReduceJoin', 'StaticRegexReplace',
                       'StringLength', 'StringLower', 'StringStrip', 'StringUpper', 'Substr',
                       'TensorSliceDataset', 'MapDataset', 'BatchDatasetV2',
                       'StatelessRandomUniformFullIntV2', 'StatelessTruncatedNormalV2',
                       'ResourceScatterNdSub', 'ResourceGather'}
    # TensorFlow's row scatters (`Variable.scatter_update(IndexedSlices)`): built only by the
    # TensorFlow graphs loaded here (tests/autograph/saved_model/test_tensorflow_variable_ops.py)
    built_by_others |= {f'ResourceScatter{name}' for name in
                        ('Update', 'Add', 'Sub', 'Mul', 'Div', 'Min', 'Max')}
    # datasets' and summaries' ops (boxed values: dataset variants, writer resources), which
    # tests/runtime/data and tests/runtime/summary run; here they are only checked to compile
    run_by_their_own_tests = {name for name in REGISTRY if name.endswith('Dataset') or
                              name.endswith('DatasetV2') or name.endswith('DatasetV3')} | {
        'AnonymousIteratorV3', 'DatasetCardinality', 'DummySeedGenerator', 'IteratorGetNext',
        'IteratorGetNextAsOptional', 'MakeIterator', 'OptionalGetValue', 'OptionalHasValue',
        'EncodePng', 'FlushSummaryWriter', 'SummaryWriter', 'WriteGraphSummary', 'WriteSummary'}
    assert sorted(set(REGISTRY) - covered - structural - built_by_others -
                  run_by_their_own_tests) == []


# Many small programs: numba's compile time grows faster than a program's size (a third of
# the cases in one program took 80 s, in nine programs 58 s), and xdist balances them.
CHUNKS = 27


@pytest.mark.parametrize('chunk', range(CHUNKS))
def test_each_ops_cases_compiled_give_the_default_executors_results(chunk):
    cases = _cases()
    size = -(-len(cases) // CHUNKS)
    _compare(cases[chunk * size:(chunk + 1) * size])


def test_random_ops_compiled_give_the_default_executors_numbers():
    functions = [ag.do_not_convert(fn) for fn in RANDOM.values()]

    def program(x):
        return [fn(x) for fn in functions]
    x = rt.constant(I32.astype(np.float32))
    rt.random.set_seed(3)
    expected = ag.function(program)(x)
    rt.random.set_seed(3)
    got = ag.function(program, jit_compile=True)(x)
    for op_type, a, b in zip(RANDOM, got, expected):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, err_msg=op_type)
