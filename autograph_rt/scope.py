"""What of TensorFlow's public API is out of this project's scope, and why: the decisions the
namespace's errors quote and the ledger test counts by.

Everything TensorFlow has that is not listed here is in scope: implemented, or reported as not
implemented yet. A decision applies to a dotted TensorFlow path (`tf.keras`, `tf.RaggedTensor`)
and everything under it; `PATTERNS` decide by a word in the name (`ragged`, `sparse`). Each
decision names a `Reason`: why it is out of scope and what to use instead.
"""
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Reason:
    topic: str
    why: str
    instead: str


KERAS = Reason(
    'Keras', 'Keras is a separate library above TensorFlow; autograph_rt covers tf.function, '
    'tensors, ops, gradients, tf.data and checkpoints',
    'write layers as tf.Module subclasses holding tf.Variables, train them with tf.GradientTape '
    'and tf.optimizers.SGD / Adam')
DISTRIBUTE = Reason(
    'distribution strategies', 'the runtime runs each function in one process, on the CPU',
    'train data-parallel on Dask workers with autograph.distribute.DataParallel '
    '(docs/scale.md), or ship functions to worker processes with pickle (a Function with an '
    'input_signature pickles as its graph)')
COMPOSITE = Reason(
    'ragged and sparse tensors', 'tensors here are dense numpy arrays',
    'use dense tensors with padding and masks (Dataset.padded_batch, tf.boolean_mask, '
    'tf.sequence_mask, tf.where)')
ACCELERATOR = Reason(
    'accelerators and their compilers', 'the runtime computes with numpy on the CPU',
    "compile a function's graph to native code with tf.function(jit_compile=True) (numba)")
DTYPE = Reason(
    'dtypes numpy does not have', 'tensors hold numpy arrays, which have no such dtype',
    'use float16 / float32 / float64 and the int and uint dtypes numpy has')
TF1 = Reason(
    "TensorFlow 1's API", 'autograph_rt follows TensorFlow 2 (sessions, collections, feeds and '
    'queues are TensorFlow 1)',
    'use the TF 2 names: tf.function, tf.Graph().as_default(), tf.data')
NATIVE = Reason(
    "TensorFlow's native build and extension points", 'there is no TensorFlow library, C++ op '
    'kernel or plugin mechanism underneath',
    'write a new op in Python with tf.py_function / tf.numpy_function, or register an OpDef in '
    'runtime.ops')
TOOLING = Reason(
    "TensorFlow's own tooling", "it drives TensorFlow's C++ services (profiler, test "
    'harness, debugger dumps)',
    'use pytest and numpy.testing for tests, and cProfile or `autograph graph` to see where '
    'time goes')
DISPATCH = Reason(
    'extension types and API dispatch', 'user-defined composite tensors need TensorFlow\'s '
    'type-spec machinery',
    'use Python classes holding tensors (dataclasses, namedtuples); tf.nest walks them')

