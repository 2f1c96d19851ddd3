"""Optimizer updates as single ops (TensorFlow's training ops), one per variable and step.

Each reads and writes a variable's storage (and its slot variables') through resource handles,
like `AssignVariableOp`, and computes the update in one numpy kernel. Stored values are
replaced, never changed in place: tensors read earlier keep their values.
"""
import numpy as np

from runtime.ops.infer import no_outputs
from runtime.ops.registry import register


def _gradient_descent(var, alpha, delta, use_locking=False):
    var.value = var.value - alpha * delta


def _keras_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False):
    accum.value = accum.value * momentum - lr * grad
    if use_nesterov:
        var.value = var.value + accum.value * momentum - lr * grad
    else:
        var.value = var.value + accum.value


def _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
          use_locking=False, use_nesterov=False):
    dtype = var.value.dtype.type
    one = dtype(1)
    alpha = lr * np.sqrt(one - beta2_power) / (one - beta1_power)
    # The same arithmetic as `m + (grad - m) * (1 - beta1)` etc., in fresh buffers written in
    # place (two new arrays per value instead of five temporaries).
    m_old, v_old = m.value, v.value
    new_m = np.subtract(grad, m_old)
    new_m *= one - beta1
    new_m += m_old
    new_v = np.multiply(grad, grad)
    new_v -= v_old
    new_v *= one - beta2
    new_v += v_old
    step = np.multiply(alpha, new_m)
    denominator = np.sqrt(new_v)
    denominator += epsilon
    step /= denominator
    m.value, v.value = new_m, new_v
    var.value = np.subtract(var.value, step, out=step) if type(step) is np.ndarray else \
        var.value - step


_DEFAULTS = {'use_locking': False}
APPLY_GRADIENT_DESCENT = register(
    'ResourceApplyGradientDescent', _gradient_descent, no_outputs,
    inputs=('var', 'alpha', 'delta'), outputs=(), type_attrs=(('T', 2),), defaults=_DEFAULTS,
    stateful=True)
APPLY_KERAS_MOMENTUM = register(
    'ResourceApplyKerasMomentum', _keras_momentum, no_outputs,
    inputs=('var', 'accum', 'lr', 'grad', 'momentum'), outputs=(), type_attrs=(('T', 3),),
    defaults={**_DEFAULTS, 'use_nesterov': False}, stateful=True)
APPLY_ADAM = register(
    'ResourceApplyAdam', _adam, no_outputs,
    inputs=('var', 'm', 'v', 'beta1_power', 'beta2_power', 'lr', 'beta1', 'beta2', 'epsilon',
            'grad'), outputs=(), type_attrs=(('T', 9),),
    defaults={**_DEFAULTS, 'use_nesterov': False}, stateful=True)
