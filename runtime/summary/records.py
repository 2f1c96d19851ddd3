"""TFRecord framing, as TensorFlow writes and reads event files.

A record is its length (uint64, little-endian), the masked CRC-32C of those 8 bytes, the data,
and the masked CRC-32C of the data. `read_records` stops quietly at a torn last record (a
process killed while writing), as TensorBoard's readers do, and raises DataLossError on a
record whose checksum does not match.
"""
import struct

from runtime.core import errors
from runtime.summary.crc32c import masked_crc32c

_LENGTH = struct.Struct('<Q')
_CRC = struct.Struct('<I')


def frame(data):
    """The bytes of one record holding `data`."""
    length = _LENGTH.pack(len(data))
    return b''.join((length, _CRC.pack(masked_crc32c(length)), data,
                     _CRC.pack(masked_crc32c(data))))


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
