"""Native rules of the training ops: the loss of sparse softmax cross-entropy (and its
backprop) through a helper loop, and the SGD update of a variable (the value local of the
variable becomes `var - alpha * delta`, stored back when native code returns). Adam's and
momentum's updates call their kernels."""
from runtime.executor.native.rules import cast, lowers
from runtime.ops import nn, training


@lowers(nn.SPARSE_SOFTMAX_XENT)
def _sparse_xent(lowering, node, inputs, depth):
    """(loss, backprop) of a matrix of logits and a vector of labels; a label out of range
    raises (the default executor then reports it)."""
    loss, backprop = lowering.fresh('v'), lowering.fresh('v')
    lowering.line(depth, f'{loss}, {backprop} = sparse_xent({inputs[0]}, {inputs[1]})')
    return [loss, backprop]


@lowers(training.APPLY_GRADIENT_DESCENT)
def _gradient_descent(lowering, node, inputs, depth):
    variable, alpha, delta = inputs
    storage, _ = lowering.variables[variable]
    update = cast(node, f'{variable} - {alpha} * {delta}', (storage.dtype, storage.shape))
    lowering.line(depth, f'{variable} = {update}')
    lowering.assigned.add(variable)
    return []
