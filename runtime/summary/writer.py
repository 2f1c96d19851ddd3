"""`rt.summary` writers and the state summaries read: the default writer, the default step
and the recording condition, per thread, as in TensorFlow."""
import threading

from runtime.core import context, dtypes
from runtime.core.tensor import EagerTensor, Tensor
from runtime.ops.array import cast
from runtime.ops.convert import convert_to_tensor
from runtime.ops.dispatch import apply
from runtime.summary.events import EventFileWriter
from runtime.summary.ops import FLUSH_SUMMARY_WRITER, SUMMARY_WRITER


class _State(threading.local):
    def __init__(self):
        self.writer = None
        self.step = None
        self.condition = True


state = _State()


class SummaryWriter:
    """Writes summaries to an event file in `logdir` (from `rt.summary.create_file_writer`).

    Summaries go to the default writer: `with writer.as_default():` or
    `writer.set_as_default()`. `flush()` writes what is queued; `close()` flushes and closes
    the file (as leaving the interpreter does).
    """

    def __init__(self, logdir, max_queue=10, flush_millis=120000, filename_suffix='.v2'):
        self.events = EventFileWriter(logdir, max_queue, flush_millis, filename_suffix)
        self.logdir = logdir

    def as_default(self, step=None):
        """A context manager making this the default writer (and `step`, when given, the
        default step) inside it; leaving it flushes the writer."""
        return _AsDefault(self, step)

    def set_as_default(self, step=None):
        """Make this the default writer from now on (and `step` the default step)."""
        self._check_open()
        state.writer = self
        if step is not None:
            state.step = step

    def flush(self):
        """Write the queued summaries to disk (in a graph: a FlushSummaryWriter op)."""
        graph = context.current_graph()
        if graph is None:
            self.events.flush()
            return None
        return apply(FLUSH_SUMMARY_WRITER, [self.handle(graph)], name='flush')

    def close(self):
        """Flush and close the file; the writer cannot be used afterwards."""
        self.events.close()

    def handle(self, graph):
        """What the summary ops take as their `writer` input: the event writer itself
        eagerly, its resource in `graph`."""
        if graph is None:
            return self.events
        return graph.capture_handle(self.events, SUMMARY_WRITER,
                                    {'shared_name': f'logdir:{self.logdir}'}, 'writer')

    def _check_open(self):
        if self.events.closed:
            raise RuntimeError(f'The summary writer for {self.logdir!r} is already closed; '
                               f'create a new one with rt.summary.create_file_writer.')

    def __repr__(self):
        return f'<rt.summary.SummaryWriter logdir={self.logdir!r}>'


class _AsDefault:
    def __init__(self, writer, step):
        self._writer = writer
        self._step = step
        self._saved = []

    def __enter__(self):
        self._writer._check_open()
        self._saved.append((state.writer, state.step))
        state.writer = self._writer
        if self._step is not None:
            state.step = self._step
        return self._writer

    def __exit__(self, *exc):
        state.writer, state.step = self._saved.pop()
        if not self._writer.events.closed:
            self._writer.flush()
        return False


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter writing a new event file in `logdir` (created if missing).

    Summaries are queued and written by a background thread every `flush_millis` (120000),
    when `max_queue` (10) are waiting, on `flush()`/`close()` and at interpreter exit. A
    directory that cannot be written raises rt.errors.NotFoundError,
    PermissionDeniedError or FailedPreconditionError naming it. `experimental_trackable`
    and `experimental_mesh` (a checkpointable writer, DTensor meshes) are not supported.
    """
    if experimental_trackable or experimental_mesh is not None:
        raise NotImplementedError('create_file_writer(experimental_trackable / '
                                  'experimental_mesh) is not supported.')
    if not isinstance(logdir, str):
        logdir = str(logdir) if hasattr(logdir, '__fspath__') else logdir
    if not isinstance(logdir, str) or not logdir:
        raise ValueError(f'rt.summary.create_file_writer needs a directory name, got '
                         f'{logdir!r}.')
    return SummaryWriter(logdir, 10 if max_queue is None else max_queue,
                         120000 if flush_millis is None else flush_millis,
                         '.v2' if filename_suffix is None else filename_suffix)


def flush(writer=None, name=None):
    """Write what `writer` (default: the default writer; none: nothing to do) has queued; in a
    graph, a FlushSummaryWriter op that does it at each run."""
    writer = writer or state.writer
    return None if writer is None else writer.flush()


def set_step(step):
    """Set the default step of the summaries of this thread (an int, a tensor or a Variable;
    a Python int is fixed in a graph when it is traced, a Variable is read at each run)."""
    state.step = step


def get_step():
    """The default step set by `set_step` or `as_default(step=...)`, or None."""
    return state.step


class record_if:  # noqa: N801 - TensorFlow's name
    """`with rt.summary.record_if(condition):` summaries inside write only when `condition`
    holds: a bool, a bool tensor (in a graph: tested each run) or a callable returning one."""

    def __init__(self, condition):
        self._condition = condition
        self._saved = []

    def __enter__(self):
        self._saved.append(state.condition)
        state.condition = self._condition

    def __exit__(self, *exc):
        state.condition = self._saved.pop()
        return False


def should_record():
    """True, False, or a symbolic bool tensor (decided when the graph runs)."""
    condition = state.condition
    if callable(condition):
        condition = condition()
    if isinstance(condition, Tensor):
        if type(condition) is EagerTensor:
            return bool(condition.value)
        return condition
    return bool(condition)


def current_step(step):
    """`step`, else the default step, as an int64 tensor (or value); ValueError if none."""
    if step is None:
        step = state.step
        if step is None:
            raise ValueError('No step set. Please specify one either through the `step` '
                             'argument or through rt.summary.experimental.set_step().')
    if isinstance(step, int):
        return dtypes.int64.np_dtype.type(step)
    step = convert_to_tensor(step)
    return step if step.dtype is dtypes.int64 else cast(step, dtypes.int64)