# tf.<path> -> the reason; a path covers every name under it
PATHS = {
    # Keras and TensorFlow's aliases of Keras modules
    'tf.keras': KERAS, 'tf.losses': KERAS, 'tf.metrics': KERAS, 'tf.initializers': KERAS,
    'tf.feature_column': KERAS, 'tf.estimator': KERAS, 'tf.optimizers.schedules': KERAS,
    'tf.optimizers.legacy': KERAS, 'tf.optimizers': KERAS, 'tf.nn.RNNCellDeviceWrapper': KERAS,
    'tf.nn.RNNCellDropoutWrapper': KERAS, 'tf.nn.RNNCellResidualWrapper': KERAS,
    'tf.nn.scale_regularization_loss': KERAS, 'tf.nn.compute_average_loss': DISTRIBUTE,
    # distribution
    'tf.distribute': DISTRIBUTE, 'tf.dtensor': DISTRIBUTE, 'tf.experimental.dtensor': DISTRIBUTE,
    'tf.data.experimental.service': DISTRIBUTE, 'tf.data.experimental.distributed_save': DISTRIBUTE,
    'tf.data.experimental.DistributeOptions': DISTRIBUTE,
    'tf.data.experimental.ServiceOptions': DISTRIBUTE,
    'tf.data.experimental.AutoShardPolicy': DISTRIBUTE,
    'tf.data.experimental.SHARD_HINT': DISTRIBUTE,
    'tf.config.experimental_connect_to_cluster': DISTRIBUTE,
    'tf.config.experimental_connect_to_host': DISTRIBUTE,
    'tf.config.experimental.ClusterDeviceFilters': DISTRIBUTE,
    'tf.train.ClusterSpec': DISTRIBUTE, 'tf.train.ClusterDef': DISTRIBUTE,
    'tf.train.JobDef': DISTRIBUTE, 'tf.train.ServerDef': DISTRIBUTE,
    'tf.train.Server': DISTRIBUTE, 'tf.train.Coordinator': DISTRIBUTE,
    'tf.train.experimental.ShardByTaskPolicy': DISTRIBUTE,
    'tf.train.experimental.MaxShardSizePolicy': DISTRIBUTE,
    'tf.train.experimental.ShardableTensor': DISTRIBUTE,
    'tf.train.experimental.ShardingCallback': DISTRIBUTE,
    'tf.types.experimental.distributed': DISTRIBUTE,
    'tf.VariableSynchronization': DISTRIBUTE, 'tf.VariableAggregation': DISTRIBUTE,
    'tf.data.experimental.copy_to_device': DISTRIBUTE,
    'tf.data.experimental.prefetch_to_device': DISTRIBUTE,
    # ragged, sparse and other composite tensors
    'tf.ragged': COMPOSITE, 'tf.sparse': COMPOSITE, 'tf.sets': COMPOSITE,
    'tf.IndexedSlices': COMPOSITE, 'tf.IndexedSlicesSpec': COMPOSITE,
    'tf.experimental.RowPartition': COMPOSITE, 'tf.experimental.StructuredTensor': COMPOSITE,
    'tf.experimental.DynamicRaggedShape': COMPOSITE, 'tf.io.VarLenFeature': COMPOSITE,
    'tf.nn.ctc_loss': COMPOSITE, 'tf.nn.ctc_beam_search_decoder': COMPOSITE,
    'tf.nn.ctc_greedy_decoder': COMPOSITE, 'tf.nn.ctc_unique_labels': COMPOSITE,
    'tf.edit_distance': COMPOSITE,  # its hypothesis and truth are SparseTensors
    # accelerators
    'tf.tpu': ACCELERATOR, 'tf.xla': ACCELERATOR, 'tf.experimental.tensorrt': ACCELERATOR,
    'tf.mlir': ACCELERATOR, 'tf.lite': ACCELERATOR, 'tf.quantization': ACCELERATOR,
    'tf.config.experimental.enable_mlir_bridge': ACCELERATOR,
    'tf.config.experimental.disable_mlir_bridge': ACCELERATOR,
    'tf.config.experimental.enable_tensor_float_32_execution': ACCELERATOR,
    'tf.config.experimental.tensor_float_32_execution_enabled': ACCELERATOR,
    'tf.config.experimental.get_memory_info': ACCELERATOR,
    'tf.config.experimental.get_memory_usage': ACCELERATOR,
    'tf.config.experimental.reset_memory_stats': ACCELERATOR,
    'tf.experimental.dlpack': ACCELERATOR, 'tf.math.approx_max_k': ACCELERATOR,
    'tf.math.approx_min_k': ACCELERATOR, 'tf.nn.approx_max_k': ACCELERATOR,
    'tf.nn.approx_min_k': ACCELERATOR, 'tf.approx_top_k': ACCELERATOR,
    'tf.check_pinned': ACCELERATOR, 'tf.guarantee_const': ACCELERATOR,
    'tf.nondifferentiable_batch_function': ACCELERATOR,
    'tf.image.generate_bounding_box_proposals': ACCELERATOR,  # TensorFlow has a GPU kernel only
    # dtypes numpy lacks, and TensorFlow's handle dtypes
    'tf.bfloat16': DTYPE, 'tf.dtypes.bfloat16': DTYPE, 'tf.qint8': DTYPE, 'tf.qint16': DTYPE,
    'tf.qint32': DTYPE, 'tf.quint8': DTYPE, 'tf.quint16': DTYPE, 'tf.dtypes.qint8': DTYPE,
    'tf.dtypes.qint16': DTYPE, 'tf.dtypes.qint32': DTYPE, 'tf.dtypes.quint8': DTYPE,
    'tf.dtypes.quint16': DTYPE, 'tf.dtypes.QUANTIZED_DTYPES': DTYPE,
    'tf.dtypes.experimental': DTYPE, 'tf.variant': DTYPE, 'tf.resource': DTYPE,
    'tf.experimental.float4_e2m1fn': DTYPE, 'tf.experimental.float8_e4m3b11fnuz': DTYPE,
    'tf.experimental.float8_e4m3fn': DTYPE, 'tf.experimental.float8_e4m3fnuz': DTYPE,
    'tf.experimental.float8_e5m2': DTYPE, 'tf.experimental.float8_e5m2fnuz': DTYPE,
    'tf.experimental.int2': DTYPE, 'tf.experimental.int4': DTYPE,
    'tf.experimental.uint2': DTYPE, 'tf.experimental.uint4': DTYPE,
    # TensorFlow 1
    'tf.compat': TF1, 'tf.queue': TF1, 'tf.data.experimental.make_saveable_from_iterator': TF1,
    'tf.variable_creator_scope': TF1,
    # native build, extension points and tooling
    'tf.raw_ops': NATIVE, 'tf.sysconfig': NATIVE, 'tf.load_library': NATIVE,
    'tf.load_op_library': NATIVE, 'tf.experimental.register_filesystem_plugin': NATIVE,
    'tf.security': NATIVE, 'tf.tools': NATIVE, 'tf.data.experimental.to_variant': NATIVE,
    'tf.data.experimental.from_variant': NATIVE, 'tf.experimental.function_executor_type': NATIVE,
    'tf.experimental.async_scope': NATIVE, 'tf.experimental.async_clear_error': NATIVE,
    'tf.profiler': TOOLING, 'tf.test': TOOLING, 'tf.debugging.experimental': TOOLING,
    'tf.summary.write_raw_pb': TOOLING, 'tf.summary.experimental.write_raw_pb': TOOLING,
    'tf.data.experimental.get_model_proto': TOOLING,
    # extension types and dispatch
    'tf.experimental.ExtensionType': DISPATCH, 'tf.experimental.BatchableExtensionType': DISPATCH,
    'tf.experimental.ExtensionTypeBatchEncoder': DISPATCH,
    'tf.experimental.ExtensionTypeSpec': DISPATCH, 'tf.experimental.extension_type': DISPATCH,
    'tf.experimental.dispatch_for_api': DISPATCH,
    'tf.experimental.dispatch_for_binary_elementwise_apis': DISPATCH,
    'tf.experimental.dispatch_for_binary_elementwise_assert_apis': DISPATCH,
    'tf.experimental.dispatch_for_unary_elementwise_apis': DISPATCH,
    'tf.experimental.unregister_dispatch_for': DISPATCH, 'tf.types': DISPATCH,
    'tf.register_tensor_conversion_function': DISPATCH,
}

