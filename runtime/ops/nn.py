"""Neural-network ops (`rt.nn`): activations, softmax, the cross entropies, bias_add, l2_loss,
dropout. Composites (gelu, silu, sigmoid_cross_entropy_with_logits, dropout) build the graph
TensorFlow builds for them.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.compare import greater_equal, where
from runtime.ops.convert import convert_to_tensor, stack, unify_inputs
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply, op_function, refused_dtype
from runtime.ops.elementwise import erfc, log1p
from runtime.ops.infer import broadcast_shape, same_as_input
from runtime.ops.linalg import clip_by_norm
from runtime.ops.math import exp, minimum, multiply, negative, sigmoid, sqrt, tanh
from runtime.ops.random import uniform
from runtime.ops.reduce import reduce_sum
from runtime.ops.registry import ELEMENTWISE, register
from runtime.ops.shaping import reshape, transpose
from runtime.ops.shaping import shape as shape_
from runtime.ops.slicing import gather

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _elu_kernel(features):
    return np.where(features > 0, features, np.expm1(np.minimum(features, 0))).astype(
        features.dtype)


def _selu_kernel(features):
    return (SELU_SCALE * np.where(features > 0, features, SELU_ALPHA * np.expm1(
        np.minimum(features, 0)))).astype(features.dtype)


def leaky_relu_alpha(alpha, dtype):
    """LeakyRelu's `alpha` as its kernel uses it: a float32 attr, then of the features' dtype
    (so float64 features see float32's 0.2, as in TensorFlow)."""
    return np.asarray(np.float32(alpha), dtype)


_ACTIVATIONS = {  # public name: (TensorFlow op, kernel, elementwise tag)
    'relu6': ('Relu6', lambda features: np.clip(features, 0, 6), ELEMENTWISE),
    'elu': ('Elu', _elu_kernel, ELEMENTWISE),
    'selu': ('Selu', _selu_kernel, None),  # the backends call its kernel
    'softsign': ('Softsign', lambda features: features / (1 + np.abs(features)), ELEMENTWISE),
}
ACTIVATION_OPS = {name: register(op, kernel, same_as_input, inputs=('features',),
                                 outputs=('activations',), elementwise=tag)
                  for name, (op, kernel, tag) in _ACTIVATIONS.items()}
LEAKY_RELU = register('LeakyRelu', lambda features, alpha=0.2: np.where(
    features > 0, features, features * leaky_relu_alpha(alpha, features.dtype)), same_as_input,
    inputs=('features',), outputs=('activations',), defaults={'alpha': 0.2},
    elementwise=ELEMENTWISE)


def _activation(public_name):
    opdef = ACTIVATION_OPS[public_name]

    def activation(features, name=None):
        x = convert_to_tensor(features)
        if public_name != 'relu6' or x.dtype.is_bool:  # Relu6 takes integers too (TF's)
            _check_float(x, public_name)
        return apply(opdef, [x], name=name)
    return op_function(activation, public_name, f'The {public_name} activation (op '
                                                f'`{opdef.name}`).')


def _check_float(x, public_name):
    if not x.dtype.is_floating:
        raise refused_dtype(f'rt.nn.{public_name} needs a floating-point tensor, got '
                            f'{x.dtype.name}; use rt.cast(x, rt.float32) first.', x)


relu6 = _activation('relu6')
elu = _activation('elu')
selu = _activation('selu')
softsign = _activation('softsign')


LEAKY_RELU_GRAD = register(
    'LeakyReluGrad', lambda gradients, features, alpha=0.2: np.where(
        features > 0, gradients, gradients * leaky_relu_alpha(alpha, gradients.dtype)),
    same_as_input, inputs=('gradients', 'features'), outputs=('backprops',),
    defaults={'alpha': 0.2},
    dtypes=frozenset((dtypes.float16, dtypes.float32, dtypes.float64)))


def leaky_relu(features, alpha=0.2, name=None):
    """`x` where positive, `alpha * x` elsewhere (op `LeakyRelu`)."""
    x = convert_to_tensor(features)
    _check_float(x, 'leaky_relu')
    return apply(LEAKY_RELU, [x], {'alpha': float(alpha)}, name=name)


# TensorFlow casts gelu's constants from float32 (`cast(0.7071067811865476, dtype)`), so float64
# gelu uses their float32 roundings; so does this
_GELU_SQRT_2_PI, _GELU_CUBE, _GELU_RSQRT2 = (
    float(np.float32(v)) for v in (0.7978845608028654, 0.044715, 0.7071067811865476))


def gelu(features, approximate=False, name=None):
    """The Gaussian error linear unit: `0.5 * x * erfc(-x / sqrt(2))`, or with `approximate`
    the tanh form `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x ** 3)))`."""
    x = convert_to_tensor(features)
    if not x.dtype.is_floating:  # TensorFlow's check here is a ValueError
        raise ValueError(f'rt.nn.gelu needs a floating-point tensor, got {x.dtype.name}.')
    if approximate:
        inner = _GELU_SQRT_2_PI * (x + _GELU_CUBE * x * x * x)
        return 0.5 * x * (1.0 + tanh(inner))
    return 0.5 * x * erfc(x * -_GELU_RSQRT2)


def silu(features, beta=1.0, name=None):
    """`x * sigmoid(beta * x)` (the swish activation)."""
    x = convert_to_tensor(features)
    _check_float(x, 'silu')
    return multiply(x, sigmoid(x if beta == 1.0 else beta * x), name=name)


swish = silu


# ---- softmax -----------------------------------------------------------------------------------

def _softmax_kernel(logits):
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=-1, keepdims=True)


