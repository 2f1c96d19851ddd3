"""Resizing images (`tf.image.resize`: ops `ResizeBilinear`, `ResizeNearestNeighbor`,
`ResizeBicubic` with TensorFlow's half-pixel centers, and their gradient ops), and
`resize_with_pad`."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.core.tensor import Tensor
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor, int_operand
from runtime.ops.dispatch import apply
from runtime.ops.infer import constant_value_as_shape
from runtime.ops.registry import register
from runtime.ops.shaping import expand_dims, squeeze


class ResizeMethod:
    """The names `resize` takes for its `method`."""
    BILINEAR = 'bilinear'
    NEAREST_NEIGHBOR = 'nearest'
    BICUBIC = 'bicubic'
    AREA = 'area'
    LANCZOS3 = 'lanczos3'
    LANCZOS5 = 'lanczos5'
    GAUSSIAN = 'gaussian'
    MITCHELLCUBIC = 'mitchellcubic'


def _linear_taps(in_size, out_size):
    """(lower index, upper index, weight of upper) per output position (half-pixel centers)."""
    scale = in_size / out_size
    position = (np.arange(out_size) + 0.5) * scale - 0.5
    lower_f = np.floor(position)
    lower = np.maximum(lower_f, 0).astype(np.int64)
    upper = np.minimum(np.ceil(position), in_size - 1).astype(np.int64)
    return lower, upper, (position - lower_f).astype(np.float32)


def _nearest_index(in_size, out_size):
    scale = in_size / out_size
    return np.minimum(np.floor((np.arange(out_size) + 0.5) * np.float32(scale)).astype(np.int64),
                      in_size - 1)


def _cubic_taps(in_size, out_size):
    """The four (index, weight) taps of Keys' cubic (a = -0.5) per output position; taps
    outside the image get no weight and the rest are renormalized, as TensorFlow does."""
    scale = in_size / out_size
    position = (np.arange(out_size) + 0.5) * scale - 0.5
    base = np.floor(position)
    t = np.rint((position - base) * 1024) / 1024  # TensorFlow reads a table of 1024 steps
    offsets = np.arange(-1, 3)
    indices = base[:, None].astype(np.int64) + offsets[None, :]
    x = np.abs(t[:, None] - offsets[None, :])
    a = -0.5
    weights = np.where(x <= 1, ((a + 2) * x - (a + 3)) * x * x + 1,
                       np.where(x < 2, ((a * x - 5 * a) * x + 8 * a) * x - 4 * a, 0))
    inside = (indices >= 0) & (indices < in_size)
    weights = np.where(inside, weights, 0)
    weights = weights / weights.sum(1, keepdims=True)
    return np.clip(indices, 0, in_size - 1), weights


def _resize_matrix(in_size, out_size, method):
    """The [out_size, in_size] matrix of the 1-D interpolation."""
    matrix = np.zeros((out_size, in_size), np.float64)
    rows = np.arange(out_size)
    if method == 'bilinear':
        lower, upper, lerp = _linear_taps(in_size, out_size)
        np.add.at(matrix, (rows, lower), 1 - lerp)
        np.add.at(matrix, (rows, upper), lerp)
    elif method == 'nearest':
        matrix[rows, _nearest_index(in_size, out_size)] = 1
    else:
        indices, weights = _cubic_taps(in_size, out_size)
        for k in range(4):
            np.add.at(matrix, (rows, indices[:, k]), weights[:, k])
    return matrix


def _apply_separable(images, rows, columns):
    """`rows` along the height and `columns` along the width of [batch, h, w, c] images."""
    out = np.einsum('oh,bhwc->bowc', rows, images)
    return np.einsum('pw,bowc->bopc', columns, out)


def _resize_kernel(method):
    def kernel(images, size, align_corners=False, half_pixel_centers=True):
        height, width = (int(s) for s in size)
        _, in_h, in_w, _ = images.shape
        if method == 'nearest':
            return images[:, _nearest_index(in_h, height)][:, :, _nearest_index(in_w, width)]
        rows = _resize_matrix(in_h, height, method)
        columns = _resize_matrix(in_w, width, method)
        return _apply_separable(images.astype(np.float64), rows, columns).astype(np.float32)
    return kernel


def _resize_grad_kernel(method):
    def kernel(grads, original_image, align_corners=False, half_pixel_centers=True):
        in_h, in_w = original_image.shape[1:3] if original_image.ndim == 4 else \
            (int(original_image[0]), int(original_image[1]))
        _, height, width, _ = grads.shape
        rows = _resize_matrix(in_h, height, method).T
        columns = _resize_matrix(in_w, width, method).T
        out = _apply_separable(grads.astype(np.float64), rows, columns)
        dtype = original_image.dtype if original_image.ndim == 4 else grads.dtype
        return out.astype(dtype)
    return kernel


def _resize_infer(float_out):
    def infer(inputs, attrs):
        images, size = inputs
        dims = images.shape.as_list() if images.shape.rank is not None else [None] * 4
        hw = constant_value_as_shape(size)
        hw = hw.as_list() if hw.rank == 2 else [None, None]
        return [(dtypes.float32 if float_out else images.dtype,
                 TensorShape([dims[0], *hw, dims[3]]))]
    return infer


def _grad_infer(inputs, attrs):
    grads, original = inputs
    if original.shape.rank == 4:
        return [(original.dtype, original.shape)]
    return [(grads.dtype, TensorShape([grads.shape[0], None, None, grads.shape[3]]))]


_ATTRS = {'align_corners': False, 'half_pixel_centers': False}
RESIZE_OPS = {
    'bilinear': register('ResizeBilinear', _resize_kernel('bilinear'), _resize_infer(True),
                         inputs=('images', 'size'), outputs=('resized_images',),
                         defaults=dict(_ATTRS)),
    'nearest': register('ResizeNearestNeighbor', _resize_kernel('nearest'),
                        _resize_infer(False), inputs=('images', 'size'),
                        outputs=('resized_images',), defaults=dict(_ATTRS)),
    'bicubic': register('ResizeBicubic', _resize_kernel('bicubic'), _resize_infer(True),
                        inputs=('images', 'size'), outputs=('resized_images',),
                        defaults=dict(_ATTRS)),
}
RESIZE_GRAD_OPS = {
    'bilinear': register('ResizeBilinearGrad', _resize_grad_kernel('bilinear'), _grad_infer,
                         inputs=('grads', 'original_image'), outputs=('output',),
                         type_attrs=(('T', 1),), defaults=dict(_ATTRS)),
    'nearest': register('ResizeNearestNeighborGrad', _resize_grad_kernel('nearest'),
                        _grad_infer, inputs=('grads', 'size'), outputs=('output',),
                        defaults=dict(_ATTRS)),
    'bicubic': register('ResizeBicubicGrad', _resize_grad_kernel('bicubic'), _grad_infer,
                        inputs=('grads', 'original_image'), outputs=('output',),
                        type_attrs=(('T', 1),), defaults=dict(_ATTRS)),
}


def _batched(images):
    images = convert_to_tensor(images)
    rank = images.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"'images' must have either 3 or 4 dimensions, got shape "
                         f'{images.shape}.')
    return (expand_dims(images, 0), True) if rank == 3 else (images, False)


def resize(images, size, method='bilinear', preserve_aspect_ratio=False, antialias=False,
           name=None):
    """Images resized to `size` [height, width] (half-pixel centers, as TensorFlow 2):
    'bilinear' and 'bicubic' give float32, 'nearest' keeps the dtype."""
    method = getattr(method, 'value', method)
    if method not in RESIZE_OPS:
        raise errors.UnimplementedError(None, None, f'Resize method {method!r} is not '
                                        f'supported here; use bilinear, nearest or bicubic.')
    if antialias and method != 'nearest':
        raise errors.UnimplementedError(None, None, 'antialias=True (ScaleAndTranslate) is '
                                        'not supported here.')
    batch, unbatch = _batched(images)
    if preserve_aspect_ratio:
        height, width = (int(s) for s in np.ravel(np.asarray(size)))
        in_h, in_w = batch.shape[1], batch.shape[2]
        factor = min(np.float32(height) / np.float32(in_h), np.float32(width) / np.float32(in_w))
        size = [int(np.round(factor * in_h)), int(np.round(factor * in_w))]
    size = int_operand(size, 'size')  # a list may mix tensors and ints, as TensorFlow's
    size = cast(size, dtypes.int32) if isinstance(size, Tensor) else size.astype(np.int32)
    attrs = {'align_corners': False, 'half_pixel_centers': True}
    out = apply(RESIZE_OPS[method], [batch, size], attrs, name=name)
    return squeeze(out, [0]) if unbatch else out

