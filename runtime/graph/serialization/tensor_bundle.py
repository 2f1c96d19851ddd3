"""TensorFlow's checkpoint format (TensorBundle): read and write `PREFIX.index` + `PREFIX.data-*`.

The index is a sorted string table in the LevelDB table layout: data blocks of key/value
entries (each key stored as the length it shares with the previous key plus the rest; restart
points where a key is stored whole; the restart offsets and their count as little-endian uint32
at the block's end), each block followed by a compression byte and a masked CRC-32C; an index
block mapping the last key of each data block to the block's (offset, size) varints; a
metaindex block; and a 48-byte footer with the two block handles and the magic number
0xdb4775248b80fb57. The key "" holds a `BundleHeaderProto`; every other key names a tensor and
holds a `BundleEntryProto` (dtype, shape, shard, offset, size, masked CRC-32C of the bytes).
Numbers are stored raw and little-endian in the data file; a string tensor is the varint
length of each element, a CRC-32C of those lengths, then the bytes.

`read_bundle(prefix)` gives {key: numpy value}; `write_bundle(prefix, {key: value})` writes a
bundle TensorFlow reads (one shard, uncompressed). Damaged files raise ValueError naming them.
"""
import os
import struct

import numpy as np

from runtime.core import dtypes
from runtime.graph.serialization import wire
from runtime.graph.serialization.graph_io import as_dtype, shape_from_proto, shape_to_proto

MAGIC = 0xdb4775248b80fb57
FOOTER_SIZE = 48
HEADER_KEY = ''


def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def crc32c(data, crc=0):
    """CRC-32C (Castagnoli) of `data`, continuing from `crc`."""
    crc ^= 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in bytes(data):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """The CRC as LevelDB and TensorFlow store it next to data: rotated and offset."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xa282ead8) & 0xFFFFFFFF


# ---- the sorted string table -------------------------------------------------------------------

def _varint(data, pos, where):
    try:
        return wire.read_varint(data, pos)
    except (IndexError, wire.DecodeError):
        raise ValueError(f'{where}: a number runs past the end') from None


def read_table(data, where):
    """The (key bytes, value bytes) entries of a table, in key order."""
    if len(data) < FOOTER_SIZE:
        raise ValueError(f'{where}: too short to be a checkpoint index ({len(data)} bytes)')
    footer = data[-FOOTER_SIZE:]
    if struct.unpack('<Q', footer[-8:])[0] != MAGIC:
        raise ValueError(f'{where}: not a checkpoint index (bad magic number)')
    _, pos = _varint(footer, 0, where)  # the metaindex handle: nothing in it is needed
    _, pos = _varint(footer, pos, where)
    index_offset, pos = _varint(footer, pos, where)
    index_size, pos = _varint(footer, pos, where)
    entries = []
    for _, handle in _block_entries(data, index_offset, index_size, where):
        offset, pos = _varint(handle, 0, where)
        size, _ = _varint(handle, pos, where)
        entries.extend(_block_entries(data, offset, size, where))
    return entries


def _block_entries(data, offset, size, where):
    end = offset + size
    if end + 5 > len(data):
        raise ValueError(f'{where}: a block runs past the end of the file (truncated?)')
    block = data[offset:end]
    kind, stored = struct.unpack('<BI', data[end:end + 5])
    if kind != 0:
        raise ValueError(f'{where}: the block at {offset} is compressed (type {kind}); only '
                         f'uncompressed checkpoints (TensorFlow\'s default) can be read')
    if masked_crc32c(bytes(block) + bytes([kind])) != stored:
        raise ValueError(f'{where}: the block at {offset} fails its checksum (corrupt file)')
    if size < 4:
        raise ValueError(f'{where}: the block at {offset} is too short')
    restarts = struct.unpack('<I', block[-4:])[0]
    limit = size - 4 - 4 * restarts
    if limit < 0:
        raise ValueError(f'{where}: the block at {offset} has a bad restart count')
    entries, key, pos = [], b'', 0
    while pos < limit:
        shared, pos = _varint(block, pos, where)
        fresh, pos = _varint(block, pos, where)
        length, pos = _varint(block, pos, where)
        if shared > len(key) or pos + fresh + length > limit:
            raise ValueError(f'{where}: a malformed entry in the block at {offset}')
        key = key[:shared] + bytes(block[pos:pos + fresh])
        pos += fresh
        entries.append((key, bytes(block[pos:pos + length])))
        pos += length
    return entries


def _block(entries):
    """A block holding `entries`, every key whole (each entry a restart point)."""
    out, restarts = bytearray(), []
    for key, value in entries:
        restarts.append(len(out))
        wire.put_varint(0, out)
        wire.put_varint(len(key), out)
        wire.put_varint(len(value), out)
        out += key
        out += value
    if not restarts:
        restarts = [0]
    for r in restarts:
        out += struct.pack('<I', r)
    out += struct.pack('<I', len(restarts))
    return bytes(out)


def write_table(entries):
    """The bytes of a table holding `entries` (sorted by key)."""
    out = bytearray()

    def add_block(contents):
        handle = bytearray()
        wire.put_varint(len(out), handle)
        wire.put_varint(len(contents), handle)
        out.extend(contents)
        out.extend(struct.pack('<BI', 0, masked_crc32c(contents + b'\x00')))
        return bytes(handle)

    entries = sorted(entries)
    data_handle = add_block(_block(entries))
    meta_handle = add_block(_block([]))
    last_key = entries[-1][0] if entries else b''
    index_handle = add_block(_block([(last_key, data_handle)]))
    footer = bytearray(meta_handle + index_handle)
    footer += bytes(40 - len(footer))
    footer += struct.pack('<Q', MAGIC)
    out += footer
    return bytes(out)


# ---- the bundle --------------------------------------------------------------------------------

def data_file(prefix, shard=0, shards=1):
    return f'{prefix}.data-{shard:05d}-of-{shards:05d}'


def read_bundle(prefix):
    """{checkpoint key: numpy value} of the TensorBundle at `prefix` (`.../variables`)."""
    index_path = prefix + '.index'
    try:
        with open(index_path, 'rb') as f:
            index = f.read()
    except FileNotFoundError:
        raise OSError(f'{index_path}: the checkpoint index is missing.') from None
    try:
        entries = read_table(index, index_path)
        if not entries or entries[0][0] != b'':
            raise ValueError(f'{index_path}: the checkpoint has no header entry')
        header = wire.decode('BundleHeaderProto', entries[0][1])
    except wire.DecodeError as e:
        raise ValueError(f'{index_path}: damaged checkpoint index ({e})') from None
    if header.get('endianness', 0) != 0:
        raise ValueError(f'{index_path}: a big-endian checkpoint cannot be read.')
    shards = header.get('num_shards', 1)
    blobs = {}
    values = {}
    for key, raw in entries[1:]:
        name = key.decode('utf-8', 'replace')
        try:
            entry = wire.decode('BundleEntryProto', raw)
            dtype = as_dtype(entry.get('dtype', 0))
        except ValueError as e:
            raise ValueError(f'{index_path}: damaged entry {name!r} ({e})') from None
        if entry.get('slices'):
            raise ValueError(f'{index_path}: {name!r} is a partitioned (sliced) tensor, which '
                             f'cannot be read.')
        shard = entry.get('shard_id', 0)
        path = data_file(prefix, shard, shards)
        if path not in blobs:
            try:
                with open(path, 'rb') as f:
                    blobs[path] = f.read()
            except FileNotFoundError:
                raise OSError(f'{path}: the checkpoint data file is missing.') from None
        offset, size = entry.get('offset', 0), entry.get('size', 0)
        chunk = blobs[path][offset:offset + size]
        if len(chunk) != size:
            raise ValueError(f'{path}: truncated; {name!r} needs bytes {offset}..{offset + size}.')
        shape = shape_from_proto(entry.get('shape', {})).as_list()
        if dtype is dtypes.string:
            values[name] = _strings(chunk, shape, path, name, entry.get('crc32c'))
            continue
        if 'crc32c' in entry and masked_crc32c(chunk) != entry['crc32c']:
            raise ValueError(f'{path}: {name!r} fails its checksum (corrupt file).')
        count = int(np.prod(shape, dtype=np.int64))
        if size != count * dtype.np_dtype.itemsize:
            raise ValueError(f'{path}: {name!r} holds {size} bytes, not {count} '
                             f'{dtype.name} values.')
        arr = np.frombuffer(chunk, dtype=dtype.np_dtype.newbyteorder('<')).astype(dtype.np_dtype)
        values[name] = arr.reshape(shape)
    return values


def _string_checksums(lengths, items):
    """(checksum of the lengths, checksum of the entry): both over each length as a uint32,
    the entry's continuing over the stored lengths checksum and the bytes."""
    packed = b''.join(struct.pack('<I', n & 0xFFFFFFFF) for n in lengths)
    of_lengths = masked_crc32c(packed)
    return of_lengths, masked_crc32c(packed + struct.pack('<I', of_lengths) + b''.join(items))


