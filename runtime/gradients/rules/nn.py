"""The gradients of the neural-network ops (TensorFlow's nn_grad.py): activations, softmax, the
cross entropies, bias_add, l2_loss (runtime/ops/nn.py), convolution and pooling
(runtime/ops/conv.py, where each op's gradient is another op of that module)."""
from runtime.gradients.rules.common import defgradient
from runtime.ops import conv, nn
from runtime.ops.compare import greater, less, logical_and, where
from runtime.ops.conv import (
    AVG_POOL,
    AVG_POOL_GRAD,
    BACKPROP_FILTER,
    BACKPROP_INPUT,
    CONV2D,
    MAX_POOL_GRAD,
    MAX_POOL_GRAD_GRAD,
)
from runtime.ops.convert import convert_to_tensor
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.math import abs as abs_
from runtime.ops.math import exp, negative, square
from runtime.ops.nn import SELU_ALPHA, SELU_SCALE, log_softmax, softmax
from runtime.ops.reduce import reduce_sum
from runtime.ops.shaping import expand_dims
from runtime.ops.shaping import shape as shape_

# ---- activations, softmax, the cross entropies (runtime.ops.nn) --------------------------------

def _backprop_term(logits, backprop_grad):
    """What the `backprop` output (softmax(logits) - labels) passes back to the logits: the
    softmax Jacobian applied to its gradient."""
    p = softmax(logits)
    return p * (backprop_grad - reduce_sum(backprop_grad * p, -1, keepdims=True))


@defgradient(nn.ACTIVATION_OPS['relu6'])
def _relu6_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    return [where(logical_and(greater(x, 0), less(x, 6)), grad, 0)]


# Elu's and Selu's gradients take the exponential branch only where the output is negative
# (TensorFlow's EluGrad/SeluGrad): at 0 the slope is the linear one, and nan passes the gradient.
@defgradient(nn.ACTIVATION_OPS['elu'])
def _elu_gradient(op, grad):
    y = op.outputs[0]
    return [where(less(y, 0), grad * (y + 1), grad)]


@defgradient(nn.ACTIVATION_OPS['selu'])
def _selu_gradient(op, grad):
    y = op.outputs[0]
    return [where(less(y, 0), grad * (y + SELU_SCALE * SELU_ALPHA), grad * SELU_SCALE)]


@defgradient(nn.ACTIVATION_OPS['softsign'])
def _softsign_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    return [grad / square(1.0 + abs_(x))]


# LeakyRelu's gradient is an op whose own gradient is zero with respect to the features (as
# TensorFlow's LeakyReluGrad), so a second derivative is zeros, not unconnected
defgradient(nn.LEAKY_RELU)(lambda op, grad: [apply(nn.LEAKY_RELU_GRAD, [grad, op.inputs[0]],
                                                   {'alpha': op.get_attr('alpha')})])
defgradient(nn.LEAKY_RELU_GRAD)(lambda op, grad: [
    apply(nn.LEAKY_RELU_GRAD, [grad, op.inputs[1]], {'alpha': op.get_attr('alpha')}),
    zeros_like(op.inputs[1])])


@defgradient(nn.SOFTMAX)
def _softmax_gradient(op, grad):
    y = op.outputs[0]
    return [y * (grad - reduce_sum(grad * y, -1, keepdims=True))]


@defgradient(nn.LOG_SOFTMAX)
def _log_softmax_gradient(op, grad):
    y = op.outputs[0]
    return [grad - exp(y) * reduce_sum(grad, -1, keepdims=True)]


def _xent_logits_gradient(op, loss_grad, backprop_grad):
    """The gradient of a cross entropy's logits: the loss's term (its `backprop` output scaled
    by the loss gradient) and the `backprop` output's own term (its softmax Jacobian), each
    left out when its output's gradient is None (nothing depends on it)."""
    grad = None if loss_grad is None else expand_dims(loss_grad, -1) * op.outputs[1]
    if backprop_grad is not None:
        term = _backprop_term(convert_to_tensor(op.inputs[0]), backprop_grad)
        grad = term if grad is None else grad + term
    return grad


