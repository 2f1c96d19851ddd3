"""More of `tf.image`: `combined_non_max_suppression` (op `CombinedNonMaxSuppression`: per
class, then across classes, per batch entry) and `extract_glimpse` (op `ExtractGlimpseV2`:
windows of a batch of images at offsets, the parts outside filled with noise or zeros)."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.image_geometry import greedy_selection, iou_with
from runtime.ops.registry import NO_GRADIENT, register


def _combined_nms(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                  score_threshold, pad_per_class=False, clip_boxes=True):
    boxes, scores = np.asarray(boxes, np.float32), np.asarray(scores, np.float32)
    per_class, total = int(max_output_size_per_class), int(max_total_size)
    if boxes.ndim != 4 or boxes.shape[3] != 4 or scores.ndim != 3:
        raise errors.InvalidArgumentError(
            message=f'boxes must be [batch, num_boxes, q, 4] and scores [batch, num_boxes, '
                    f'num_classes], got {list(boxes.shape)} and {list(scores.shape)}')
    batch, _, q, _ = boxes.shape
    classes = scores.shape[2]
    if q not in (1, classes):
        raise errors.InvalidArgumentError(
            message=f'third dimension of boxes must be either 1 or {classes}, got {q}')
    if per_class <= 0 or total <= 0:
        raise errors.InvalidArgumentError(
            message='max_size_per_class and max_total_size must be > 0')
    size = min(total, per_class * classes) if pad_per_class else total
    out_boxes = np.zeros((batch, size, 4), np.float32)
    out_scores = np.zeros((batch, size), np.float32)
    out_classes = np.zeros((batch, size), np.float32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        found = []  # (score, class, box)
        for c in range(classes):
            class_boxes = boxes[b, :, 0 if q == 1 else c]
            class_scores = scores[b, :, c]
            picked = greedy_selection(
                lambda j, i, bx=class_boxes: iou_with(bx, j, np.asarray([i]))[0],
                class_scores, per_class, float(iou_threshold), float(score_threshold))
            found.extend((class_scores[i], c, class_boxes[i]) for i in picked)
        found.sort(key=lambda item: -item[0])
        found = found[:size]
        valid[b] = len(found)
        for k, (score, c, box) in enumerate(found):
            out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_scores[b, k], out_classes[b, k] = score, c
    return out_boxes, out_scores, out_classes, valid


def _combined_infer(inputs, attrs):
    batch = inputs[0].shape[0] if inputs[0].shape.rank else None
    return [(dtypes.float32, TensorShape([batch, None, 4])),
            (dtypes.float32, TensorShape([batch, None])),
            (dtypes.float32, TensorShape([batch, None])), (dtypes.int32, TensorShape([batch]))]


COMBINED_NMS = register(
    'CombinedNonMaxSuppression', _combined_nms, _combined_infer,
    inputs=('boxes', 'scores', 'max_output_size_per_class', 'max_total_size', 'iou_threshold',
            'score_threshold'),
    outputs=('nmsed_boxes', 'nmsed_scores', 'nmsed_classes', 'valid_detections'),
    type_attrs=(), defaults={'pad_per_class': False, 'clip_boxes': True},
    gradient=NO_GRADIENT)


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float('-inf'),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """(boxes, scores, classes, valid count) of the detections kept by non-maximum suppression
    per class and then the best `max_total_size` over all classes, per batch entry, padded
    with zeros (op `CombinedNonMaxSuppression`)."""
    return tuple(apply(COMBINED_NMS, [
        convert_to_tensor(boxes, dtypes.float32), convert_to_tensor(scores, dtypes.float32),
        np.int32(max_output_size_per_class), np.int32(max_total_size),
        np.float32(iou_threshold), np.float32(score_threshold)],
        {'pad_per_class': bool(pad_per_class), 'clip_boxes': bool(clip_boxes)}, name=name))


def _window_start(offset, size, window, centered, normalized):
    """The first row (or column) of a glimpse, as TensorFlow's ExtractGlimpseV2 computes it."""
    value = float(offset)
    if normalized:
        value *= size
        if centered:
            value = value / 2.0 + size / 2.0 - window / 2.0
    elif centered:
        value += size / 2.0
    return int(np.float32(value))  # truncated toward zero, as the kernel's cast


def _glimpse(images, size, offsets, centered=True, normalized=True, uniform_noise=True,
             noise='uniform'):
    images, offsets = np.asarray(images), np.asarray(offsets, np.float32)
    height, width = (int(v) for v in np.asarray(size))
    batch, rows, cols, depth = images.shape
    if offsets.shape != (batch, 2):
        raise errors.InvalidArgumentError(
            message=f'offsets must be [batch, 2] = [{batch}, 2], got {list(offsets.shape)}')
    out = np.zeros((batch, height, width, depth), np.float32)
    rng = np.random.default_rng()
    for b in range(batch):
        image = images[b].astype(np.float32)
        if noise == 'uniform' and image.size:
            low, high = image.min(axis=(0, 1)), image.max(axis=(0, 1))
            out[b] = low + (high - low) * rng.random((height, width, depth), np.float32)
        elif noise == 'gaussian' and image.size:
            mean, std = image.mean(axis=(0, 1)), image.std(axis=(0, 1))
            out[b] = mean + std * rng.standard_normal((height, width, depth), np.float32)
        top = _window_start(offsets[b, 0], rows, height, centered, normalized)
        left = _window_start(offsets[b, 1], cols, width, centered, normalized)
        r0, r1 = max(top, 0), min(top + height, rows)
        c0, c1 = max(left, 0), min(left + width, cols)
        if r0 < r1 and c0 < c1:
            out[b, r0 - top:r1 - top, c0 - left:c1 - left] = image[r0:r1, c0:c1]
    return out


GLIMPSE = register(
    'ExtractGlimpseV2', _glimpse,
    lambda inputs, attrs: [(dtypes.float32, TensorShape(
        [inputs[0].shape[0] if inputs[0].shape.rank else None, None, None,
         inputs[0].shape[3] if inputs[0].shape.rank else None]))],
    inputs=('input', 'size', 'offsets'), outputs=('glimpse',), type_attrs=(),
    defaults={'centered': True, 'normalized': True, 'uniform_noise': True, 'noise': 'uniform'},
    gradient=NO_GRADIENT)


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise='uniform', name=None):
    """Windows of `size` [height, width] of a batch of images [batch, h, w, depth] at
    `offsets` [batch, 2] (y, x): `centered` from the image's center, `normalized` in [-1, 1];
    the parts outside an image are uniform noise (between its per-channel minimum and
    maximum), 'gaussian' noise, or zeros with `noise='zero'` (op `ExtractGlimpseV2`)."""
    if noise not in ('uniform', 'gaussian', 'zero', ''):
        raise errors.InvalidArgumentError(message=f'Unknown noise type: {noise}')
    images = convert_to_tensor(input, dtypes.float32)
    return apply(GLIMPSE, [images, np.asarray(size, np.int32),
                           convert_to_tensor(offsets, dtypes.float32)],
                 {'centered': bool(centered), 'normalized': bool(normalized),
                  'uniform_noise': False, 'noise': noise}, name=name)
