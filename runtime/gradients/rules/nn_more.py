"""The gradients of runtime/ops/space_batch.py's and runtime/ops/conv3d.py's ops, as
TensorFlow's: SpaceToBatchND and BatchToSpaceND are each other's gradients."""
from runtime.gradients.rules.common import defgradient
from runtime.ops import space_batch
from runtime.ops.dispatch import apply


@defgradient(space_batch.SPACE_TO_BATCH_ND)
def _space_to_batch_gradient(op, grad):
    _, block_shape, paddings = op.inputs
    return [apply(space_batch.BATCH_TO_SPACE_ND, [grad, block_shape, paddings]), None, None]


@defgradient(space_batch.BATCH_TO_SPACE_ND)
def _batch_to_space_gradient(op, grad):
    _, block_shape, crops = op.inputs
    return [apply(space_batch.SPACE_TO_BATCH_ND, [grad, block_shape, crops]), None, None]
