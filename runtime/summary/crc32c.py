"""CRC-32C (Castagnoli), the checksum of TFRecord framing, and TensorFlow's masked form of it.

Pure Python and table-driven: the standard library has only the IEEE CRC-32 (`zlib.crc32`),
whose polynomial differs, and a compiled package would be a dependency for a few bytes a step.
One table lookup a byte costs 50-130 ns (docs/tensorboard.md has the figures; a 16-bit table is
slower in CPython, its 65536 entries miss the cache); the summary writer computes checksums on
its flush thread, never in the training step.
"""

_POLY = 0x82F63B78  # the Castagnoli polynomial, bit-reversed
_MASK_DELTA = 0xA282EAD8


def _table():
    table = []
    for n in range(256):
        crc = n
        for _ in range(8):
            crc = (crc >> 1) ^ _POLY if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _table()


def crc32c(data, crc=0):
    """The CRC-32C of `data` (bytes-like), continuing from the checksum `crc` of what came
    before it."""
    table = _TABLE
    crc ^= 0xFFFFFFFF
    for byte in memoryview(data).cast('B'):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TensorFlow's masked CRC-32C of `data`: the checksum rotated right by 15 bits plus a
    constant, so that a checksum of data holding checksums stays strong."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF
