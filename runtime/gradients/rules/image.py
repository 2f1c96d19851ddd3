"""The image ops of runtime/ops/image.py: TensorFlow registers no gradient for
AdjustContrastv2, so a gradient through it is its LookupError here too."""
from runtime.gradients.rules.common import defgradient
from runtime.ops import image
from runtime.ops.registry import UNREGISTERED_GRADIENT

defgradient(image.ADJUST_CONTRAST)(UNREGISTERED_GRADIENT)