def _log_softmax_kernel(logits):
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _logits_infer(inputs, attrs):
    x = inputs[0]
    if x.shape.rank == 0:
        raise ValueError('softmax needs logits of rank 1 or more, got a scalar')
    return [(x.dtype, x.shape)]


SOFTMAX = register('Softmax', _softmax_kernel, _logits_infer, inputs=('logits',),
                   outputs=('softmax',))
LOG_SOFTMAX = register('LogSoftmax', _log_softmax_kernel, _logits_infer, inputs=('logits',),
                       outputs=('logsoftmax',))


def _last_axis_op(opdef, logits, axis, public_name, name):
    """`opdef` (which works on the last axis) along `axis`: another axis is swapped to the end
    and back (`Transpose`), as TensorFlow does."""
    x = convert_to_tensor(logits)
    _check_float(x, public_name)
    rank = x.shape.rank
    if axis == -1 or rank is not None and axis == rank - 1:
        return apply(opdef, [x], name=name)
    if rank is None:
        raise ValueError(f'rt.nn.{public_name} along axis {axis} needs logits of known rank.')
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            message=f'axis {axis} is out of range for logits of rank {rank}')
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return transpose(apply(opdef, [transpose(x, perm)], name=name), perm)


def softmax(logits, axis=None, name=None):
    """`exp(x) / reduce_sum(exp(x), axis)` along `axis` (last by default; op `Softmax`)."""
    return _last_axis_op(SOFTMAX, logits, -1 if axis is None else int(axis), 'softmax', name)


def log_softmax(logits, axis=None, name=None):
    """`x - log(reduce_sum(exp(x), axis))` along `axis` (last by default; op `LogSoftmax`)."""
    return _last_axis_op(LOG_SOFTMAX, logits, -1 if axis is None else int(axis), 'log_softmax',
                         name)


# ---- cross entropies ---------------------------------------------------------------------------

def _softmax_xent_kernel(features, labels):
    log_p = _log_softmax_kernel(features)
    loss = -np.sum(labels * log_p, axis=-1)
    return loss.astype(features.dtype), (np.exp(log_p) - labels).astype(features.dtype)


def _softmax_xent_infer(inputs, attrs):
    logits, labels = inputs
    shape = broadcast_shape(logits.shape, labels.shape)
    if shape.rank is not None and shape.rank != 2:
        raise ValueError(f'logits and labels must be rank 2, got shapes {logits.shape} and '
                         f'{labels.shape}')
    rows = TensorShape(None if shape.rank is None else shape.as_list()[:1])
    return [(logits.dtype, rows), (logits.dtype, shape)]


SOFTMAX_XENT = register('SoftmaxCrossEntropyWithLogits', _softmax_xent_kernel,
                        _softmax_xent_infer, inputs=('features', 'labels'),
                        outputs=('loss', 'backprop'), convert_inputs=unify_inputs)


def _sparse_xent_kernel(features, labels):
    """TensorFlow's sparse cross entropy: with `shifted = features - max` and `total` the sum
    of `exp(shifted)` per row, loss = `log(total) - shifted[label]` and backprop =
    `exp(shifted) / total`, less 1 at the label."""
    n = features.shape[-1]
    # one test for both ends: a negative label is a huge unsigned one
    if (labels.view(labels.dtype.str.replace('i', 'u')) >= n).any():
        bad = labels[(labels < 0) | (labels >= n)][0]
        raise errors.InvalidArgumentError(
            message=f'Received a label value of {bad} which is outside the valid range of '
                    f'[0, {n}).')
    shifted = features - features.max(axis=-1, keepdims=True)
    backprop = np.exp(shifted)
    total = backprop.sum(axis=-1, keepdims=True)
    rows = np.arange(features.shape[0])
    loss = np.log(total[:, 0]) - shifted[rows, labels]
    backprop /= total
    backprop[rows, labels] -= 1
    return loss.astype(features.dtype, copy=False), backprop.astype(features.dtype, copy=False)


