"""`tf.image.sample_distorted_bounding_box` (op `SampleDistortedBoundingBoxV2`) and its
stateless form (`StatelessSampleDistortedBoundingBox`): a random crop of an image of a given
aspect ratio and area range that covers enough of one of the given boxes, drawn as
TensorFlow's kernel draws it (its Philox words, its rounding), so a seed gives TensorFlow's
crop."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops import philox
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.random import PhiloxStream, run_seeded
from runtime.ops.registry import NO_GRADIENT, register

_F = np.float32


class _Words:
    """TensorFlow's SimplePhilox: the words of the Philox blocks from a counter on, in order."""

    def __init__(self, key, counter):
        self.key, self.counter, self.words, self.used = key, counter, [], 0

    def next(self):
        if self.used == len(self.words):
            self.words = [int(w) for w in philox.blocks(self.key, self.counter, 8).reshape(-1)]
            self.counter, self.used = philox.skip(self.counter, 8), 0
        self.used += 1
        return self.words[self.used - 1]

    def rand_float(self):
        bits = np.array([(self.next() & 0x7FFFFF) | 0x3F800000], np.uint32)
        return bits.view(np.float32)[0] - _F(1)

    def uniform(self, n):
        """An int in [0, n) by rejection, as TensorFlow's ExactUniformInt."""
        if n & (n - 1) == 0:
            return self.next() & (n - 1)
        rem = (0xFFFFFFFF % n) + 1
        while True:
            word = self.next()
            if word >= rem:
                return word % n


def _lrint(value):
    return int(np.rint(_F(value)))


def _random_crop(width, height, min_area_fraction, max_area_fraction, aspect, words):
    """(x, y, width, height) of a crop, or None (TensorFlow's GenerateRandomCrop)."""
    if max_area_fraction <= 0 or aspect <= 0 or width <= 0 or height <= 0 or \
            min_area_fraction > max_area_fraction:
        return None
    min_area = _F(_F(min_area_fraction) * _F(width)) * _F(height)
    max_area = _F(_F(max_area_fraction) * _F(width)) * _F(height)
    crop_h = _lrint(np.sqrt(_F(min_area / aspect)))
    max_h = _lrint(np.sqrt(_F(max_area / aspect)))
    if _lrint(_F(max_h) * aspect) > width:
        max_h = int((width + 0.5 - float(_F(0.0000001))) / float(aspect))
        if _lrint(_F(max_h) * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    crop_h = min(crop_h, max_h)
    if crop_h < max_h:
        crop_h += words.uniform(max_h - crop_h + 1)
    crop_w = _lrint(_F(crop_h) * aspect)
    area = _F(crop_w * crop_h)
    if area < min_area:
        crop_h += 1
        crop_w = _lrint(_F(crop_h) * aspect)
        area = _F(crop_w * crop_h)
    if area > max_area:
        crop_h -= 1
        crop_w = _lrint(_F(crop_h) * aspect)
        area = _F(crop_w * crop_h)
    if area < min_area or area > max_area or crop_w > width or crop_h > height or \
            crop_w <= 0 or crop_h <= 0:
        return None
    y = words.uniform(height - crop_h) if crop_h < height else 0
    x = words.uniform(width - crop_w) if crop_w < width else 0
    return x, y, crop_w, crop_h


def _area(x0, y0, x1, y1):
    return _F((x1 - x0) * (y1 - y0))


def _covers(crop, boxes, min_object_covered):
    x, y, w, h = crop
    if _area(x, y, x + w, y + h) < 1:
        return False
    for bx0, by0, bx1, by1 in boxes:
        object_area = _area(bx0, by0, bx1, by1)
        if object_area < 1:
            continue
        ix0, iy0, ix1, iy1 = max(x, bx0), max(y, by0), min(x + w, bx1), min(y + h, by1)
        inter = _area(ix0, iy0, ix1, iy1) if ix0 <= ix1 and iy0 <= iy1 else _F(0)
        if _F(inter / object_area) >= _F(min_object_covered):
            return True
    return False


def _sample(image_size, bounding_boxes, min_object_covered, key, counter, aspect_ratio_range,
            area_range, max_attempts, use_image_if_no_bounding_boxes):
    size = np.asarray(image_size)
    if size.shape != (3,):
        raise errors.InvalidArgumentError(message=f'image_size must contain 3 elements, got '
                                                  f'shape {list(size.shape)}')
    height, width = int(size[0]), int(size[1])
    boxes = np.asarray(bounding_boxes, np.float32)
    if boxes.ndim != 3 or boxes.shape[-1] != 4:
        raise errors.InvalidArgumentError(
            message=f'input boxes must be 3-dimensional [batch, num_boxes, coords]: '
                    f'{list(boxes.shape)}')
    covered = _F(min_object_covered)
    if covered < 0:
        raise errors.InvalidArgumentError(
            message=f'Min object covered must be non-negative: {float(covered)}')
    rects = []
    for box in boxes.reshape(-1, 4):
        if ((box < 0) | (box > 1)).any():
            raise errors.InvalidArgumentError(
                message=f'All bounding box coordinates must be in [0.0, 1.0]: {box.tolist()}')
        rects.append((int(box[1] * _F(width)), int(box[0] * _F(height)),
                      int(box[3] * _F(width)), int(box[2] * _F(height))))
    if not rects:
        if not use_image_if_no_bounding_boxes:
            raise errors.InvalidArgumentError(
                message='No bounding boxes provided as input. One must enable '
                        'use_image_if_no_bounding_boxes if you wish to not provide any '
                        'bounding boxes.')
        rects.append((0, 0, width, height))
    low_aspect, high_aspect = (_F(v) for v in aspect_ratio_range)
    words = _Words(key, counter)
    crop = None
    for _ in range(max_attempts):
        aspect = _F(words.rand_float() * _F(high_aspect - low_aspect)) + low_aspect
        found = _random_crop(width, height, area_range[0], area_range[1], aspect, words)
        if found is not None and _covers(found, rects, covered):
            crop = found
            break
    x, y, w, h = crop if crop is not None else (0, 0, width, height)
    dtype = size.dtype
    begin = np.array([y, x, 0], dtype)
    extent = np.array([h, w, -1], dtype)
    box = np.array([[[y / _F(height), x / _F(width), (y + h) / _F(height),
                      (x + w) / _F(width)]]], np.float32)
    return begin, extent, box


def _infer(inputs, attrs):
    dtype = inputs[0].dtype
    return [(dtype, TensorShape([3])), (dtype, TensorShape([3])),
            (dtypes.float32, TensorShape([1, 1, 4]))]


_ATTRS = {'aspect_ratio_range': (0.75, 1.33), 'area_range': (0.05, 1.0), 'max_attempts': 100,
          'use_image_if_no_bounding_boxes': False}


def _stateful_bind(attrs, stream):
    if stream is None:
        stream = PhiloxStream.from_seeds(attrs.get('seed', 0), attrs.get('seed2', 0))
    options = {k: attrs.get(k, v) for k, v in _ATTRS.items()}

    def kernel(image_size, bounding_boxes, min_object_covered):
        key, counter = stream.reserve(int(options['max_attempts']), 1)
        return _sample(image_size, bounding_boxes, min_object_covered, key, counter, **options)
    return kernel


def _stateless(image_size, bounding_boxes, min_object_covered, seed, **attrs):
    key, counter = philox.key_counter_of(seed)
    options = {k: attrs.get(k, v) for k, v in _ATTRS.items()}
    return _sample(image_size, bounding_boxes, min_object_covered, key, counter, **options)


_OUTPUTS = ('begin', 'size', 'bboxes')
SAMPLE_BOX = register('SampleDistortedBoundingBoxV2', None, _infer,
                      inputs=('image_size', 'bounding_boxes', 'min_object_covered'),
                      outputs=_OUTPUTS, type_attrs=(('T', 0),),
                      defaults={'seed': 0, 'seed2': 0, **_ATTRS}, stateful=True,
                      bind_kernel=_stateful_bind, gradient=NO_GRADIENT)
STATELESS_SAMPLE_BOX = register(
    'StatelessSampleDistortedBoundingBox', _stateless, _infer,
    inputs=('image_size', 'bounding_boxes', 'min_object_covered', 'seed'), outputs=_OUTPUTS,
    type_attrs=(('T', 0), ('Tseed', 3)), defaults=_ATTRS, gradient=NO_GRADIENT)


def _attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes):
    return {'aspect_ratio_range': tuple(float(v) for v in aspect_ratio_range or (0.75, 1.33)),
            'area_range': tuple(float(v) for v in area_range or (0.05, 1.0)),
            'max_attempts': int(max_attempts or 100),
            'use_image_if_no_bounding_boxes': bool(use_image_if_no_bounding_boxes)}


