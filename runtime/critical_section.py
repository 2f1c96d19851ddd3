"""`rt.CriticalSection`: run functions one at a time.

Eagerly `execute(fn)` holds the section's lock while `fn` runs, so Python threads sharing it
(and its variables) never overlap inside it. In a function being traced `fn` builds its ops
into the graph; the executor runs stateful ops (the variable reads and writes a critical
section protects) one after another in program order, so they never interleave either.
"""
import threading

from runtime.core.context import current_graph


class CriticalSection:
    """TensorFlow's signature; `shared_name`, `critical_section_def` and `import_scope` (for
    sharing one section between TensorFlow 1 sessions) change nothing in one process."""

    _count = 0

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None):
        if critical_section_def is not None:
            raise NotImplementedError('CriticalSection(critical_section_def=...) restores a '
                                      'TensorFlow 1 graph collection, which is not supported.')
        CriticalSection._count += 1
        self._name = name or f'CriticalSection_{CriticalSection._count}'
        self._lock = threading.Lock()
        self._running = threading.local()

    @property
    def name(self):
        return self._name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """`fn()`'s result, `fn` run inside the section. Calling `execute` of the same section
        from inside `fn` is TensorFlow's ValueError (it would wait for itself)."""
        if getattr(self._running, 'active', False):
            raise ValueError(f'Attempting to lock a CriticalSection ({self._name}) in which we '
                             f'are already running. This is illegal and may cause deadlocks.')
        if current_graph() is not None:
            return self._run(fn)
        with self._lock:
            return self._run(fn)

    def _run(self, fn):
        self._running.active = True
        try:
            return fn()
        finally:
            self._running.active = False
