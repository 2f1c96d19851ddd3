"""Event files: `events.out.tfevents.<time>.<host>.<pid>.<n>.v2` in a log directory, as
TensorFlow's summary writer names and writes them.

The first record is an `Event` with `file_version: "brain.Event:2"`; then one Event per summary
(a `Summary` of one tensor value with its plugin metadata) or per graph (`graph_def`).
`EventFileWriter.add` is what a summary op's kernel calls: it queues the values and returns.
Encoding, checksums and disk writes happen on `flush()`, on the writer's background thread
(every `flush_millis`, or at once when `max_queue` events wait), at `close()` and at
interpreter exit. Each flush writes whole records in one `write` call, so a process killed
mid-write leaves at most a torn last record, which readers skip.
"""
import atexit
import itertools
import os
import socket
import struct
import threading
import time
import weakref

import numpy as np

from runtime.core import dtypes, errors
from runtime.graph.serialization import wire
from runtime.graph.serialization.graph_io import tensor_to_proto
from runtime.summary.records import frame, frame_all

FILE_VERSION = 'brain.Event:2'
WRITER_NAME = 'autograph-rt runtime.summary'
_FILE_INDEX = itertools.count()  # one count per process, as TensorFlow numbers its files
_OPEN = weakref.WeakSet()  # writers to flush at interpreter exit
_OPEN_LOCK = threading.Lock()


def _os_error(logdir, error):
    """TensorFlow's error for a log directory that cannot be written, naming it."""
    what = f'{logdir!r} cannot be used as a summary log directory: {error.strerror or error}'
    if isinstance(error, FileNotFoundError):
        return errors.NotFoundError(message=what)
    if isinstance(error, PermissionError):
        return errors.PermissionDeniedError(message=what + '; choose a directory you can write')
    if isinstance(error, (NotADirectoryError, FileExistsError)):
        return errors.FailedPreconditionError(message=f'{logdir!r} is not a directory; pass a '
                                                      f'directory for the event files')
    return errors.PermissionDeniedError(message=what)


def event_bytes(wall_time, step=0, **what):
    """One serialized Event; `what` is one of file_version, graph_def, summary."""
    return wire.encode('Event', {'wall_time': wall_time, 'step': int(step), **what})


class EventFileWriter:
    """Writes the events of one `rt.summary` file writer to a new event file in `logdir`."""

    def __init__(self, logdir, max_queue=10, flush_millis=120000, filename_suffix='.v2'):
        self.logdir = logdir
        try:
            os.makedirs(logdir, exist_ok=True)
            if not os.path.isdir(logdir):
                raise NotADirectoryError(logdir)
            name = (f'events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.'
                    f'{os.getpid()}.{next(_FILE_INDEX)}{filename_suffix}')
            self.path = os.path.join(logdir, name)
            self._file = open(self.path, 'wb')
        except OSError as e:
            raise _os_error(logdir, e) from None
        self._max_queue = max(int(max_queue), 1)
        self._period = max(flush_millis, 1) / 1000
        self._queue = []
        self._queue_lock = threading.Lock()  # held for an append: the step never waits on disk
        self._file_lock = threading.Lock()  # one flush at a time
        self._pieces = {}  # (tag, serialized SummaryMetadata) -> summary_value_pieces
        self._wake = threading.Event()
        self.closed = False
        first = event_bytes(float(int(time.time())), file_version=FILE_VERSION,
                            source_metadata={'writer': WRITER_NAME})
        self._write(frame(first))
        # The thread holds the writer weakly: a writer nothing uses any more is closed and
        # collected (`__del__`), and its thread ends.
        self.thread = threading.Thread(target=_flush_periodically,
                                        args=(weakref.ref(self), self._wake, self._period),
                                        name=f'summary writer {logdir}', daemon=True)
        self.thread.start()
        with _OPEN_LOCK:
            _OPEN.add(self)

    # ---- what the summary ops' kernels call -----------------------------------------------

    def add(self, step, tag, value, metadata):
        """Queue a summary of the numpy `value` under `tag` (serialized SummaryMetadata
        `metadata`) at `step`."""
        item = (time.time(), int(step), tag, np.array(value), metadata)
        with self._queue_lock:
            self._queue.append(item)
            full = len(self._queue) >= self._max_queue
        if full:
            self._wake.set()

    def add_graph(self, step, graph_def):
        """Queue a `graph_def` event (a serialized GraphDef)."""
        with self._queue_lock:
            self._queue.append((time.time(), int(step), None, graph_def, None))
        self._wake.set()

    # ---- writing ------------------------------------------------------------------------------

    def flush(self):
        """Write every queued event to the file now."""
        with self._file_lock:
            with self._queue_lock:
                items, self._queue = self._queue, []
            if items and not self._file.closed:
                self._write(frame_all([self._event(item) for item in items]))

    def close(self):
        """Flush, then close the file; later summaries to this writer are an error."""
        if self.closed:
            return
        self.closed = True
        self._wake.set()
        self.flush()
        with self._file_lock:
            self._file.close()
        with _OPEN_LOCK:
            _OPEN.discard(self)

    def _write(self, data):
        try:
            self._file.write(data)
            self._file.flush()
        except OSError as e:
            raise _os_error(self.logdir, e) from None

    def __del__(self):
        if not getattr(self, 'closed', True):
            self.close()

    def _event(self, item):
        wall_time, step, tag, value, metadata = item
        if tag is None:
            return event_bytes(wall_time, step, graph_def=value)
        pieces = self._pieces.get((tag, metadata))
        if pieces is None:
            pieces = self._pieces[(tag, metadata)] = summary_value_pieces(tag, metadata)
        return summary_event_bytes(wall_time, step, value, pieces)


