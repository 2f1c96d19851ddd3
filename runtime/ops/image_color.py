"""Color and value ops of `tf.image`: `convert_image_dtype`, brightness, gamma, saturation and
hue (ops `AdjustSaturation`, `AdjustHue`, `RGBToHSV`, `HSVToRGB`), the color spaces (grayscale,
YIQ, YUV), standardization, PSNR, and the random and stateless random adjustments."""
import numpy as np

from runtime.core import dtypes
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.elementwise import rsqrt, squared_difference
from runtime.ops.image import adjust_contrast
from runtime.ops.infer import same_as_input
from runtime.ops.linalg import tensordot
from runtime.ops.manipulation import tile
from runtime.ops.math import clip_by_value, floordiv, log, maximum, multiply
from runtime.ops.math import pow as pow_
from runtime.ops.random import uniform
from runtime.ops.reduce import reduce_mean, reduce_prod
from runtime.ops.registry import register
from runtime.ops.shaping import expand_dims, shape
from runtime.ops.stateless_random import stateless_uniform
from runtime.ops.stats import reduce_std


def _saturate_cast(x, dtype):
    if dtype.is_integer:
        x = clip_by_value(x, np.asarray(dtype.min, x.dtype.as_numpy_dtype),
                          np.asarray(dtype.max, x.dtype.as_numpy_dtype))
    return cast(x, dtype)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """`image` in `dtype`, rescaled: integers span [0, MAX], floats [0, 1] (TensorFlow's rule;
    `saturate` clips before casting)."""
    image = convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise AttributeError(f'dtype must be either floating point or integer, got '
                             f'{dtype.name}')
    if dtype is image.dtype:
        return image
    to = _saturate_cast if saturate else cast
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = image.dtype.max, dtype.max
        if scale_in > scale_out:
            scale = (scale_in + 1) // (scale_out + 1)
            return to(floordiv(image, np.asarray(scale, image.dtype.as_numpy_dtype)), dtype)
        scale = (scale_out + 1) // (scale_in + 1)
        return multiply(to(image, dtype), np.asarray(scale, dtype.as_numpy_dtype))
    if image.dtype.is_floating and dtype.is_floating:
        return cast(image, dtype)
    if image.dtype.is_integer:
        return multiply(cast(image, dtype), np.asarray(1.0 / image.dtype.max,
                                                       dtype.as_numpy_dtype))
    scaled = multiply(image, np.asarray(dtype.max + 0.5, image.dtype.as_numpy_dtype))
    return to(scaled, dtype)


def _as_float(image):
    image = convert_to_tensor(image)
    return image if image.dtype.is_floating else convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image, delta):
    """`image + delta` on the [0, 1] scale, saturated back to the image's dtype."""
    image = convert_to_tensor(image)
    floats = _as_float(image)
    adjusted = floats + cast(convert_to_tensor(delta), floats.dtype)
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


def adjust_gamma(image, gamma=1, gain=1):
    """`gain * image ** gamma` on the [0, 1] scale."""
    image = convert_to_tensor(image)
    floats = image if image.dtype in (dtypes.float16, dtypes.float32) else \
        convert_image_dtype(image, dtypes.float32)
    if np.ndim(gamma) == 0 and not hasattr(gamma, 'dtype') and gamma < 0:
        raise ValueError('Gamma should be a non-negative real number.')
    adjusted = multiply(cast(convert_to_tensor(gain), floats.dtype),
                        pow_(floats, cast(convert_to_tensor(gamma), floats.dtype)))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


# ---- HSV ------------------------------------------------------------------------------------
def _rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    value = rgb.max(-1)
    minimum = rgb.min(-1)
    chroma = value - minimum
    with np.errstate(divide='ignore', invalid='ignore'):
        saturation = np.where(value > 0, chroma / value, 0)
        safe = np.where(chroma > 0, chroma, 1)
        hue = np.where(value == r, (g - b) / safe,
                       np.where(value == g, 2 + (b - r) / safe, 4 + (r - g) / safe))
    hue = np.where(chroma > 0, hue / 6, 0)
    hue = np.where(hue < 0, hue + 1, hue)
    return np.stack([hue, saturation, value], -1).astype(rgb.dtype)