def _operands(image_size, bounding_boxes, min_object_covered):
    size = convert_to_tensor(image_size)
    if not size.dtype.is_integer:
        raise TypeError(f'image_size must be an integer tensor, got {size.dtype.name}.')
    return [size, convert_to_tensor(bounding_boxes, dtypes.float32),
            convert_to_tensor(min_object_covered, dtypes.float32)]


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bbox) of a random crop of an image of `image_size` [h, w, c] covering
    at least `min_object_covered` of one of `bounding_boxes` [batch, n, 4] (y0, x0, y1, x1 in
    [0, 1]), of an aspect ratio in `aspect_ratio_range` (0.75, 1.33) and a fraction of the
    image in `area_range` (0.05, 1); the whole image when `max_attempts` (100) draws find
    none (op `SampleDistortedBoundingBoxV2`; `seed` 0 draws anew each time)."""
    attrs = _attrs(aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes)
    return tuple(run_seeded(SAMPLE_BOX, _operands(image_size, bounding_boxes,
                                                  min_object_covered), attrs,
                            seed if seed else None, name))


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """`sample_distorted_bounding_box` drawn from the stateless seed `seed` (two ints): the
    same seed gives the same crop (op `StatelessSampleDistortedBoundingBox`)."""
    attrs = _attrs(aspect_ratio_range, area_range, max_attempts,
                   use_image_if_no_bounding_boxes)
    seed = convert_to_tensor(seed)
    if seed.dtype not in (dtypes.int32, dtypes.int64):
        seed = convert_to_tensor(seed, dtypes.int64)
    return tuple(apply(STATELESS_SAMPLE_BOX, _operands(image_size, bounding_boxes,
                                                       min_object_covered) + [seed],
                       attrs, name=name))


__all__ = ['sample_distorted_bounding_box',
           'stateless_sample_distorted_bounding_box']