def _flush_periodically(ref, wake, period):
    """The writer's background thread: flush every `period` seconds or when woken."""
    while True:
        wake.wait(period)
        wake.clear()
        writer = ref()
        if writer is None or writer.closed:
            return
        writer.flush()
        del writer


def summary_value_pieces(tag, metadata):
    """The encoded `tag` and `metadata` fields of a Summary.Value, which go around its tensor
    (protobuf writes fields by number: tag 1, tensor 8, metadata 9)."""
    head = bytearray(b'\x0a')
    data = tag.encode('utf-8')
    wire.put_varint(len(data), head)
    tail = bytearray(b'\x4a')
    wire.put_varint(len(metadata), tail)
    return bytes(head) + data, bytes(tail) + metadata


_DOUBLE = struct.Struct('<d')
_FLOAT32 = np.dtype(np.float32)
# A float32 scalar's TensorProto before its 4 bytes: dtype DT_FLOAT, shape [], tensor_content.
_FLOAT32_SCALAR = b'\x08\x01\x12\x00\x22\x04'


def summary_event_bytes(wall_time, step, value, pieces):
    """The Event of one tensor summary: what `wire.encode('Event', ...)` gives for it, built from
    cached pieces (the writer's flush encodes one per summary)."""
    if value.dtype == _FLOAT32 and not value.ndim:  # a scalar summary: the common case
        tensor = _FLOAT32_SCALAR + value.astype('<f4').tobytes()
    else:
        dtype = dtypes.string if value.dtype.kind in 'OSU' else dtypes.of_value(value)
        tensor = wire.encode('TensorProto', tensor_to_proto(value, dtype))
    head, tail = pieces
    entry = bytearray(head)
    entry += b'\x42'
    wire.put_varint(len(tensor), entry)
    entry += tensor
    entry += tail
    summary = bytearray(b'\x0a')
    wire.put_varint(len(entry), summary)
    summary += entry
    out = bytearray(b'\x09')
    out += _DOUBLE.pack(wall_time)
    if step:
        out.append(0x10)
        wire.put_varint(step, out)
    out.append(0x2a)
    wire.put_varint(len(summary), out)
    out += summary
    return bytes(out)


@atexit.register
def _flush_at_exit():
    with _OPEN_LOCK:
        writers = list(_OPEN)
    for writer in writers:
        writer.close()
