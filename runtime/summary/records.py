"""TFRecord framing, as TensorFlow writes and reads event files.

A record is its length (uint64, little-endian), the masked CRC-32C of those 8 bytes, the data,
and the masked CRC-32C of the data. `read_records` stops quietly at a torn last record (a
process killed while writing), as TensorBoard's readers do, and raises DataLossError on a
record whose checksum does not match.
"""
import struct

import numpy as np

from runtime.core import errors
from runtime.summary.crc32c import masked_crc32c, masked_crc32c_rows

_LENGTH = struct.Struct('<Q')
_CRC = struct.Struct('<I')


def frame(data):
    """The bytes of one record holding `data`."""
    length = _LENGTH.pack(len(data))
    return b''.join((length, _CRC.pack(masked_crc32c(length)), data,
                     _CRC.pack(masked_crc32c(data))))


_ROWS = 16  # from this many records of one length on, numpy computes their checksums


def frame_all(records):
    """The bytes of a record for each of `records` (bytes), in order."""
    if len(records) < _ROWS:
        return b''.join(map(frame, records))
    lengths = np.array([len(r) for r in records], dtype='<u8')
    header_crcs = masked_crc32c_rows(lengths.view(np.uint8).reshape(-1, 8)).astype('<u4')
    data_crcs = [b''] * len(records)
    by_length = {}
    for i, r in enumerate(records):
        by_length.setdefault(len(r), []).append(i)
    for length, indices in by_length.items():
        if len(indices) < _ROWS or not length:
            for i in indices:
                data_crcs[i] = _CRC.pack(masked_crc32c(records[i]))
            continue
        rows = np.frombuffer(b''.join(records[i] for i in indices), np.uint8)
        crcs = masked_crc32c_rows(rows.reshape(len(indices), length)).astype('<u4').tobytes()
        for k, i in enumerate(indices):
            data_crcs[i] = crcs[4 * k:4 * k + 4]
    lengths, header_crcs = lengths.tobytes(), header_crcs.tobytes()
    return b''.join(b''.join((lengths[8 * i:8 * i + 8], header_crcs[4 * i:4 * i + 4], r,
                              data_crcs[i])) for i, r in enumerate(records))


def read_records(path):
    """The data of each whole record in the file `path`, in order."""
    with open(path, 'rb') as f:
        content = f.read()
    pos, end = 0, len(content)
    while pos + 12 <= end:
        header = content[pos:pos + 8]
        if _CRC.unpack_from(content, pos + 8)[0] != masked_crc32c(header):
            raise errors.DataLossError(message=f'{path}: corrupted record at byte {pos} (its '
                                               f'length checksum does not match)')
        size = _LENGTH.unpack(header)[0]
        start, stop = pos + 12, pos + 12 + size
        if stop + 4 > end:
            return  # a torn last record
        data = content[start:stop]
        if _CRC.unpack_from(content, stop)[0] != masked_crc32c(data):
            raise errors.DataLossError(message=f'{path}: corrupted record at byte {pos} (its '
                                               f'data checksum does not match)')
        yield data
        pos = stop + 4
