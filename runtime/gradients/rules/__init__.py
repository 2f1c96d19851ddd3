"""The gradient of every op, attached to its OpDef after the ops exist (docs/gradients.md).

One module per family, as TensorFlow's `*_grad.py` files: each declares, with `defgradient`
(or `not_differentiable`) from `common`, the gradients of the ops of the runtime/ops/ modules it
names. `runtime.gradients` imports this package once; the op modules never import it.
"""
from runtime.gradients.rules import (
    array,
    array_extra,
    array_more,
    bitwise,
    control_flow,
    decompositions,
    image,
    image_geometry,
    linalg,
    linalg_more,
    lists,
    math,
    nn,
    nn_more,
    py_func,
    signal,
    special,
    special_bessel,
    state,
    strings,
)

__all__ = ['array', 'array_extra', 'array_more', 'bitwise', 'control_flow', 'decompositions',
           'image', 'image_geometry', 'linalg', 'linalg_more', 'lists', 'math', 'nn', 'nn_more',
           'py_func', 'signal', 'special', 'special_bessel', 'state', 'strings']
