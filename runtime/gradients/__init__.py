"""Automatic differentiation: `rt.GradientTape` and the gradient of every op.

`rules` attaches each op's gradient to its `OpDef` (docs/gradients.md); `backprop` walks recorded
ops backwards; `rules.control_flow` differentiates If/While/Case through their library functions.
"""
from runtime.gradients import rules  # noqa: F401 - attaches the gradients to the OpDefs
from runtime.gradients.tape import GradientTape, UnconnectedGradients

__all__ = ['GradientTape', 'UnconnectedGradients']
