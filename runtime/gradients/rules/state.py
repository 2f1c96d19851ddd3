"""Ops that read or write state, which pass no gradient except a variable read: variables
(runtime/ops/state.py), the optimizers' updates (runtime/ops/training.py), the random
generators (runtime/ops/random.py, runtime/ops/stateless_random.py)."""
from runtime.core.tensor import Tensor
from runtime.gradients.rules.common import defgradient, not_differentiable
from runtime.ops import random, state, stateless_random, training
from runtime.ops.slicing import unsorted_segment_sum

# A read passes its gradient to the variable's handle: gradient tapes sum them per variable.
defgradient(state.READ)(lambda op, grad: [grad])




@defgradient(state.GATHER)
def _resource_gather_gradient(op, grad):
    """Dense (TensorFlow gives IndexedSlices): each gathered row's gradient summed into the
    variable's row, passed to the handle as a read's is."""
    handle, indices = op.inputs
    storage = handle if not isinstance(handle, Tensor) else handle.op.payload
    rows = storage.shape[0] if storage is not None else None
    if rows is None:
        raise NotImplementedError('The gradient of ResourceGather needs the variable\'s number '
                                  'of rows.')
    return [unsorted_segment_sum(grad, indices, rows), None]


not_differentiable(state.VAR_HANDLE, state.ASSIGN, state.ASSIGN_ADD, state.ASSIGN_SUB,
                   state.SCATTER_ND_UPDATE, state.SCATTER_ND_ADD, state.SCATTER_ND_SUB,
                   state.STRIDED_SLICE_ASSIGN, *state.ROW_SCATTERS.values())
not_differentiable(training.APPLY_GRADIENT_DESCENT, training.APPLY_KERAS_MOMENTUM,
                   training.APPLY_ADAM)
not_differentiable(random.UNIFORM, random.UNIFORM_INT, random.NORMAL, random.TRUNCATED_NORMAL,
                   random.SHUFFLE, random.MULTINOMIAL)
not_differentiable(stateless_random.GET_KEY_COUNTER, stateless_random.STATELESS_UNIFORM,
                   stateless_random.STATELESS_NORMAL, stateless_random.STATELESS_TRUNCATED_NORMAL,
                   stateless_random.STATELESS_UNIFORM_INT,
                   stateless_random.STATELESS_UNIFORM_FULL_INT, stateless_random.RNG_READ_AND_SKIP)