@defgradient(nn.SOFTMAX_XENT, takes_none=True)
def _softmax_xent_gradient(op, loss_grad, backprop_grad):
    labels_grad = None
    if loss_grad is not None:
        labels_grad = negative(expand_dims(loss_grad, -1)) * log_softmax(op.inputs[0])
    if backprop_grad is not None:
        labels_grad = negative(backprop_grad) if labels_grad is None else \
            labels_grad - backprop_grad
    return [_xent_logits_gradient(op, loss_grad, backprop_grad), labels_grad]


@defgradient(nn.SPARSE_SOFTMAX_XENT, takes_none=True)
def _sparse_xent_gradient(op, loss_grad, backprop_grad):
    return [_xent_logits_gradient(op, loss_grad, backprop_grad), None]


@defgradient(nn.BIAS_ADD)
def _bias_add_gradient(op, grad):
    rank = grad.shape.rank
    return [grad, reduce_sum(grad, list(range(rank - 1)))]


defgradient(nn.L2_LOSS)(lambda op, grad: [convert_to_tensor(op.inputs[0]) * grad])


# ---- convolution and pooling (runtime.ops.conv) ------------------------------------------------

def _conv_attrs(op):
    return {'strides': op.get_attr('strides'), 'padding': op.get_attr('padding')}


def _pool_attrs(op):
    return {k: op.get_attr(k) for k in ('ksize', 'strides', 'padding')}


@defgradient(conv.CONV2D)
def _conv2d_gradient(op, grad):
    x, f = (convert_to_tensor(t) for t in op.inputs)
    return [apply(BACKPROP_INPUT, [shape_(x), f, grad], _conv_attrs(op)),
            apply(BACKPROP_FILTER, [x, shape_(f), grad], _conv_attrs(op))]


@defgradient(conv.BACKPROP_INPUT)
def _backprop_input_gradient(op, grad):
    _, f, dy = (convert_to_tensor(t) for t in op.inputs)
    return [None, apply(BACKPROP_FILTER, [grad, shape_(f), dy], _conv_attrs(op)),
            apply(CONV2D, [grad, f], _conv_attrs(op))]


@defgradient(conv.BACKPROP_FILTER)
def _backprop_filter_gradient(op, grad):
    x, _, dy = (convert_to_tensor(t) for t in op.inputs)
    return [apply(BACKPROP_INPUT, [shape_(x), grad, dy], _conv_attrs(op)), None,
            apply(CONV2D, [x, grad], _conv_attrs(op))]


@defgradient(conv.MAX_POOL)
def _max_pool_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    return [apply(MAX_POOL_GRAD, [x, op.outputs[0], grad], _pool_attrs(op))]


@defgradient(conv.MAX_POOL_GRAD)
def _max_pool_grad_gradient(op, grad):
    x, y, _ = (convert_to_tensor(t) for t in op.inputs)
    return [zeros_like(x), zeros_like(y), apply(MAX_POOL_GRAD_GRAD, [x, y, grad],
                                                _pool_attrs(op))]


@defgradient(conv.MAX_POOL_GRAD_GRAD)
def _max_pool_grad_grad_gradient(op, grad):
    x, y, _ = (convert_to_tensor(t) for t in op.inputs)
    return [zeros_like(x), zeros_like(y), apply(MAX_POOL_GRAD, [x, y, grad], _pool_attrs(op))]


@defgradient(conv.AVG_POOL)
def _avg_pool_gradient(op, grad):
    x = convert_to_tensor(op.inputs[0])
    return [apply(AVG_POOL_GRAD, [shape_(x), grad], _pool_attrs(op))]


defgradient(conv.AVG_POOL_GRAD)(lambda op, grad: [None, apply(AVG_POOL, [grad],
                                                                _pool_attrs(op))])
