"""Automatic differentiation: `rt.GradientTape` and the gradients of If and While.

Each op's gradient is declared on its `OpDef` (docs/gradients.md); `backprop` walks recorded
ops backwards; `control_flow` differentiates If/While through their library functions.
"""
from runtime.gradients.tape import GradientTape, UnconnectedGradients

__all__ = ['GradientTape', 'UnconnectedGradients']
