"""Image file decoders on the standard library: PNG (zlib, every color type and bit depth,
not interlaced), BMP (uncompressed 24- and 32-bit) and the shape of a JPEG (its frame header).
Decoding JPEG, GIF, WebP or JPEG XL pixels needs a codec library, which the runtime does not
depend on."""
import struct
import zlib

import numpy as np

from runtime.core import errors

PNG_SIGNATURE = b'\x89PNG\r\n\x1a\n'
_PNG_CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}  # color type -> channels (palette: RGB)
# the weights of red, green and blue in a grey value (out of 32768, truncated), as
# TensorFlow's PNG decoder sets them
_GREY_WEIGHTS = (9798, 19235, 3735)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _png_chunks(data):
    if not data.startswith(PNG_SIGNATURE):
        raise _invalid('Invalid PNG data, size ' + str(len(data)))
    pos = len(PNG_SIGNATURE)
    while pos + 8 <= len(data):
        length, kind = struct.unpack_from('>I4s', data, pos)
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def _unfilter(raw, height, stride, bpp):
    rows = np.zeros((height, stride), np.uint8)
    previous = np.zeros(stride, np.int32)
    pos = 0
    for y in range(height):
        kind = raw[pos]
        line = np.frombuffer(raw, np.uint8, stride, pos + 1).astype(np.int32)
        pos += stride + 1
        if kind == 0:
            out = line
        elif kind == 2:
            out = (line + previous) & 0xFF
        else:
            out = line.copy()
            for x in range(stride):
                left = out[x - bpp] if x >= bpp else 0
                up = previous[x]
                if kind == 1:
                    predictor = left
                elif kind == 3:
                    predictor = (left + up) >> 1
                elif kind == 4:
                    corner = previous[x - bpp] if x >= bpp else 0
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                else:
                    raise _invalid(f'Invalid PNG filter type {kind}')
                out[x] = (out[x] + predictor) & 0xFF
        rows[y] = out
        previous = out
    return rows


def decode_png(data, channels=0, dtype=np.uint8):
    """The pixels of PNG `data` as [height, width, channels] (`channels` 0: the file's)."""
    if channels not in (0, 1, 3, 4):
        raise _invalid(f'channels must be 0, 1, 3 or 4, got {channels}')
    header, palette, transparency, compressed = None, None, None, []
    for kind, body in _png_chunks(data):
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'PLTE':
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b'tRNS':
            transparency = body
        elif kind == b'IDAT':
            compressed.append(body)
    if header is None:
        raise _invalid('Invalid PNG header')
    width, height, depth, color, _, _, interlace = header
    if interlace:
        raise errors.UnimplementedError(None, None, 'Interlaced PNG images are not supported.')
    samples = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    raw = zlib.decompress(b''.join(compressed))
    stride = (width * samples * depth + 7) // 8
    rows = _unfilter(raw, height, stride, max(1, samples * depth // 8))
    if depth == 16:
        image = rows.view('>u2').reshape(height, width, samples).astype(np.uint16)
    elif depth == 8:
        image = rows.reshape(height, width, samples)
    else:
        bits = np.unpackbits(rows, axis=1).reshape(height, -1, depth)
        values = bits.dot(1 << np.arange(depth - 1, -1, -1))[:, :width]
        if color == 0:
            values = values * (255 // ((1 << depth) - 1))
        image = values.astype(np.uint8)[..., None]
    if color == 3:
        indices = image[..., 0]
        rgb = palette[indices]
        if transparency is not None:
            alpha = np.full(len(palette), 255, np.uint8)
            alpha[:len(transparency)] = np.frombuffer(transparency, np.uint8)
            image = np.concatenate([rgb, alpha[indices][..., None]], -1)
        else:
            image = rgb
    return _converted(image, channels, np.dtype(dtype))


def _converted(image, channels, dtype):
    """`image` with `channels` channels (0: as it is) in `dtype` (uint8 or uint16, scaled)."""
    if image.dtype != dtype:
        if dtype == np.uint16:
            image = image.astype(np.uint16) * 257
        else:
            image = (image >> 8 if image.dtype == np.uint16 else image).astype(np.uint8)
    have = image.shape[-1]
    if channels in (0, have):
        return image
    color, alpha = (image[..., :1], image[..., 1:]) if have in (1, 2) else \
        (image[..., :3], image[..., 3:])
    top = np.iinfo(image.dtype).max
    if channels in (1, 2):
        if color.shape[-1] == 3:
            weights = np.asarray(_GREY_WEIGHTS, np.uint64)
            color = (color.astype(np.uint64) * weights).sum(-1, keepdims=True) >> 15
            color = color.astype(image.dtype)
    elif color.shape[-1] == 1:
        color = np.repeat(color, 3, -1)
    if channels in (2, 4):
        alpha = alpha if alpha.shape[-1] else np.full(color.shape[:-1] + (1,), top, image.dtype)
        return np.concatenate([color, alpha], -1)
    return color


def decode_bmp(data, channels=0):
    """The pixels of an uncompressed 24- or 32-bit (or 8-bit grey) BMP file."""
    if len(data) < 54 or not data.startswith(b'BM'):
        raise _invalid('Invalid BMP data')
    offset = struct.unpack_from('<I', data, 10)[0]
    width, height, _, bits, compression = struct.unpack_from('<iiHHI', data, 18)
    if compression not in (0, 3) or bits not in (8, 24, 32):
        raise errors.UnimplementedError(None, None, f'BMP with {bits} bits per pixel and '
                                        f'compression {compression} is not supported.')
    samples = bits // 8
    row_size = (width * samples + 3) // 4 * 4
    rows = abs(height)
    pixels = np.frombuffer(data, np.uint8, row_size * rows, offset).reshape(rows, row_size)
    image = pixels[:, :width * samples].reshape(rows, width, samples)
    if height > 0:  # bottom-up rows
        image = image[::-1]
    if samples >= 3:
        image = np.concatenate([image[..., 2::-1], image[..., 3:]], -1)
    image = np.ascontiguousarray(image)
    return _converted(image, channels, np.dtype(np.uint8))


def jpeg_shape(data):
    """[height, width, channels] from a JPEG's frame header."""
    if not data.startswith(b'\xff\xd8'):
        raise _invalid('Not a valid JPEG file')
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            pos += 1
            continue
        marker = data[pos + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            pos += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack_from('>H', data, pos + 2)[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            _, height, width, components = struct.unpack_from('>BHHB', data, pos + 4)
            return [height, width, components]
        pos += 2 + length
    raise _invalid('Not a valid JPEG file: no frame header')
