"""`rt.image`: image ops (re-exports of runtime/ops/image.py)."""
from runtime.ops.image import adjust_contrast

__all__ = ['adjust_contrast']
