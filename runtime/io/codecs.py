"""The encode/decode ops of `tf.io`: `EncodeBase64`/`DecodeBase64` (web-safe), `DecodeCompressed`
(ZLIB, GZIP), `DecodePng`, `DecodeBmp`, `DecodeImage` (PNG and BMP), `ExtractJpegShape`, and
`is_jpeg`; `encode_png` is the `EncodePng` of image summaries."""
import base64
import gzip
import zlib

import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.io import images
from runtime.io.gif import DECODE_GIF, decode_frames
from runtime.ops.compare import equal
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.ops.registry import NO_GRADIENT, register
from runtime.ops.strings import substr
from runtime.summary.ops import ENCODE_PNG


def _each(fn):
    """A kernel applying `fn` to each bytes value of a string tensor."""
    ufunc = np.frompyfunc(fn, 1, 1)

    def kernel(input, **attrs):
        out = ufunc(np.asarray(input, dtype=object)) if not attrs else \
            np.frompyfunc(lambda v: fn(v, **attrs), 1, 1)(np.asarray(input, dtype=object))
        return np.asarray(out, dtype=object)
    return kernel


def _same_shape_string(inputs, attrs):
    return [(dtypes.string, inputs[0].shape)]


def _b64_encode(value, pad=False):
    encoded = base64.urlsafe_b64encode(value)
    return encoded if pad else encoded.rstrip(b'=')


def _b64_decode(value):
    try:
        return base64.urlsafe_b64decode(value + b'=' * (-len(value) % 4))
    except (ValueError, TypeError):
        raise errors.InvalidArgumentError(None, None, 'Invalid character found in base64.') \
            from None


def _decompress(value, compression_type=''):
    try:
        if compression_type == 'ZLIB':
            return zlib.decompress(value)
        if compression_type == 'GZIP':
            return gzip.decompress(value)
    except (OSError, zlib.error, EOFError) as error:
        raise errors.DataLossError(None, None, f'{compression_type} decompression failed: '
                                   f'{error}') from None
    if compression_type:
        raise errors.InvalidArgumentError(None, None, f'Unknown compression type '
                                          f'{compression_type!r}')
    return value


ENCODE_BASE64 = register('EncodeBase64', _each(_b64_encode), _same_shape_string,
                         inputs=('input',), outputs=('output',), type_attrs=(),
                         defaults={'pad': False}, gradient=NO_GRADIENT)
DECODE_BASE64 = register('DecodeBase64', _each(_b64_decode), _same_shape_string,
                         inputs=('input',), outputs=('output',), type_attrs=(),
                         gradient=NO_GRADIENT)
DECODE_COMPRESSED = register('DecodeCompressed', _each(_decompress), _same_shape_string,
                             inputs=('bytes',), outputs=('output',), type_attrs=(),
                             defaults={'compression_type': ''}, gradient=NO_GRADIENT)


def _strings(value, what):
    t = convert_to_tensor(value)
    if t.dtype is not dtypes.string:
        raise TypeError(f'{what} must be a string tensor, got {t.dtype.name}.')
    return t


def encode_base64(input, pad=False, name=None):
    """Web-safe base64 of each string (op `EncodeBase64`; '=' padding with `pad`)."""
    return apply(ENCODE_BASE64, [_strings(input, 'input')], {'pad': bool(pad)}, name=name)


def decode_base64(input, name=None):
    """The bytes of each web-safe base64 string (op `DecodeBase64`)."""
    return apply(DECODE_BASE64, [_strings(input, 'input')], name=name)


def decode_compressed(bytes, compression_type='', name=None):  # noqa: A002 - TF's name
    """Each string decompressed: `compression_type` 'ZLIB', 'GZIP' or '' (op
    `DecodeCompressed`)."""
    return apply(DECODE_COMPRESSED, [_strings(bytes, 'bytes')],
                 {'compression_type': compression_type}, name=name)


# ---- images ---------------------------------------------------------------------------------
def _scalar_bytes(contents):
    return np.asarray(contents, dtype=object)[()]


def _image_infer(inputs, attrs):
    channels = attrs.get('channels', 0)
    if attrs.get('expand_animations', False):  # a GIF gives [frames, height, width, 3]
        return [(attrs.get('dtype', dtypes.uint8), TensorShape(None))]
    return [(attrs.get('dtype', dtypes.uint8),
             TensorShape([None, None, channels or None]))]


DECODE_PNG = register('DecodePng', lambda contents, channels=0, dtype=dtypes.uint8:
                      images.decode_png(_scalar_bytes(contents), channels,
                                        dtype.as_numpy_dtype),
                      _image_infer, inputs=('contents',), outputs=('image',), type_attrs=(),
                      defaults={'channels': 0, 'dtype': dtypes.uint8}, gradient=NO_GRADIENT)
