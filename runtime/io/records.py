"""`tf.io.TFRecordWriter` and `tf.io.TFRecordOptions`: files of TFRecord-framed records (the
framing of runtime/summary/records.py), optionally GZIP or ZLIB compressed as a whole stream,
as TensorFlow writes them; and `tf.io.write_graph`."""
import gzip
import os
import zlib
from dataclasses import dataclass

from runtime.core import errors
from runtime.graph.serialization import wire
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
