"""CRC-32C (Castagnoli), the checksum of TFRecord framing, and TensorFlow's masked form of it.

Table-driven, without a dependency: the standard library has only the IEEE CRC-32
(`zlib.crc32`), whose polynomial differs. One record: a Python loop, one table lookup a byte
(50-130 ns a byte; a 16-bit table is slower in CPython, its 65536 entries miss the cache). Many
records of one length (the summaries of a flush): numpy runs the same loop over all of them at
once, one column of bytes a step (`masked_crc32c_rows`). docs/tensorboard.md has the figures;
the summary writer computes checksums on its flush thread, never in the training step.
"""
import numpy as np

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
_NP_TABLE = np.array(_TABLE, dtype=np.uint32)


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


def masked_crc32c_rows(rows):
    """`masked_crc32c` of each row of the uint8 array `rows` [n, length], as a uint32 array."""
    table = _NP_TABLE
    crc = np.full(rows.shape[0], 0xFFFFFFFF, np.uint32)
    for column in np.ascontiguousarray(rows.T):
        crc = table[(crc ^ column) & 0xFF] ^ (crc >> 8)
    crc ^= np.uint32(0xFFFFFFFF)
    return ((crc >> 15) | (crc << 17)) + np.uint32(_MASK_DELTA)