DECODE_BMP = register('DecodeBmp', lambda contents, channels=0:
                      images.decode_bmp(_scalar_bytes(contents), channels),
                      _image_infer, inputs=('contents',), outputs=('image',), type_attrs=(),
                      defaults={'channels': 0}, gradient=NO_GRADIENT)


def _decode_image(contents, channels=0, dtype=dtypes.uint8, expand_animations=True):
    data = _scalar_bytes(contents)
    if data.startswith(images.PNG_SIGNATURE):
        image = images.decode_png(data, channels, np.uint8)
    elif data.startswith(b'BM'):
        image = images.decode_bmp(data, channels)
    elif data.startswith(b'GIF8'):
        if channels not in (0, 3):
            raise errors.InvalidArgumentError(
                None, None, f'channels must be 0 or 3 for GIF, got {channels}')
        image = decode_frames(data)
        image = image if expand_animations else image[0]
    elif data.startswith(b'\xff\xd8\xff') or data[8:12] == b'WEBP':
        raise errors.UnimplementedError(
            None, None, 'Decoding JPEG and WebP images needs a codec library the runtime '
            'does not have; decode them with Pillow in the input pipeline '
            '(tf.numpy_function).')
    else:
        raise errors.InvalidArgumentError(
            None, None, 'Unknown image file format. One of JPEG, PNG, GIF, BMP required.')
    dtype = dtypes.as_dtype(dtype)
    if dtype is dtypes.uint8:
        return image
    if dtype is dtypes.uint16:
        return image.astype(np.uint16) * 257
    return (image.astype(np.float64) / 255).astype(dtype.as_numpy_dtype)


DECODE_IMAGE = register('DecodeImage', _decode_image, _image_infer, inputs=('contents',),
                        outputs=('image',), type_attrs=(),
                        defaults={'channels': 0, 'dtype': dtypes.uint8,
                                  'expand_animations': True}, gradient=NO_GRADIENT)
EXTRACT_JPEG_SHAPE = register(
    'ExtractJpegShape', lambda contents, output_type=dtypes.int32: np.asarray(
        images.jpeg_shape(_scalar_bytes(contents)), output_type.as_numpy_dtype),
    lambda inputs, attrs: [(attrs.get('output_type', dtypes.int32), TensorShape([3]))],
    inputs=('contents',), outputs=('image_shape',), type_attrs=(),
    defaults={'output_type': dtypes.int32}, gradient=NO_GRADIENT)


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """The [height, width, channels] pixels of a PNG file (op `DecodePng`); `channels` 0 keeps
    the file's, 1 grey, 3 RGB, 4 RGBA; `dtype` uint8 or uint16 (values scaled)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f'decode_png gives uint8 or uint16, not {dtype.name}.')
    return apply(DECODE_PNG, [_strings(contents, 'contents')],
                 {'channels': int(channels), 'dtype': dtype}, name=name)


def decode_bmp(contents, channels=0, name=None):
    """The pixels of a BMP file (op `DecodeBmp`)."""
    return apply(DECODE_BMP, [_strings(contents, 'contents')], {'channels': int(channels)},
                 name=name)


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """The pixels of a PNG or BMP file (JPEG, GIF and WebP need a codec library: an
    UnimplementedError); a float `dtype` scales them to [0, 1]."""
    return apply(DECODE_IMAGE, [_strings(contents, 'contents')],
                 {'channels': int(channels or 0), 'dtype': dtypes.as_dtype(dtype),
                  'expand_animations': bool(expand_animations)}, name=name)


def encode_png(image, compression=-1, name=None):
    """The PNG file of a uint8 image [height, width, channels] (op `EncodePng`)."""
    return apply(ENCODE_PNG, [convert_to_tensor(image)], {'compression': int(compression)},
                 name=name)


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG file, from its header (op `ExtractJpegShape`)."""
    return apply(EXTRACT_JPEG_SHAPE, [_strings(contents, 'contents')],
                 {'output_type': dtypes.as_dtype(output_type)}, name=name)


def is_jpeg(contents, name=None):
    """Whether `contents` starts as a JPEG file does (ops `Substr`, `Equal`)."""
    return equal(substr(_strings(contents, 'contents'), 0, 3), b'\xff\xd8\xff')


def decode_gif(contents, name=None):
    """The frames of a GIF file, uint8 [frames, height, width, 3] (op `DecodeGif`)."""
    return apply(DECODE_GIF, [_strings(contents, 'contents')], name=name)
