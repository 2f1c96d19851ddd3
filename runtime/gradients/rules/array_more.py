"""The gradients of runtime/ops/array_more.py's ops: Roll rolls
back, ReverseSequence reverses again, EnsureShape passes the gradient through; the index,
integer, rounding and clock ops are not differentiable (as in TensorFlow)."""
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.ops import array_more
from runtime.ops.dispatch import apply


@defgradient(array_more.ROLL)
def _roll_gradient(op, grad):
    _, shift, axis = op.inputs
    return [array_more.roll(grad, -shift, axis), None, None]


@defgradient(array_more.REVERSE_SEQUENCE)
def _reverse_sequence_gradient(op, grad):
    return [apply(array_more.REVERSE_SEQUENCE, [grad, op.inputs[1]],
                  {'seq_dim': op.get_attr('seq_dim'), 'batch_dim': op.get_attr('batch_dim')}),
            None]


defgradient(array_more.ENSURE_SHAPE)(lambda op, grad: [grad])
not_differentiable(array_more.UNIQUE, array_more.UNIQUE_WITH_COUNTS, array_more.UNRAVEL_INDEX,
                   array_more.LOWER_BOUND, array_more.UPPER_BOUND, array_more.RINT,
                   array_more.TRUNCATE_DIV, array_more.TRUNCATE_MOD,
                   array_more.INVERT_PERMUTATION, array_more.HISTOGRAM_FIXED_WIDTH,
                   array_more.TIMESTAMP)
