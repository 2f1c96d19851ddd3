"""`tf.io.TFRecordWriter` and `tf.io.TFRecordOptions`: files of TFRecord-framed records (the
framing of runtime/summary/records.py), optionally GZIP or ZLIB compressed as a whole stream,
as TensorFlow writes them; and `tf.io.write_graph`."""
import gzip
import os
import zlib
from dataclasses import dataclass

from runtime.core import errors
from runtime.graph.serialization import wire
from runtime.summary.crc32c import masked_crc32c
from runtime.summary.records import frame

_COMPRESSION = {None: '', '': '', 'NONE': '', 'ZLIB': 'ZLIB', 'GZIP': 'GZIP'}


@dataclass
class TFRecordOptions:
    """How a TFRecord file is compressed: `compression_type` '', 'ZLIB' or 'GZIP'
    (`compression_level` is zlib's); the buffer and zlib tuning fields are accepted."""
    compression_type: str | None = None
    flush_mode: int | None = None
    input_buffer_size: int | None = None
    output_buffer_size: int | None = None
    window_bits: int | None = None
    compression_level: int | None = None
    compression_method: int | None = None
    mem_level: int | None = None
    compression_strategy: int | None = None

    def __post_init__(self):
        if self.compression_type not in _COMPRESSION:
            raise ValueError(f'Unsupported compression type: {self.compression_type!r}')

    @classmethod
    def get_compression_type_string(cls, options):
        """'' , 'ZLIB' or 'GZIP' for `options` (a TFRecordOptions, a string or None)."""
        if isinstance(options, TFRecordOptions):
            return _COMPRESSION[options.compression_type]
        if options not in _COMPRESSION:
            raise ValueError(f'Unsupported compression type: {options!r}')
        return _COMPRESSION[options]


class TFRecordWriter:
    """Writes records to a TFRecord file: `write(record)`, `flush()`, `close()`, `with`."""

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(TFRecordOptions.get_compression_type_string(options))
        self._compression = _COMPRESSION[options.compression_type]
        level = -1 if options.compression_level is None else options.compression_level
        path = os.fspath(path)
        try:
            raw = open(path, 'wb')
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f'{path}; No such file or directory') \
                from None
        self._raw = raw
        if self._compression == 'GZIP':
            self._file = gzip.GzipFile(fileobj=raw, mode='wb', compresslevel=9 if level < 0
                                       else level)
        else:
            self._file = raw
        self._zlib = zlib.compressobj(level) if self._compression == 'ZLIB' else None

    def write(self, record):
        """Appends one record (bytes; a str is written as UTF-8)."""
        if self._raw is None:
            raise errors.FailedPreconditionError(None, None, 'Writer is closed.')
        data = frame(record.encode('utf-8') if isinstance(record, str) else bytes(record))
        self._file.write(self._zlib.compress(data) if self._zlib else data)

    def flush(self):
        """Writes out what is buffered."""
        if self._zlib is not None:
            self._file.write(self._zlib.flush(zlib.Z_SYNC_FLUSH))
        self._file.flush()

    def close(self):
        """Finishes the file."""
        if self._raw is None:
            return
        if self._zlib is not None:
            self._file.write(self._zlib.flush())
        if self._file is not self._raw:
            self._file.close()
        self._raw.close()
        self._raw = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a graph's GraphDef to `logdir/name` (protobuf text, or binary with
    `as_text=False`) and returns the path."""
    graph_def = graph_or_graph_def.as_graph_def() if hasattr(graph_or_graph_def,
                                                             'as_graph_def') \
        else graph_or_graph_def
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        with open(path, 'w') as f:
            f.write(str(graph_def))
    else:
        with open(path, 'wb') as f:
            f.write(wire.encode('GraphDef', graph_def))
    return path


def _decompressed(path, compression_type):
    """The bytes of the file `path`, decompressed as `compression_type` says."""
    try:
        with open(path, 'rb') as f:
            content = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f'{path}; No such file or directory') from None
    kind = TFRecordOptions.get_compression_type_string(compression_type)
    try:
        if kind == 'GZIP':
            return gzip.decompress(content)
        if kind == 'ZLIB':
            return zlib.decompress(content)
    except (OSError, zlib.error, EOFError) as e:
        raise errors.DataLossError(None, None, f'{path}: not a {kind} stream ({e})') from None
    return content


def tfrecords(path, compression_type=''):
    """The data of each record of the TFRecord file `path`, as TensorFlow's reader reads them:
    a checksum that does not match, or a record cut short, is a DataLossError."""
    content = _decompressed(path, compression_type)
    pos, end = 0, len(content)
    while pos < end:
        if pos + 12 > end:
            raise errors.DataLossError(None, None, f'truncated record at {pos} in {path}')
        header = content[pos:pos + 8]
        if int.from_bytes(content[pos + 8:pos + 12], 'little') != masked_crc32c(header):
            raise errors.DataLossError(None, None, f'corrupted record at {pos} in {path}')
        size = int.from_bytes(header, 'little')
        start, stop = pos + 12, pos + 12 + size
        if stop + 4 > end:
            raise errors.DataLossError(None, None, f'truncated record at {pos} in {path}')
        data = content[start:stop]
        if int.from_bytes(content[stop:stop + 4], 'little') != masked_crc32c(data):
            raise errors.DataLossError(None, None, f'corrupted record at {start} in {path}')
        yield data
        pos = stop + 4


def fixed_length_records(path, record_bytes, header_bytes=0, footer_bytes=0,
                         compression_type=''):
    """The records of `record_bytes` bytes each between a header and a footer of the file
    `path` (as TensorFlow's reader: a body that is not a whole number of records is an
    InvalidArgumentError before any record is read)."""
    content = _decompressed(path, compression_type)
    body = content[header_bytes:len(content) - footer_bytes]
    if len(content) < header_bytes + footer_bytes:
        raise errors.InvalidArgumentError(
            None, None, f'File {path} is too small ({len(content)} bytes) for a header of '
                        f'{header_bytes} and a footer of {footer_bytes} bytes.')
    if len(body) % record_bytes:
        raise errors.InvalidArgumentError(
            None, None, f'Excluding the header ({header_bytes} bytes) and footer '
                        f'({footer_bytes} bytes), input file "{path}" has body length '
                        f'{len(body)} bytes, which is not an exact multiple of the record '
                        f'length ({record_bytes} bytes).')
    for start in range(0, len(body), record_bytes):
        yield body[start:start + record_bytes]
