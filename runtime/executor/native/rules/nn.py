"""Native rules of the training ops: the loss of sparse softmax cross-entropy (and its
backprop) and softmax and log-softmax along the last axis through helper loops, and the SGD
update of a variable (the value local of the variable becomes `var - alpha * delta`, stored
back when native code returns). Adam's and momentum's updates call their kernels."""
from runtime.executor.native.rules import Unsupported, cast, lowers, np_name
from runtime.ops import nn, training


@lowers(nn.SOFTMAX, nn.LOG_SOFTMAX)
def _softmax(lowering, node, inputs, depth):
    """Along the last axis of a float array of known rank: its rows as a matrix."""
    x = node.inputs[0]
    if not x.shape.rank or not x.dtype.is_floating or np_name(x.dtype) is None:
        raise Unsupported(node, 'native code takes the softmax of float arrays of known rank')
    rank, name = x.shape.rank, inputs[0]
    log = node.opdef is nn.LOG_SOFTMAX
    if rank == 2:
        return lowering.assign(node, f'softmax_rows({name}, {log})', depth, same=True)
    dims = ''.join(f'{name}.shape[{k}], ' for k in range(rank))
    rows = f'reshaped({name}, (-1, {name}.shape[{rank - 1}]))'
    return lowering.assign(node, f'reshaped(softmax_rows({rows}, {log}), ({dims}))', depth,
                           same=True)


@lowers(nn.SPARSE_SOFTMAX_XENT)
def _sparse_xent(lowering, node, inputs, depth):
    """(loss, backprop) of a matrix of logits and a vector of labels; a label out of range
    raises (the default executor then reports it)."""
    loss, backprop = lowering.fresh('loss'), lowering.fresh('backprop')
    lowering.line(depth, f'{loss}, {backprop} = sparse_xent({inputs[0]}, {inputs[1]})')
    return [loss, backprop]


@lowers(training.APPLY_GRADIENT_DESCENT)
def _gradient_descent(lowering, node, inputs, depth):
    variable, alpha, delta = inputs
    storage, _ = lowering.variables[variable]
    if storage.shape.rank and node.inputs[2].shape == storage.shape and \
            node.inputs[2].dtype is storage.dtype:
        update = f'descend({variable}, {alpha}, {delta})'  # a loop, not an array expression
    else:
        update = cast(node, f'{variable} - {alpha} * {delta}', (storage.dtype, storage.shape))
    lowering.line(depth, f'{variable} = {update}')
    lowering.assigned.add(variable)
    return []
