"""GIF files: `tf.io.decode_gif` (op `DecodeGif`), every frame as RGB, as TensorFlow decodes
them (giflib's frames drawn in turn on one canvas: each frame starts from the previous one, a
transparent pixel keeps it, and what the first frame leaves uncovered is black)."""
import numpy as np

from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.registry import NO_GRADIENT, register


def _fail(message):
    return errors.InvalidArgumentError(message=f'Failed to decode gif: {message}')


def _color_table(data, pos, flags):
    size = 3 * (2 << (flags & 7))
    if pos + size > len(data):
        raise _fail('the color table is cut short')
    return np.frombuffer(data[pos:pos + size], np.uint8).reshape(-1, 3), pos + size


def _sub_blocks(data, pos):
    """The bytes of the data sub-blocks at `pos`, and the position after them."""
    parts = []
    while True:
        if pos >= len(data):
            raise _fail('the data blocks are cut short')
        size = data[pos]
        pos += 1
        if size == 0:
            return b''.join(parts), pos
        parts.append(data[pos:pos + size])
        pos += size


def _lzw(codes, minimum, count):
    """The `count` color indices of the LZW stream `codes` (bytes) with `minimum` bits."""
    clear, end = 1 << minimum, (1 << minimum) + 1
    out = bytearray()
    table = [bytes([i]) for i in range(clear)] + [b'', b'']
    width, previous = minimum + 1, None
    bits = int.from_bytes(codes, 'little')
    total, pos = len(codes) * 8, 0
    while len(out) < count and pos + width <= total:
        code = (bits >> pos) & ((1 << width) - 1)
        pos += width
        if code == clear:
            table = table[:end + 1]
            width, previous = minimum + 1, None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if previous is not None:
                table.append(previous + entry[:1])
        elif code == len(table) and previous is not None:
            entry = previous + previous[:1]
            table.append(entry)
        else:
            raise _fail(f'an LZW code {code} is out of range')
        out += entry
        previous = entry
        if len(table) == 1 << width and width < 12:
            width += 1
    if len(out) < count:
        out += bytes(count - len(out))  # a frame cut short: the rest index 0, as giflib
    return np.frombuffer(bytes(out[:count]), np.uint8)


def _deinterlaced(indices, height, width):
    rows = indices.reshape(height, width)
    order = [r for start, step in ((0, 8), (4, 8), (2, 4), (1, 2))
             for r in range(start, height, step)]
    out = np.empty_like(rows)
    out[order] = rows
    return out


def decode_frames(data):
    """The frames of the GIF file `data` (bytes): uint8 [frames, height, width, 3]."""
    if len(data) < 13 or data[:6] not in (b'GIF87a', b'GIF89a'):
        raise _fail('not a GIF file')
    width, height = int.from_bytes(data[6:8], 'little'), int.from_bytes(data[8:10], 'little')
    flags, pos = data[10], 13
    global_table = None
    if flags & 0x80:
        global_table, pos = _color_table(data, pos, flags)
    frames, transparent = [], None
    while pos < len(data):
        kind = data[pos]
        pos += 1
        if kind == 0x3B:  # the trailer
            break
        if kind == 0x21:  # an extension
            label = data[pos]
            body, pos = _sub_blocks(data, pos + 1)
            if label == 0xF9 and len(body) >= 4:
                transparent = body[3] if body[0] & 1 else None
            continue
        if kind != 0x2C:
            raise _fail(f'unknown block 0x{kind:02x}')
        left, top, w, h = (int.from_bytes(data[pos + i:pos + i + 2], 'little')
                           for i in (0, 2, 4, 6))
        image_flags = data[pos + 8]
        pos += 9
        table = global_table
        if image_flags & 0x80:
            table, pos = _color_table(data, pos, image_flags)
        minimum = data[pos]
        codes, pos = _sub_blocks(data, pos + 1)
        indices = _lzw(codes, minimum, w * h)
        indices = _deinterlaced(indices, h, w) if image_flags & 0x40 else \
            indices.reshape(h, w)
        if table is None:
            raise _fail('missing color map')
        canvas = frames[-1].copy() if frames else np.zeros((height, width, 3), np.uint8)
        r0, r1, c0, c1 = max(top, 0), min(top + h, height), max(left, 0), min(left + w, width)
        region = indices[r0 - top:r1 - top, c0 - left:c1 - left]
        keep = region == transparent if transparent is not None else np.zeros(region.shape,
                                                                               bool)
        if (region[~keep] >= len(table)).any():
            raise _fail(f'found color index {int(region[~keep].max())} outside of color map '
                        f'range {len(table)}')
        target = canvas[r0:r1, c0:c1]
        target[~keep] = table[region[~keep]]
        frames.append(canvas)
        transparent = None
    if not frames:
        raise _fail('the file has no image')
    return np.stack(frames)


DECODE_GIF = register(
    'DecodeGif', lambda contents: decode_frames(bytes(np.asarray(contents, object)[()])),
    lambda inputs, attrs: [(dtypes.uint8, TensorShape([None, None, None, 3]))],
    inputs=('contents',), outputs=('image',), type_attrs=(), gradient=NO_GRADIENT)