def _hsv_to_rgb(hsv):
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    c = s * v
    m = v - c
    dh = h * 6
    fmodu = np.mod(dh, 2)
    x = c * (1 - np.abs(fmodu - 1))
    sector = np.floor(dh).astype(np.int64) % 6
    zeros = np.zeros_like(c)
    table = [(c, x, zeros), (x, c, zeros), (zeros, c, x), (zeros, x, c), (x, zeros, c),
             (c, zeros, x)]
    rgb = [np.choose(sector, [row[i] for row in table]) for i in range(3)]
    return (np.stack(rgb, -1) + m[..., None]).astype(hsv.dtype)


def _check_rgb(inputs, attrs):
    images = inputs[0]
    if images.shape.rank is not None and images.shape[-1] not in (None, 3):
        raise ValueError(f'The last dimension of the images must be 3 (RGB), got shape '
                         f'{images.shape}.')
    return same_as_input(inputs, attrs)


RGB_TO_HSV = register('RGBToHSV', _rgb_to_hsv, _check_rgb, inputs=('images',),
                      outputs=('output',))
HSV_TO_RGB = register('HSVToRGB', _hsv_to_rgb, _check_rgb, inputs=('images',),
                      outputs=('output',))


def _adjust_saturation(images, scale):
    hsv = _rgb_to_hsv(images.astype(np.float32))
    hsv[..., 1] = np.clip(hsv[..., 1] * scale, 0, 1)
    return _hsv_to_rgb(hsv).astype(images.dtype)


def _adjust_hue(images, delta):
    hsv = _rgb_to_hsv(images.astype(np.float32))
    hsv[..., 0] = np.mod(hsv[..., 0] + delta, 1)
    return _hsv_to_rgb(hsv).astype(images.dtype)


ADJUST_SATURATION = register('AdjustSaturation', _adjust_saturation, _check_rgb,
                             inputs=('images', 'scale'), outputs=('output',))
ADJUST_HUE = register('AdjustHue', _adjust_hue, _check_rgb, inputs=('images', 'delta'),
                      outputs=('output',))


def rgb_to_hsv(images, name=None):
    """RGB in [0, 1] to hue, saturation, value in [0, 1] (op `RGBToHSV`)."""
    return apply(RGB_TO_HSV, [convert_to_tensor(images)], name=name)


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value to RGB (op `HSVToRGB`)."""
    return apply(HSV_TO_RGB, [convert_to_tensor(images)], name=name)


def _adjust_in_float(opdef, image, amount, name):
    image = convert_to_tensor(image)
    floats = image if image.dtype in (dtypes.float16, dtypes.float32) else \
        convert_image_dtype(image, dtypes.float32)
    adjusted = apply(opdef, [floats, convert_to_tensor(amount, dtypes.float32)], name=name)
    return convert_image_dtype(adjusted, image.dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """Saturation scaled by `saturation_factor` (op `AdjustSaturation`)."""
    return _adjust_in_float(ADJUST_SATURATION, image, saturation_factor, name)


def adjust_hue(image, delta, name=None):
    """Hue rotated by `delta` (in [-1, 1]) (op `AdjustHue`)."""
    if np.ndim(delta) == 0 and not hasattr(delta, 'dtype') and not -1 <= delta <= 1:
        raise ValueError('delta must be in the interval [-1, 1]')
    return _adjust_in_float(ADJUST_HUE, image, delta, name)


# ---- color spaces ---------------------------------------------------------------------------
_KERNELS = {
    'rgb_to_yiq': [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                   [0.114, -0.32134392, 0.31119955]],
    'yiq_to_rgb': [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
                   [0.6208248, -0.64720424, 1.70423049]],
    'rgb_to_yuv': [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                   [0.114, 0.43601035, -0.10001026]],
    'yuv_to_rgb': [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]],
}


def _color_space(kernel_name):
    def convert(images):
        images = convert_to_tensor(images)
        kernel = np.asarray(_KERNELS[kernel_name], images.dtype.as_numpy_dtype)
        return tensordot(images, kernel, [[images.shape.rank - 1], [0]])
    convert.__name__ = convert.__qualname__ = kernel_name
    convert.__doc__ = f'{kernel_name.replace("_to_", " to ").upper()}: a 3x3 linear map of ' \
        f'the last dimension.'
    return convert


rgb_to_yiq, yiq_to_rgb = _color_space('rgb_to_yiq'), _color_space('yiq_to_rgb')
rgb_to_yuv, yuv_to_rgb = _color_space('rgb_to_yuv'), _color_space('yuv_to_rgb')


def rgb_to_grayscale(images, name=None):
    """Luma (0.2989 R + 0.5870 G + 0.1140 B), in the images' dtype, as [..., 1]."""
    images = convert_to_tensor(images)
    floats = convert_image_dtype(images, dtypes.float32)
    grey = tensordot(floats, np.asarray([0.2989, 0.5870, 0.1140], np.float32), [[-1], [-1]])
    return convert_image_dtype(expand_dims(grey, -1), images.dtype)