# A name with one of these words is out of scope wherever it is (tf.io.RaggedFeature,
# tf.nn.embedding_lookup_sparse, tf.ragged_fill_empty_rows, tf.io.serialize_many_sparse, ...).
PATTERNS = ((re.compile(r'ragged|sparse', re.IGNORECASE), COMPOSITE),
            (re.compile(r'(^|_)tpu', re.IGNORECASE), ACCELERATOR))


def decision(path, patterns=True):
    """The `Reason` the TensorFlow name `path` ('tf.nn.ctc_loss') is out of scope, or None when
    it is in scope (`patterns=False`: by the listed paths alone)."""
    parts = path.split('.')
    for end in range(len(parts), 1, -1):
        reason = PATHS.get('.'.join(parts[:end]))
        if reason is not None:
            return reason
    for pattern, reason in PATTERNS if patterns else ():
        if pattern.search(parts[-1]):
            return reason
    return None


CODEC = Reason(
    'image codecs that need a library', 'decoding and encoding JPEG, WebP and JPEG XL pixels '
    'needs a codec library; the runtime depends on numpy alone (PNG, BMP and GIF are here, and '
    'tf.io.extract_jpeg_shape / is_jpeg read a JPEG header)',
    'decode such files with Pillow inside the input pipeline (tf.numpy_function), or store '
    'images as PNG')
PROTO = Reason(
    'protocol buffers by descriptor', 'decode_proto / encode_proto read any message through '
    "TensorFlow's descriptor pools, which are part of its C++ build",
    'parse the messages with the protobuf package in tf.numpy_function, or store '
    'tf.train.Example records and use tf.io.parse_example')
ICU = Reason(
    'Unicode character data', "unicode_script reads ICU's script tables, which are part of "
    "TensorFlow's native build", "use Python's unicodedata in tf.numpy_function")
PATHS.update({
    'tf.io.decode_jpeg': CODEC, 'tf.io.encode_jpeg': CODEC, 'tf.io.decode_and_crop_jpeg': CODEC,
    'tf.io.decode_webp': CODEC, 'tf.io.decode_jxl': CODEC,
    'tf.image.decode_jpeg': CODEC, 'tf.image.encode_jpeg': CODEC,
    'tf.image.decode_and_crop_jpeg': CODEC, 'tf.image.decode_webp': CODEC,
    'tf.image.decode_jxl': CODEC, 'tf.image.adjust_jpeg_quality': CODEC,
    'tf.image.random_jpeg_quality': CODEC, 'tf.image.stateless_random_jpeg_quality': CODEC,
    'tf.io.decode_proto': PROTO, 'tf.io.encode_proto': PROTO,
    'tf.strings.unicode_script': ICU,
})
