"""A small PNG encoder (zlib from the standard library): 8-bit grey, grey and alpha, RGB or RGBA
images, each row unfiltered, as image summaries need."""
import struct
import zlib

import numpy as np

from runtime.core import errors

_SIGNATURE = b'\x89PNG\r\n\x1a\n'
_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG color type


def _chunk(kind, data):
    return b''.join((struct.pack('>I', len(data)), kind, data,
                     struct.pack('>I', zlib.crc32(kind + data) & 0xFFFFFFFF)))


def encode_png(image, compression=-1):
    """The PNG file of a uint8 array of shape [height, width, channels] (1 to 4 channels),
    as bytes; `compression` is zlib's level (-1: its default)."""
    image = np.asarray(image)
    if image.ndim != 3 or image.shape[2] not in _COLOR_TYPES:
        raise errors.InvalidArgumentError(
            message=f'EncodePng takes an image of shape [height, width, channels] with 1 to 4 '
                    f'channels, got shape {list(image.shape)}')
    if image.dtype != np.uint8:
        raise errors.InvalidArgumentError(message=f'EncodePng takes uint8 pixels, got '
                                                  f'{image.dtype}')
    height, width, channels = image.shape
    rows = np.zeros((height, 1 + width * channels), np.uint8)  # filter byte 0: none
    rows[:, 1:] = image.reshape(height, width * channels)
    header = struct.pack('>IIBBBBB', width, height, 8, _COLOR_TYPES[channels], 0, 0, 0)
    return b''.join((_SIGNATURE, _chunk(b'IHDR', header),
                     _chunk(b'IDAT', zlib.compress(rows.tobytes(), compression)),
                     _chunk(b'IEND', b'')))
