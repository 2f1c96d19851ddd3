"""Image quality and boxes of `tf.image`: `ssim` and `ssim_multiscale` (as TensorFlow computes
them: a Gaussian window, luminance and contrast-structure terms, average-pooled scales),
`draw_bounding_boxes` (op `DrawBoundingBoxesV2`) and `crop_and_resize` (op `CropAndResize`,
with the gradient of the image)."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.array import cast
from runtime.ops.conv import avg_pool2d
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.dispatch import apply
from runtime.ops.image_color import convert_image_dtype
from runtime.ops.infer import constant_value
from runtime.ops.manipulation import pad
from runtime.ops.math import pow as pow_
from runtime.ops.math import relu, square
from runtime.ops.reduce import reduce_mean, reduce_prod
from runtime.ops.registry import NO_GRADIENT, register
from runtime.ops.shaping import reshape

MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _gaussian(size, sigma):
    """The 1-D factor of TensorFlow's 2-D Gaussian window (the window is its outer product)."""
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / 2
    g = np.exp(-0.5 * np.square(coords) / np.float32(sigma) ** 2)
    return (g / g.sum()).astype(np.float32)


def _filtered(x, weights):
    """`x` [..., h, w, c] filtered by the separable window, VALID."""
    size = len(weights)
    height, width = x.shape[-3], x.shape[-2]
    rows = sum(x[..., i:i + height - size + 1, :, :] * weights[i] for i in range(size))
    return sum(rows[..., j:j + width - size + 1, :] * weights[j] for j in range(size))


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2):
    height, width = img1.shape[-3], img1.shape[-2]
    if height is None or width is None:
        raise ValueError('ssim needs the image size known.')
    size = min(int(filter_size), height, width)
    if size < int(filter_size):
        raise errors.InvalidArgumentError(None, None, f'The image size ({height}x{width}) must '
                                          f'be at least filter_size ({filter_size}).')
    weights = _gaussian(size, filter_sigma)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mean0, mean1 = _filtered(img1, weights), _filtered(img2, weights)
    num0 = mean0 * mean1 * 2.0
    den0 = square(mean0) + square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = _filtered(img1 * img2, weights) * 2.0
    den1 = _filtered(square(img1) + square(img2), weights)
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return reduce_mean(luminance * cs, [-3, -2]), reduce_mean(cs, [-3, -2])


def _prepared(img1, img2, max_val):
    img1, img2 = convert_to_tensor(img1), convert_to_tensor(img2)
    if img1.shape.rank is not None and img1.shape.rank < 3:
        raise ValueError('ssim needs images of rank 3 or more.')
    max_val = convert_image_dtype(cast(convert_to_tensor(max_val), img1.dtype), dtypes.float32)
    return (convert_image_dtype(img1, dtypes.float32), convert_image_dtype(img2, dtypes.float32),
            max_val)


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """The structural similarity of two image batches (mean over channels)."""
    if return_index_map:
        raise errors.UnimplementedError(None, None, 'return_index_map=True is not supported '
                                        'here.')
    img1, img2, max_val = _prepared(img1, img2, max_val)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2)
    return reduce_mean(per_channel, [-1])


