"""Image ops (`rt.image`): `adjust_contrast` (op `AdjustContrastv2`).

Images are tensors of shape `[..., height, width, channels]`, as in TensorFlow.
"""
import numpy as np

from runtime.core import dtypes, errors
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.math import clip_by_value, multiply
from runtime.ops.registry import register


def _adjust_contrast_kernel(images, contrast_factor):
    if images.ndim < 3:
        raise errors.InvalidArgumentError(
            message=f'input must be at least 3-D, got shape{list(images.shape)}')
    if np.ndim(contrast_factor) != 0:
        raise errors.InvalidArgumentError(
            message=f'contrast_factor must be scalar: {list(np.shape(contrast_factor))}')
    # each channel of each image moves away from (or towards) its mean over height and width
    mean = images.mean(axis=(-3, -2), keepdims=True, dtype=images.dtype)
    return ((images - mean) * contrast_factor + mean).astype(images.dtype)


def _adjust_contrast_infer(inputs, attrs):
    images = inputs[0]
    if images.shape.rank is not None and images.shape.rank < 3:
        raise ValueError(f'rt.image.adjust_contrast needs images of rank 3 or more '
                         f'([..., height, width, channels]), got shape {images.shape}.')
    return [(images.dtype, images.shape)]


ADJUST_CONTRAST = register('AdjustContrastv2', _adjust_contrast_kernel, _adjust_contrast_infer,
                           inputs=('images', 'contrast_factor'), outputs=('output',),
                           dtypes=frozenset({dtypes.float32}))


def adjust_contrast(images, contrast_factor, name=None):
    """`(x - mean) * contrast_factor + mean` for each channel of each image, `mean` its mean over
    height and width (op `AdjustContrastv2`, on float32). Other dtypes convert as TensorFlow's
    `convert_image_dtype` does: other floats are cast to float32 and back; integer images
    are scaled to [0, 1] (`x / max`), adjusted, then scaled back (`x * (max + 0.5)`), clipped
    to the dtype's range and cast."""
    images = convert_to_tensor(images)
    dtype = images.dtype
    if not (dtype.is_floating or dtype.is_integer):
        raise TypeError(f'rt.image.adjust_contrast needs images of a float or integer dtype, '
                        f'got {dtype.name}.')
    floats = images if dtype is dtypes.float32 else cast(images, dtypes.float32)
    if dtype.is_integer:
        floats = multiply(floats, np.float32(1.0 / dtype.max))
    factor = convert_to_tensor(contrast_factor, dtypes.float32)
    adjusted = apply(ADJUST_CONTRAST, [floats, factor], name=name or 'AdjustContrastv2')
    if dtype.is_integer:  # TensorFlow's saturate_cast of the scaled values
        adjusted = clip_by_value(multiply(adjusted, np.float32(dtype.max + 0.5)),
                                 np.float32(dtype.min), np.float32(dtype.max))
    return adjusted if dtype is dtypes.float32 else cast(adjusted, dtype)
