"""`rt.summary.create_noop_writer` (a writer that writes nothing) and
`rt.summary.should_record_summaries`."""
from runtime.ops.convert import constant, convert_to_tensor
from runtime.summary.writer import should_record, state


class NoopSummaryWriter:
    """A writer whose summaries write nothing: inside `as_default()` (or after
    `set_as_default()`) every summary returns False, as with no writer at all."""

    def as_default(self, step=None):
        return _NoWriter(step)

    def set_as_default(self, step=None):
        state.writer = None
        if step is not None:
            state.step = step

    def flush(self):
        """Nothing is queued."""

    def close(self):
        """Nothing is open."""


class _NoWriter:
    def __init__(self, step):
        self._step = step
        self._saved = []

    def __enter__(self):
        self._saved.append((state.writer, state.step))
        state.writer = None
        if self._step is not None:
            state.step = self._step
        return self

    def __exit__(self, *exc):
        state.writer, state.step = self._saved.pop()
        return False


def create_noop_writer():
    """A `NoopSummaryWriter`."""
    return NoopSummaryWriter()


def should_record_summaries():
    """Whether a summary written now would be recorded: a default writer is set and the
    `record_if` condition holds (a bool tensor; in a graph, decided when it runs)."""
    if state.writer is None:
        return constant(False)
    record = should_record()
    return convert_to_tensor(record) if not isinstance(record, bool) else constant(record)