def ssim_multiscale(img1, img2, max_val, power_factors=MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM: the contrast-structure terms of successively 2x average-pooled images
    and the SSIM of the last scale, combined by `power_factors`."""
    img1, img2, max_val = _prepared(img1, img2, max_val)
    images = [img1, img2]
    lead = img1.shape.as_list()[:-3]
    scores = []
    per_channel = None
    for k in range(len(power_factors)):
        if k > 0:
            flat = [reshape(x, [-1] + x.shape.as_list()[-3:]) for x in images]
            height, width = flat[0].shape[1], flat[0].shape[2]
            if height % 2 or width % 2:
                flat = [pad(x, np.asarray([[0, 0], [0, height % 2], [0, width % 2], [0, 0]],
                                          np.int32), 'SYMMETRIC') for x in flat]
            pooled = [avg_pool2d(x, [1, 2, 2, 1], [1, 2, 2, 1], 'VALID') for x in flat]
            images = [reshape(x, lead + x.shape.as_list()[1:]) for x in pooled]
        per_channel, cs = _ssim_per_channel(*images, max_val, filter_size, filter_sigma, k1, k2)
        scores.append(relu(cs))
    scores.pop()
    stacked = stack(scores + [relu(per_channel)], -1)
    weighted = pow_(stacked, np.asarray(power_factors, np.float32))
    return reduce_mean(reduce_prod(weighted, [-1]), [-1])


# ---- boxes ----------------------------------------------------------------------------------
def _draw_kernel(images, boxes, colors):
    canvas = images.copy()
    _, height, width, depth = canvas.shape
    colors = np.asarray(colors, np.float32)
    for b in range(canvas.shape[0]):
        for index, box in enumerate(boxes[b]):
            color = colors[index % len(colors)][:depth]
            top, left = int(np.float32(box[0]) * (height - 1)), int(np.float32(box[1]) *
                                                                    (width - 1))
            bottom, right = int(np.float32(box[2]) * (height - 1)), int(np.float32(box[3]) *
                                                                        (width - 1))
            if top > bottom or left > right or top >= height or bottom < 0 or \
                    left >= width or right < 0:
                continue
            rows = slice(max(top, 0), min(bottom, height - 1) + 1)
            columns = slice(max(left, 0), min(right, width - 1) + 1)
            if top >= 0:
                canvas[b, top, columns] = color
            if bottom < height:
                canvas[b, bottom, columns] = color
            if left >= 0:
                canvas[b, rows, left] = color
            if right < width:
                canvas[b, rows, right] = color
    return canvas


DRAW_BOUNDING_BOXES = register(
    'DrawBoundingBoxesV2', _draw_kernel, lambda inputs, attrs: [(inputs[0].dtype,
                                                                 inputs[0].shape)],
    inputs=('images', 'boxes', 'colors'), outputs=('output',), gradient=NO_GRADIENT,
    dtypes=frozenset({dtypes.float16, dtypes.float32}))


def draw_bounding_boxes(images, boxes, colors, name=None):
    """`images` [batch, h, w, depth] with the outline of each box [ymin, xmin, ymax, xmax]
    (fractions of the size) drawn in `colors` in turn (op `DrawBoundingBoxesV2`)."""
    images = convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError('draw_bounding_boxes needs images of shape [batch, h, w, depth].')
    colors = convert_to_tensor(colors, dtypes.float32)
    return apply(DRAW_BOUNDING_BOXES, [images, cast(convert_to_tensor(boxes), dtypes.float32),
                                       colors], name=name)


def _crop_geometry(box, size, crop):
    """Where each of `crop` output positions samples along a dim of `size` (None outside)."""
    start, end, f = np.float32(box[0]), np.float32(box[1]), np.float32  # float32, as TF
    if crop > 1:
        scale = (end - start) * f(size - 1) / f(crop - 1)
        return [start * f(size - 1) + f(i) * scale for i in range(crop)]
    return [f(0.5) * (start + end) * f(size - 1)] * crop


def _crop_taps(box, size, crop, method):
    """Per output position: [(index, weight), ...], or None when outside the image."""
    taps = []
    for position in _crop_geometry(box, size, crop):
        if position < 0 or position > size - 1:
            taps.append(None)
        elif method == 'nearest':
            taps.append([(int(np.floor(position + 0.5)), 1.0)])  # half away from 0
        else:
            low, high = int(np.floor(position)), int(np.ceil(position))
            lerp = position - low
            taps.append([(low, 1 - lerp), (high, lerp)])
    return taps


def _crop_kernel(image, boxes, box_ind, crop_size, method='bilinear', extrapolation_value=0.0):
    crop_h, crop_w = (int(s) for s in crop_size)
    _, height, width, depth = image.shape
    out = np.empty((len(boxes), crop_h, crop_w, depth), np.float32)
    for n, (box, index) in enumerate(zip(boxes, box_ind)):
        if not 0 <= index < image.shape[0]:
            raise errors.InvalidArgumentError(None, None, f'box_index has values outside '
                                              f'[0, batch_size): {index}')
        rows = _crop_taps((box[0], box[2]), height, crop_h, method)
        columns = _crop_taps((box[1], box[3]), width, crop_w, method)
        for i, row_taps in enumerate(rows):
            for j, column_taps in enumerate(columns):
                if row_taps is None or column_taps is None:
                    out[n, i, j] = extrapolation_value
                    continue
                value = np.zeros(depth, np.float64)
                for r, wr in row_taps:
                    for c, wc in column_taps:
                        value += wr * wc * image[index, r, c]
                out[n, i, j] = value
    return out


def _crop_grad_kernel(grads, boxes, box_ind, image_size, method='bilinear', T=None):
    batch, height, width, depth = (int(s) for s in image_size)
    out = np.zeros((batch, height, width, depth), np.float64)
    crop_h, crop_w = grads.shape[1:3]
    for n, (box, index) in enumerate(zip(boxes, box_ind)):
        rows = _crop_taps((box[0], box[2]), height, crop_h, method)
        columns = _crop_taps((box[1], box[3]), width, crop_w, method)
        for i, row_taps in enumerate(rows):
            for j, column_taps in enumerate(columns):
                if row_taps is None or column_taps is None:
                    continue
                for r, wr in row_taps:
                    for c, wc in column_taps:
                        out[index, r, c] += wr * wc * grads[n, i, j]
    return out.astype(T.as_numpy_dtype if T is not None else np.float32)


def _crop_infer(inputs, attrs):
    image, boxes = inputs[0], inputs[1]
    value = constant_value(inputs[3])
    size = (None, None) if value is None else tuple(int(v) for v in np.ravel(value))
    depth = image.shape[3] if image.shape.rank == 4 else None
    return [(dtypes.float32, TensorShape([boxes.shape[0] if boxes.shape.rank else None,
                                          *size, depth]))]


CROP_AND_RESIZE = register(
    'CropAndResize', _crop_kernel, _crop_infer,
    inputs=('image', 'boxes', 'box_ind', 'crop_size'), outputs=('crops',),
    defaults={'method': 'bilinear', 'extrapolation_value': 0.0})
CROP_AND_RESIZE_GRAD_IMAGE = register(
    'CropAndResizeGradImage', _crop_grad_kernel,
    lambda inputs, attrs: [(attrs['T'], TensorShape([None] * 4))],
    inputs=('grads', 'boxes', 'box_ind', 'image_size'), outputs=('output',), type_attrs=(),
    defaults={'method': 'bilinear'})


def crop_and_resize(image, boxes, box_indices, crop_size, method='bilinear',
                    extrapolation_value=0.0, name=None):
    """A [crop_height, crop_width] crop of image `box_indices[i]` in each box (normalized
    [y1, x1, y2, x2]), sampled bilinearly or by nearest neighbour, float32 (op
    `CropAndResize`)."""
    image = convert_to_tensor(image)
    if method not in ('bilinear', 'nearest'):
        raise ValueError("method must be 'bilinear' or 'nearest'")
    crop = np.asarray(crop_size, np.int32)
    attrs = {'method': method, 'extrapolation_value': float(extrapolation_value)}
    return apply(CROP_AND_RESIZE, [image, cast(convert_to_tensor(boxes), dtypes.float32),
                                   cast(convert_to_tensor(box_indices), dtypes.int32), crop],
                 attrs, name=name)
