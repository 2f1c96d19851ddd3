"""Geometry of `tf.image`: flips, rotations, crops, pads, `resize_with_pad`, image gradients,
Sobel edges, total variation, the random flips and crops, `extract_patches` and non-maximum
suppression (ops `NonMaxSuppressionV3`/`V4`/`V5`, `NonMaxSuppressionWithOverlaps`)."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.array import cast
from runtime.ops.compare import less, where
from runtime.ops.convert import convert_to_tensor, stack
from runtime.ops.creation import zeros_like
from runtime.ops.dispatch import apply
from runtime.ops.image_resize import resize
from runtime.ops.manipulation import pad, reverse
from runtime.ops.manipulation import slice as slice_
from runtime.ops.math import abs as abs_
from runtime.ops.math import mod
from runtime.ops.math import round as round_
from runtime.ops.random import uniform
from runtime.ops.reduce import reduce_sum
from runtime.ops.registry import NO_GRADIENT, register
from runtime.ops.shaping import concat, reshape, shape, transpose
from runtime.ops.stateless_random import stateless_uniform


def _image(image, what='image'):
    image = convert_to_tensor(image)
    if image.shape.rank not in (3, 4):
        raise ValueError(f"'{what}' must have either 3 or 4 dimensions, got shape "
                         f'{image.shape}.')
    return image


def _axis(image, axis):
    """The height (0) or width (1) axis of a 3-D image or a batch."""
    return axis + (image.shape.rank - 3)


def flip_left_right(image):
    """The image mirrored left to right (op `ReverseV2`)."""
    image = _image(image)
    return reverse(image, [_axis(image, 1)])


def flip_up_down(image):
    """The image mirrored top to bottom (op `ReverseV2`)."""
    image = _image(image)
    return reverse(image, [_axis(image, 0)])


def transpose_image(image, name=None):
    """Height and width swapped (op `Transpose`)."""
    image = _image(image)
    perm = [1, 0, 2] if image.shape.rank == 3 else [0, 2, 1, 3]
    return transpose(image, perm)


def rot90(image, k=1, name=None):
    """The image rotated counter-clockwise by `k` quarter turns."""
    image = _image(image)
    k = int(k) % 4
    if k == 0:
        return image
    if k == 2:
        return reverse(image, [_axis(image, 0), _axis(image, 1)])
    if k == 1:
        return transpose_image(reverse(image, [_axis(image, 1)]))
    return reverse(transpose_image(image), [_axis(image, 1)])


def _flip_randomly(image, axis, draw):
    image = _image(image)
    if image.shape.rank == 3:
        return where(less(draw([]), 0.5), reverse(image, [axis]), image)
    flips = cast(round_(reshape(draw(shape(image)[:1]), [-1, 1, 1, 1])), image.dtype)
    return flips * reverse(image, [axis + 1]) + (1 - flips) * image


def random_flip_left_right(image, seed=None):
    """Each image flipped left to right with probability 1/2."""
    return _flip_randomly(image, 1, lambda s: uniform(s, 0, 1.0, seed=seed))


def random_flip_up_down(image, seed=None):
    """Each image flipped top to bottom with probability 1/2."""
    return _flip_randomly(image, 0, lambda s: uniform(s, 0, 1.0, seed=seed))


def stateless_random_flip_left_right(image, seed):
    """`random_flip_left_right` fixed by `seed` (two ints)."""
    return _flip_randomly(image, 1, lambda s: stateless_uniform(s, seed, 0, 1.0))


def stateless_random_flip_up_down(image, seed):
    """`random_flip_up_down` fixed by `seed`."""
    return _flip_randomly(image, 0, lambda s: stateless_uniform(s, seed, 0, 1.0))


def _hw(image):
    return image.shape[_axis(image, 0)], image.shape[_axis(image, 1)]


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The [target_height, target_width] window at (offset_height, offset_width)."""
    image = _image(image)
    height, width = _hw(image)
    if offset_height < 0 or offset_width < 0:
        raise ValueError('offset_height and offset_width must be >= 0.')
    if target_height <= 0 or target_width <= 0:
        raise ValueError('target_height and target_width must be > 0.')
    if height is not None and offset_height + target_height > height or \
            width is not None and offset_width + target_width > width:
        raise ValueError('The crop reaches past the image.')
    lead = [0] * (image.shape.rank - 3)
    return slice_(image, lead + [offset_height, offset_width, 0],
                  [-1] * len(lead) + [target_height, target_width, -1])


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The image on a [target_height, target_width] canvas of zeros at the offsets."""
    image = _image(image)
    height, width = _hw(image)
    after_h, after_w = target_height - offset_height - height, \
        target_width - offset_width - width
    if offset_height < 0 or offset_width < 0 or after_h < 0 or after_w < 0:
        raise ValueError('The image does not fit the target at the offsets.')
    paddings = [[0, 0]] * (image.shape.rank - 3) + [[offset_height, after_h],
                                                    [offset_width, after_w], [0, 0]]
    return pad(image, np.asarray(paddings, np.int32))


def central_crop(image, central_fraction):
    """The central `central_fraction` (in (0, 1]) of each dimension."""
    image = _image(image)
    if not 0.0 < central_fraction <= 1.0:
        raise ValueError('central_fraction must be within (0, 1]')
    if central_fraction == 1.0:
        return image
    height, width = _hw(image)
    top = int((height - height * central_fraction) / 2)
    left = int((width - width * central_fraction) / 2)
    return crop_to_bounding_box(image, top, left, height - 2 * top, width - 2 * left)


def resize_with_crop_or_pad(image, target_height, target_width):
    """The image cropped or zero-padded, centered, to [target_height, target_width]."""
    image = _image(image)
    height, width = _hw(image)
    diff_h, diff_w = target_height - height, target_width - width
    cropped = crop_to_bounding_box(image, max(-diff_h // 2, 0), max(-diff_w // 2, 0),
                                   min(target_height, height), min(target_width, width))
    return pad_to_bounding_box(cropped, max(diff_h // 2, 0), max(diff_w // 2, 0),
                               target_height, target_width)


def resize_with_pad(image, target_height, target_width, method='bilinear', antialias=False):
    """The image resized to fit [target_height, target_width] keeping its aspect ratio, then
    centered on zeros."""
    image = _image(image)
    height, width = _hw(image)
    ratio = max(np.float32(width) / np.float32(target_width),
                np.float32(height) / np.float32(target_height))
    resized_h, resized_w = np.float32(height) / ratio, np.float32(width) / ratio
    resized = resize(image, [int(np.floor(resized_h)), int(np.floor(resized_w))], method,
                     antialias=antialias)
    top = max(0, int((np.float32(target_height) - resized_h) / 2))
    left = max(0, int((np.float32(target_width) - resized_w) / 2))
    return pad_to_bounding_box(resized, top, left, target_height, target_width)


def _random_crop(value, size, draw):
    value = convert_to_tensor(value)
    size = np.asarray(size, np.int32)
    dims = value.shape.as_list()
    if None in dims:
        raise ValueError('random_crop needs the shape of `value` known.')
    limit = np.asarray(dims, np.int32) - size + 1
    if (limit <= 0).any():
        raise errors.InvalidArgumentError(None, None, 'Need value.shape >= size, got '
                                          f'{dims} and {size.tolist()}')
    offset = mod(draw([len(dims)]), limit)
    return slice_(value, offset, size)


def random_crop(value, size, seed=None, name=None):
    """A window of `size` at a random place in `value`."""
    return _random_crop(value, size, lambda s: uniform(s, 0, np.iinfo(np.int32).max,
                                                       dtype=dtypes.int32, seed=seed))


def stateless_random_crop(value, size, seed, name=None):
    """`random_crop` fixed by `seed`."""
    return _random_crop(value, size, lambda s: stateless_uniform(
        s, seed, 0, np.iinfo(np.int32).max, dtype=dtypes.int32))


def total_variation(images, name=None):
    """The sum of absolute differences of neighbouring pixels (per image for a batch)."""
    images = _image(images, 'images')
    if images.dtype is dtypes.uint8:  # TensorFlow's Abs takes no unsigned integers
        raise errors.InvalidArgumentError(None, None, f'Abs does not take {images.dtype.name}.')
    h, w = _axis(images, 0), _axis(images, 1)
    axis = None if images.shape.rank == 3 else [1, 2, 3]
    rank = images.shape.rank
    down = _along(images, h, rank, slice(1, None)) - _along(images, h, rank, slice(None, -1))
    right = _along(images, w, rank, slice(1, None)) - _along(images, w, rank, slice(None, -1))
    return reduce_sum(abs_(down), axis) + reduce_sum(abs_(right), axis)


def _along(x, axis, rank, part):
    return x[tuple(part if i == axis else slice(None) for i in range(rank))]


def image_gradients(image):
    """(dy, dx): the differences to the next row and column, zero on the last ones, of a
    [batch, height, width, channels] tensor."""
    image = convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f'image_gradients expects a 4D tensor [batch_size, h, w, d], not '
                         f'{image.shape}.')
    dy = image[:, 1:] - image[:, :-1]
    dx = image[:, :, 1:] - image[:, :, :-1]
    dy = concat([dy, zeros_like(image[:, :1])], 1)
    dx = concat([dx, zeros_like(image[:, :, :1])], 2)
    return dy, dx


_SOBEL = (np.asarray([[-1, -2, -1], [0, 0, 0], [1, 2, 1]], np.float32),
          np.asarray([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], np.float32))


def sobel_edges(image):
    """The Sobel derivatives (vertical, horizontal) of each channel, as [..., channels, 2],
    over the reflect-padded image."""
    image = convert_to_tensor(image)
    if image.shape.rank != 4:
        raise ValueError('sobel_edges expects a 4D tensor [batch_size, h, w, d].')
    padded = pad(image, np.asarray([[0, 0], [1, 1], [1, 1], [0, 0]], np.int32), 'REFLECT')
    height, width = image.shape[1], image.shape[2]
    outputs = []
    for kernel in _SOBEL:
        total = None
        for i in range(3):
            for j in range(3):
                if kernel[i, j]:
                    term = padded[:, i:i + height, j:j + width] * \
                        np.asarray(kernel[i, j], image.dtype.as_numpy_dtype)
                    total = term if total is None else total + term
        outputs.append(total)
    return stack(outputs, -1)


# ---- patches --------------------------------------------------------------------------------
def _patch_geometry(in_size, size, stride, rate, padding):
    effective = (size - 1) * rate + 1
    if padding == 'VALID':
        out = (in_size - effective) // stride + 1
        return out, 0
    out = -(-in_size // stride)
    total = max((out - 1) * stride + effective - in_size, 0)
    return out, total // 2


def _extract_patches_kernel(images, ksizes, strides, rates, padding):
    batch, height, width, depth = images.shape
    _, kh, kw, _ = ksizes
    _, sh, sw, _ = strides
    _, rh, rw, _ = rates
    out_h, top = _patch_geometry(height, kh, sh, rh, padding)
    out_w, left = _patch_geometry(width, kw, sw, rw, padding)
    out = np.zeros((batch, out_h, out_w, kh, kw, depth), images.dtype)
    for i in range(kh):
        rows = np.arange(out_h) * sh + i * rh - top
        for j in range(kw):
            cols = np.arange(out_w) * sw + j * rw - left
            valid = ((rows >= 0) & (rows < height))[:, None] & \
                ((cols >= 0) & (cols < width))[None, :]
            taken = images[:, np.clip(rows, 0, height - 1)][:, :, np.clip(cols, 0, width - 1)]
            out[:, :, :, i, j] = np.where(valid[None, :, :, None], taken, 0)
    return out.reshape(batch, out_h, out_w, kh * kw * depth)


def _extract_patches_infer(inputs, attrs):
    images = inputs[0]
    dims = images.shape.as_list()
    _, kh, kw, _ = attrs['ksizes']
    h = _patch_geometry(dims[1], kh, attrs['strides'][1], attrs['rates'][1],
                        attrs['padding'])[0] if dims[1] is not None else None
    w = _patch_geometry(dims[2], kw, attrs['strides'][2], attrs['rates'][2],
                        attrs['padding'])[0] if dims[2] is not None else None
    depth = None if dims[3] is None else kh * kw * dims[3]
    return [(images.dtype, TensorShape([dims[0], h, w, depth]))]


EXTRACT_PATCHES = register('ExtractImagePatches', _extract_patches_kernel,
                           _extract_patches_infer, inputs=('images',), outputs=('patches',))


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """The patches of `sizes` every `strides` (dilated by `rates`), each flattened into the
    depth (op `ExtractImagePatches`)."""
    images = convert_to_tensor(images)
    if images.shape.rank != 4:
        raise ValueError('extract_patches expects images of shape [batch, h, w, depth].')
    attrs = {'ksizes': [int(s) for s in sizes], 'strides': [int(s) for s in strides],
             'rates': [int(s) for s in rates], 'padding': padding.upper()}
    return apply(EXTRACT_PATCHES, [images], attrs, name=name)


# ---- non-maximum suppression ----------------------------------------------------------------
def iou_with(boxes, i, others):
    """The intersection over union of box `i` of `boxes` with each of the boxes `others`."""
    def corners(b):
        return (np.minimum(b[..., 0], b[..., 2]), np.minimum(b[..., 1], b[..., 3]),
                np.maximum(b[..., 0], b[..., 2]), np.maximum(b[..., 1], b[..., 3]))
    y1, x1, y2, x2 = corners(boxes[i])
    oy1, ox1, oy2, ox2 = corners(boxes[others])
    inter = np.maximum(np.minimum(y2, oy2) - np.maximum(y1, oy1), 0) * \
        np.maximum(np.minimum(x2, ox2) - np.maximum(x1, ox1), 0)
    union = (y2 - y1) * (x2 - x1) + (oy2 - oy1) * (ox2 - ox1) - inter
    with np.errstate(divide='ignore', invalid='ignore'):
        return np.where(union > 0, inter / union, 0.0)


def greedy_selection(overlap, scores, max_output_size, threshold, score_threshold):
    """Indices picked greedily by score, dropping those overlapping a picked one more than
    `threshold`, and their scores."""
    order = [i for i in np.argsort(-scores, kind='stable') if scores[i] > score_threshold]
    picked = []
    for i in order:
        if len(picked) >= max_output_size:
            break
        if all(overlap(j, i) <= threshold for j in picked):
            picked.append(i)
    return np.asarray(picked, np.int32)


def _nms_v3(boxes, scores, max_output_size, iou_threshold, score_threshold):
    return greedy_selection(lambda j, i: iou_with(boxes, j, np.asarray([i]))[0], scores,
                   int(max_output_size), float(iou_threshold), float(score_threshold))


def _nms_v4(boxes, scores, max_output_size, iou_threshold, score_threshold,
            pad_to_max_output_size=False):
    picked = _nms_v3(boxes, scores, max_output_size, iou_threshold, score_threshold)
    count = np.int32(len(picked))
    if pad_to_max_output_size:
        picked = np.concatenate([picked, np.zeros(int(max_output_size) - len(picked),
                                                  np.int32)])
    return picked, count


def _nms_v5(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma,
            pad_to_max_output_size=False):
    if float(soft_nms_sigma) != 0:
        raise errors.UnimplementedError(None, None, 'soft_nms_sigma other than 0 is not '
                                        'supported here.')
    picked, count = _nms_v4(boxes, scores, max_output_size, iou_threshold, score_threshold,
                            pad_to_max_output_size)
    picked_scores = np.where(np.arange(len(picked)) < count, scores[picked], 0) \
        .astype(scores.dtype)
    return picked, picked_scores, count


def _nms_overlaps(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    return greedy_selection(lambda j, i: overlaps[j, i], scores, int(max_output_size),
                   float(overlap_threshold), float(score_threshold))


_INDICES = (dtypes.int32, TensorShape([None]))
NMS_V3 = register('NonMaxSuppressionV3', _nms_v3, lambda inputs, attrs: [_INDICES],
                  inputs=('boxes', 'scores', 'max_output_size', 'iou_threshold',
                          'score_threshold'), outputs=('selected_indices',),
                  gradient=NO_GRADIENT)
NMS_V4 = register('NonMaxSuppressionV4', _nms_v4,
                  lambda inputs, attrs: [_INDICES, (dtypes.int32, TensorShape([]))],
                  inputs=('boxes', 'scores', 'max_output_size', 'iou_threshold',
                          'score_threshold'), outputs=('selected_indices', 'valid_outputs'),
                  defaults={'pad_to_max_output_size': False}, gradient=NO_GRADIENT)
NMS_V5 = register('NonMaxSuppressionV5', _nms_v5,
                  lambda inputs, attrs: [_INDICES, (inputs[1].dtype, TensorShape([None])),
                                         (dtypes.int32, TensorShape([]))],
                  inputs=('boxes', 'scores', 'max_output_size', 'iou_threshold',
                          'score_threshold', 'soft_nms_sigma'),
                  outputs=('selected_indices', 'selected_scores', 'valid_outputs'),
                  defaults={'pad_to_max_output_size': False}, gradient=NO_GRADIENT)
NMS_OVERLAPS = register('NonMaxSuppressionWithOverlaps', _nms_overlaps,
                        lambda inputs, attrs: [_INDICES],
                        inputs=('overlaps', 'scores', 'max_output_size', 'overlap_threshold',
                                'score_threshold'), outputs=('selected_indices',),
                        type_attrs=(), gradient=NO_GRADIENT)


def _nms_operands(boxes, scores, max_output_size, threshold, score_threshold):
    boxes, scores = convert_to_tensor(boxes), convert_to_tensor(scores)
    dtype = boxes.dtype.as_numpy_dtype
    return [boxes, cast(scores, boxes.dtype), np.int32(max_output_size), dtype(threshold),
            dtype(score_threshold)]


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float('-inf'), name=None):
    """The indices of the boxes kept by greedy non-maximum suppression (op
    `NonMaxSuppressionV3`)."""
    return apply(NMS_V3, _nms_operands(boxes, scores, max_output_size, iou_threshold,
                                       score_threshold), name=name)


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float('-inf'), soft_nms_sigma=0.0,
                                    name=None):
    """(indices, their scores) kept by non-maximum suppression (op `NonMaxSuppressionV5`;
    `soft_nms_sigma` 0)."""
    operands = _nms_operands(boxes, scores, max_output_size, iou_threshold, score_threshold)
    picked, picked_scores, _ = apply(NMS_V5, operands + [operands[3].__class__(
        soft_nms_sigma)], {'pad_to_max_output_size': False}, name=name)
    return picked, picked_scores


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float('-inf'), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """(indices, how many are valid): the kept indices padded with zeros to
    `max_output_size` when `pad_to_max_output_size` (op `NonMaxSuppressionV4`)."""
    boxes = convert_to_tensor(boxes)
    if boxes.shape.rank != 2:
        raise errors.UnimplementedError(None, None, 'Batched boxes are not supported here.')
    return tuple(apply(NMS_V4, _nms_operands(boxes, scores, max_output_size, iou_threshold,
                                             score_threshold),
                       {'pad_to_max_output_size': bool(pad_to_max_output_size)}, name=name))


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float('-inf'), name=None):
    """Non-maximum suppression over a given [n, n] overlap matrix (op
    `NonMaxSuppressionWithOverlaps`)."""
    overlaps, scores = convert_to_tensor(overlaps), convert_to_tensor(scores)
    return apply(NMS_OVERLAPS, [overlaps, cast(scores, overlaps.dtype),
                                np.int32(max_output_size), np.float32(overlap_threshold),
                                np.float32(score_threshold)], name=name)