def _strings(chunk, shape, path, name, checksum):
    count = int(np.prod(shape, dtype=np.int64))
    lengths, pos = [], 0
    for _ in range(count):
        n, pos = _varint(chunk, pos, path)
        lengths.append(n)
    pos += 4  # the CRC-32C of the lengths
    if checksum is not None and \
            _string_checksums(lengths, [bytes(chunk[pos:])])[1] != checksum:
        raise ValueError(f'{path}: {name!r} fails its checksum (corrupt file).')
    out = np.empty(count, dtype=object)
    for i, n in enumerate(lengths):
        out[i] = bytes(chunk[pos:pos + n])
        pos += n
    if pos != len(chunk):
        raise ValueError(f'{path}: the string tensor {name!r} is damaged.')
    return out.reshape(shape)


def write_bundle(prefix, tensors):
    """Write {key: (numpy value, runtime dtype)} as a one-shard TensorBundle at `prefix`."""
    data = bytearray()
    entries = [(b'', wire.encode('BundleHeaderProto', {'num_shards': 1,
                                                      'version': {'producer': 1}}))]
    for key in sorted(tensors):
        value, dtype = tensors[key]
        arr = np.asarray(value, dtype=object if dtype is dtypes.string else dtype.np_dtype)
        if dtype is dtypes.string:
            items = [v if isinstance(v, bytes) else str(v).encode('utf-8') for v in arr.ravel()]
            lengths = bytearray()
            for item in items:
                wire.put_varint(len(item), lengths)
            of_lengths, checksum = _string_checksums([len(i) for i in items], items)
            chunk = bytes(lengths) + struct.pack('<I', of_lengths) + b''.join(items)
        else:
            chunk = arr.astype(arr.dtype.newbyteorder('<')).tobytes()
            checksum = masked_crc32c(chunk)
        entry = {'dtype': dtype.enum, 'shape': shape_to_proto(arr.shape), 'offset': len(data),
                 'size': len(chunk), 'crc32c': checksum}
        data += chunk
        entries.append((key.encode('utf-8'), wire.encode('BundleEntryProto', entry)))
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(data_file(prefix), 'wb') as f:
        f.write(bytes(data))
    with open(prefix + '.index', 'wb') as f:
        f.write(write_table(entries))