def grayscale_to_rgb(images, name=None):
    """The one channel repeated three times (op `Tile`)."""
    images = convert_to_tensor(images)
    if images.shape.rank is not None and images.shape[-1] not in (None, 1):
        raise ValueError('Last dimension of a grayscale image should be size 1.')
    return tile(images, [1] * (images.shape.rank - 1) + [3])


def per_image_standardization(image):
    """Each image scaled to mean 0 and variance 1 (the deviation at least 1/sqrt(pixels))."""
    image = convert_to_tensor(image)
    if not image.dtype.is_floating:
        image = cast(image, dtypes.float32)
    pixels = reduce_prod(shape(image)[-3:])
    mean = reduce_mean(image, [-1, -2, -3], keepdims=True)
    deviation = reduce_std(image, [-1, -2, -3], keepdims=True)
    adjusted = maximum(deviation, rsqrt(cast(pixels, image.dtype)))
    return (image - mean) / adjusted


def psnr(a, b, max_val, name=None):
    """The peak signal-to-noise ratio of two image batches, in dB."""
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    max_val = convert_image_dtype(cast(convert_to_tensor(max_val), a.dtype), dtypes.float32)
    a, b = convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32)
    mse = reduce_mean(squared_difference(a, b), [-3, -2, -1])
    return 20 * log(max_val) / np.float32(np.log(10.0)) - \
        np.float32(10 / np.log(10.0)) * log(mse)


# ---- random adjustments ---------------------------------------------------------------------
def _draw(low, high, seed, stateless):
    if stateless:
        return stateless_uniform([], seed, minval=low, maxval=high)
    return uniform([], low, high, seed=seed)


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError('upper must be > lower.')
    if lower < 0:
        raise ValueError('lower must be non-negative.')


def random_brightness(image, max_delta, seed=None):
    """`adjust_brightness` by a delta drawn from [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError('max_delta must be non-negative.')
    return adjust_brightness(image, _draw(-max_delta, max_delta, seed, False))


def stateless_random_brightness(image, max_delta, seed):
    """`random_brightness` fixed by `seed` (two ints)."""
    if max_delta < 0:
        raise ValueError('max_delta must be non-negative.')
    return adjust_brightness(image, _draw(-max_delta, max_delta, seed, True))


def random_contrast(image, lower, upper, seed=None):
    """`adjust_contrast` by a factor drawn from [lower, upper)."""
    _check_range(lower, upper)
    return adjust_contrast(image, _draw(lower, upper, seed, False))


def stateless_random_contrast(image, lower, upper, seed):
    """`random_contrast` fixed by `seed`."""
    _check_range(lower, upper)
    return adjust_contrast(image, _draw(lower, upper, seed, True))


def random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor drawn from [lower, upper)."""
    _check_range(lower, upper)
    return adjust_saturation(image, _draw(lower, upper, seed, False))


def stateless_random_saturation(image, lower, upper, seed=None):
    """`random_saturation` fixed by `seed`."""
    _check_range(lower, upper)
    return adjust_saturation(image, _draw(lower, upper, seed, True))


def random_hue(image, max_delta, seed=None):
    """`adjust_hue` by a delta drawn from [-max_delta, max_delta) (max_delta <= 0.5)."""
    if not 0 <= max_delta <= 0.5:
        raise ValueError('max_delta must be in the interval [0, 0.5].')
    return adjust_hue(image, _draw(-max_delta, max_delta, seed, False))


def stateless_random_hue(image, max_delta, seed):
    """`random_hue` fixed by `seed`."""
    if not 0 <= max_delta <= 0.5:
        raise ValueError('max_delta must be in the interval [0, 0.5].')
    return adjust_hue(image, _draw(-max_delta, max_delta, seed, True))
