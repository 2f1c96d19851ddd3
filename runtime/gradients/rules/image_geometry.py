"""The gradients of the resize, patch and color ops of runtime/ops/image_{resize,geometry,
color}.py, as TensorFlow's image_grad.py and array_grad.py: a resize's gradient is its
`*Grad` op; `ExtractImagePatches` sums each patch's gradient back onto the pixels it took."""
import numpy as np

from runtime.gradients.rules.common import defgradient
from runtime.ops import image_color, image_geometry, image_quality, image_resize
from runtime.ops.dispatch import apply
from runtime.ops.registry import UNREGISTERED_GRADIENT
from runtime.ops.shaping import reshape, shape, transpose
from runtime.ops.slicing import unsorted_segment_sum


def _resize_grad(method):
    def gradient(op, grad):
        original = op.inputs[0] if method != 'nearest' else shape(op.inputs[0])[1:3]
        attrs = {'align_corners': op.get_attr('align_corners'),
                 'half_pixel_centers': op.get_attr('half_pixel_centers')}
        return [apply(image_resize.RESIZE_GRAD_OPS[method], [grad, original], attrs), None]
    return gradient


for _method, _opdef in image_resize.RESIZE_OPS.items():
    defgradient(_opdef)(_resize_grad(_method))
defgradient(*image_resize.RESIZE_GRAD_OPS.values())(UNREGISTERED_GRADIENT)


@defgradient(image_geometry.EXTRACT_PATCHES)
def _extract_patches_grad(op, grad):
    images = op.inputs[0]
    _, height, width, depth = images.shape.as_list()
    source = np.arange(height * width, dtype=np.float64).reshape(1, height, width, 1) + 1
    taken = image_geometry.EXTRACT_PATCHES.kernel(
        source, op.get_attr('ksizes'), op.get_attr('strides'), op.get_attr('rates'),
        op.get_attr('padding'))[0]
    out_h, out_w = taken.shape[:2]
    kh, kw = op.get_attr('ksizes')[1:3]
    pixels = taken.reshape(out_h * out_w * kh * kw).astype(np.int64)  # 0: padding
    grads = reshape(grad, [-1, out_h * out_w * kh * kw, depth])
    per_pixel = unsorted_segment_sum(transpose(grads, [1, 0, 2]), pixels, height * width + 1)
    image_grad = reshape(transpose(per_pixel[1:], [1, 0, 2]), [-1, height, width, depth])
    return [image_grad]


# TensorFlow registers no gradient for these (RGBToHSV's is not here yet)
defgradient(image_color.HSV_TO_RGB, image_color.ADJUST_HUE, image_color.ADJUST_SATURATION,
            image_color.RGB_TO_HSV)(UNREGISTERED_GRADIENT)


@defgradient(image_quality.CROP_AND_RESIZE)
def _crop_and_resize_grad(op, grad):
    """The image's gradient (op `CropAndResizeGradImage`); the boxes' is not here yet."""
    image = op.inputs[0]
    image_grad = apply(image_quality.CROP_AND_RESIZE_GRAD_IMAGE,
                       [grad, op.inputs[1], op.inputs[2], shape(image)],
                       {'method': op.get_attr('method'), 'T': image.dtype})
    return [image_grad, None, None, None]


defgradient(image_quality.CROP_AND_RESIZE_GRAD_IMAGE)(UNREGISTERED_GRADIENT)