def _sparse_xent_infer(inputs, attrs):
    logits, labels = inputs
    if logits.shape.rank is not None and logits.shape.rank != 2 or \
            labels.shape.rank is not None and labels.shape.rank != 1:
        raise ValueError(f'logits must be rank 2 and labels rank 1, got shapes {logits.shape} '
                         f'and {labels.shape}')
    rows = TensorShape([None]).merge_with(TensorShape(logits.shape.as_list()[:1])
                                          if logits.shape.rank else TensorShape([None]))
    return [(logits.dtype, rows), (logits.dtype, logits.shape)]


SPARSE_SOFTMAX_XENT = register('SparseSoftmaxCrossEntropyWithLogits', _sparse_xent_kernel,
                               _sparse_xent_infer, inputs=('features', 'labels'),
                               outputs=('loss', 'backprop'),
                               type_attrs=(('T', 0), ('Tlabels', 1)))


def _rows_of(x, axis):
    """`x` with `axis` moved last and the other axes flattened: (matrix, restore(loss))."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError('softmax_cross_entropy_with_logits needs logits of known rank.')
    axis %= max(rank, 1)
    if axis != rank - 1:
        perm = list(range(rank))
        perm.append(perm.pop(axis))
        x = transpose(x, perm)
    if rank == 2:
        return x, lambda loss: loss
    outer = shape_(x)[:-1]
    return reshape(x, [-1, shape_(x)[-1]]), lambda loss: reshape(loss, outer)


def _dense_labels_and_logits(labels, logits, public_name):
    """Float logits, and labels of their dtype and a compatible shape."""
    logits = convert_to_tensor(logits)
    _check_float(logits, public_name)
    # a numpy array keeps its dtype, a Python list takes the logits' dtype
    labels = convert_to_tensor(labels, None if hasattr(labels, 'dtype') else logits.dtype)
    if labels.dtype is not logits.dtype:
        raise TypeError(f'rt.nn.{public_name}: labels and logits must have one dtype, got '
                        f'{labels.dtype.name} and {logits.dtype.name}.')
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError(f'rt.nn.{public_name}: labels and logits must have the same shape, '
                         f'got {labels.shape} and {logits.shape}.')
    return labels, logits


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """`-reduce_sum(labels * log_softmax(logits), axis)` per example (op
    `SoftmaxCrossEntropyWithLogits` on rank-2 rows; other ranks are reshaped around it)."""
    labels, logits = _dense_labels_and_logits(labels, logits,
                                              'softmax_cross_entropy_with_logits')
    rows, restore = _rows_of(logits, axis)
    label_rows, _ = _rows_of(labels, axis)
    loss, _ = apply(SOFTMAX_XENT, [rows, label_rows], name=name)
    return restore(loss)


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """`-log_softmax(logits)[label]` per example (op `SparseSoftmaxCrossEntropyWithLogits`);
    labels are int class indices of shape `logits.shape[:-1]`; one out of range is an
    `rt.errors.InvalidArgumentError` when it runs."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    _check_float(logits, 'sparse_softmax_cross_entropy_with_logits')
    if not labels.dtype.is_integer:
        raise TypeError(f'labels must be int32 or int64 class indices, got {labels.dtype.name}.')
    lr, rank = labels.shape.rank, logits.shape.rank
    if lr is not None and rank is not None and lr != rank - 1:
        raise ValueError(f'Rank mismatch: rank of labels (received {lr}) should equal rank of '
                         f'logits minus 1 (received {rank}).')
    if rank == 2:
        loss, _ = apply(SPARSE_SOFTMAX_XENT, [logits, labels], name=name)
        return loss
    outer = shape_(labels)
    loss, _ = apply(SPARSE_SOFTMAX_XENT, [reshape(logits, [-1, shape_(logits)[-1]]),
                                          reshape(labels, [-1])], name=name)
    return reshape(loss, outer)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """`max(x, 0) - x * z + log(1 + exp(-|x|))` for logits x and labels z: the stable form of
    `-z * log(sigmoid(x)) - (1 - z) * log(1 - sigmoid(x))`."""
    if labels is None or logits is None:
        raise ValueError('sigmoid_cross_entropy_with_logits needs both labels= and logits=.')
    labels, logits = _dense_labels_and_logits(labels, logits,
                                              'sigmoid_cross_entropy_with_logits')
    # TensorFlow's graph: `where`s on `logits >= 0`, so the gradient at logits 0 is
    # `sigmoid(0) - labels` (relu's and abs's gradients at their kinks are 0 and would drop it)
    zeros = zeros_like(logits)
    cond = greater_equal(logits, zeros)
    relu_logits = where(cond, logits, zeros)
    neg_abs_logits = where(cond, negative(logits), logits)
    return relu_logits - logits * labels + log1p(exp(neg_abs_logits))


