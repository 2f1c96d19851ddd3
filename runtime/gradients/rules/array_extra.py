"""The gradients of runtime/ops/array_extra.py's ops, as TensorFlow's: DynamicPartition's
gradient stitches the partitions' gradients back into place, DynamicStitch's gathers each
data tensor's rows of the gradient; Bitcast and ParallelConcat have none in TensorFlow;
RandomIndexShuffle and Fingerprint (integer results) are not differentiable."""
from runtime.core.dtypes import int32
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.ops import array_extra, fingerprint, index_shuffle
from runtime.ops.array import cast
from runtime.ops.creation import range as range_
from runtime.ops.reduce import reduce_prod
from runtime.ops.registry import UNREGISTERED_GRADIENT
from runtime.ops.shaping import reshape, shape
from runtime.ops.slicing import gather


@defgradient(array_extra.DYNAMIC_PARTITION)
def _dynamic_partition_gradient(op, *grads):
    data, partitions = op.inputs
    prefix = shape(partitions)
    original = reshape(range_(reduce_prod(prefix)), prefix)
    parts = array_extra.dynamic_partition(original, partitions, op.get_attr('num_partitions'))
    return [reshape(array_extra.dynamic_stitch(parts, list(grads)), shape(data)), None]


@defgradient(array_extra.DYNAMIC_STITCH)
def _dynamic_stitch_gradient(op, grad):
    n = len(op.inputs) // 2
    indices = [i if i.dtype is int32 else cast(i, int32) for i in op.inputs[:n]]
    return [None] * n + [gather(grad, i) for i in indices]


defgradient(array_extra.BITCAST, array_extra.PARALLEL_CONCAT)(UNREGISTERED_GRADIENT)
not_differentiable(index_shuffle.RANDOM_INDEX_SHUFFLE, fingerprint.FINGERPRINT)