# ---- L2Loss, BiasAdd, dropout ------------------------------------------------------------------

L2_LOSS = register('L2Loss', lambda t: (np.sum(np.square(t)) / 2).astype(t.dtype),
                   lambda inputs, attrs: [(inputs[0].dtype, TensorShape([]))], inputs=('t',),
                   outputs=('output',))


def l2_loss(t, name=None):
    """`reduce_sum(t ** 2) / 2` (op `L2Loss`)."""
    t = convert_to_tensor(t)
    _check_float(t, 'l2_loss')
    return apply(L2_LOSS, [t], name=name)


def _bias_add_infer(inputs, attrs):
    value, bias = inputs
    if bias.shape.rank is not None and bias.shape.rank != 1:
        raise ValueError(f'bias must be 1-D, got shape {bias.shape}')
    if value.shape.rank is not None:
        if value.shape.rank < 2:
            raise ValueError(f'value must have rank 2 or more, got shape {value.shape}')
        last = value.shape[-1]
        if last is not None and bias.shape.rank and bias.shape[0] is not None and \
                bias.shape[0] != last:
            raise ValueError(f'bias of shape {bias.shape} does not match the last dimension of '
                             f'value {value.shape}')
    return [(value.dtype, value.shape)]


BIAS_ADD = register('BiasAdd', lambda value, bias, data_format='NHWC': value + bias,
                    _bias_add_infer, inputs=('value', 'bias'), outputs=('output',),
                    defaults={'data_format': 'NHWC'}, convert_inputs=unify_inputs)


def bias_add(value, bias, data_format=None, name=None):
    """`value + bias` with a 1-D `bias` along the last axis (op `BiasAdd`)."""
    if data_format not in (None, 'NHWC', 'N...C'):
        raise ValueError(f'rt.nn.bias_add supports the channels-last data format only, got '
                         f'{data_format!r}.')
    return apply(BIAS_ADD, (value, bias), None, name)


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each entry with probability `rate` and scale the kept ones by `1 / (1 - rate)`
    (TensorFlow's graph: Mul, RandomUniform, GreaterEqual, SelectV2). A new mask each run."""
    x = convert_to_tensor(x)
    _check_float(x, 'dropout')
    if isinstance(rate, (int, float)):
        if not 0 <= rate < 1:
            raise ValueError(f'rate must be a scalar tensor or a float in the range [0, 1), got '
                             f'{rate}')
        if rate == 0:
            return x
    scale = 1 / (1 - rate) if isinstance(rate, (int, float)) else 1 / (1 - convert_to_tensor(
        rate, x.dtype))
    scaled = x * scale
    keep = greater_equal(uniform(shape_(x) if noise_shape is None else noise_shape,
                                 dtype=x.dtype, seed=seed), rate)
    return where(keep, scaled, 0.0, name=name)


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of `params` at `ids` (op `GatherV2`, as TensorFlow builds it for one table);
    with `max_norm`, rows whose L2 norm is larger are scaled down to it."""
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise ValueError('rt.nn.embedding_lookup takes one table; sharded tables (a list '
                             'of several) are not supported, concatenate them first.')
        params = params[0]
    rows = gather(params, ids, name=name)
    if max_norm is None:
        return rows
    return clip_by_norm(rows, max_norm, axes=[-1])


def global_norm(t_list, name=None):
    """The L2 norm of all the tensors of `t_list` together (None entries are skipped):
    `sqrt(sum(2 * l2_loss(t)))`, as TensorFlow builds it."""
    losses = [l2_loss(t) for t in t_list if t is not None]
    if not losses:
        raise ValueError('global_norm needs at least one tensor.')
    return sqrt(reduce_sum(stack(losses)) * 2.0, name=name)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """(`t_list` scaled by `clip_norm / max(global_norm, clip_norm)`, the global norm): the
    usual gradient clipping of a training step. None entries stay None."""
    t_list = list(t_list)
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    scale = clip_norm * minimum(1.0 / norm, 1.0 / clip_norm)
    return [None if t is None else convert_to_tensor(t) * scale for t in t_list], norm

