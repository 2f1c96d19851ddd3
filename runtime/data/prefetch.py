"""`prefetch(n)`: a background thread prepares up to `n` elements ahead of the consumer.

Each pass over a Prefetch value starts one producer thread that iterates the input stage and
puts its elements into a queue bounded by `n`, so data preparation (slicing, shuffling, the map
functions' generated code, batching) overlaps with whatever the consumer does with the previous
element (a training step); numpy releases the GIL in its heavy loops.

Shutting down: the producer holds no reference to the consumer's `PrefetchIterator`, so when the
iterator is dropped (garbage), its finalizer stops the producer and joins it; at interpreter
exit every live producer is stopped (the threads are daemons, so exit never waits on one).

Fork: before `fork`, each live producer is paused between two elements (the fork waits for the
element being prepared); in the child, where only the forking thread survives, each iterator
gets a new channel holding the elements already prefetched (and the one being handed over) and
a new producer that continues from where the old one was; in the parent the producers resume.
"""
import atexit
import collections
import os
import threading
import weakref

from runtime.data.values import DatasetValue

AUTOTUNE = -1
AUTOTUNE_BUFFER = 2  # what AUTOTUNE picks: enough to overlap one step, little memory
_END = object()
_live = weakref.WeakSet()  # the PrefetchIterators not yet finished, for exit and fork


class _Failure:
    def __init__(self, error):
        self.error = error


class _Channel:
    """What the producer thread shares with the consumer: a queue of at most `size` elements
    (a deque under a condition), the stop flag, the element being handed over (`pending`), and
    the `step` lock the producer holds while preparing one element."""

    def __init__(self, size, items=()):
        self.items = collections.deque(items)
        self.size = size
        self.ready = threading.Condition(threading.RLock())
        self.step = threading.Lock()
        self.stopped = False
        self.pending = None

    def put(self, item):
        """Append `item` once there is room; False when stopped meanwhile."""
        with self.ready:
            while len(self.items) >= self.size and not self.stopped:
                self.ready.wait()
            if self.stopped:
                return False
            self.items.append(item)
            self.pending = None
            self.ready.notify_all()
            return True

    def get(self):
        with self.ready:
            while not self.items:
                self.ready.wait()
            item = self.items.popleft()
            self.ready.notify_all()
            return item

    def stop(self):
        with self.ready:
            self.stopped = True
            self.ready.notify_all()

    def handed_over(self):
        """The elements a new channel starts with after a fork: those queued, and the one the
        producer was handing over if it did not get into the queue."""
        items = list(self.items)
        pending = self.pending
        if pending is not None and (not items or items[-1] is not pending):
            items.append(pending)
        return items


def _produce(source, channel):
    try:
        while True:
            with channel.step:
                if channel.stopped:
                    return
                element = channel.pending = next(source, _END)
            if not channel.put(element) or element is _END:
                return
    except BaseException as e:  # handed to the consumer, which raises it
        channel.put(_Failure(e))


def _stop(channel, thread):
    channel.stop()
    if thread is not threading.current_thread() and thread.is_alive():
        thread.join(timeout=1.0)


class PrefetchIterator:
    def __init__(self, source, size):
        self.source, self.size = iter(source), size
        self.done = False
        self._start(())
        _live.add(self)

    def _start(self, items):
        self.channel = _Channel(self.size, items)
        self.thread = threading.Thread(target=_produce, args=(self.source, self.channel),
                                       name='rt.data prefetch', daemon=True)
        self.thread.start()
        self._finalizer = weakref.finalize(self, _stop, self.channel, self.thread)

    def __iter__(self):
        return self

    def __next__(self):
        if self.done:
            raise StopIteration
        item = self.channel.get()
        if item is _END or isinstance(item, _Failure):
            self.close()
            if item is _END:
                raise StopIteration
            raise item.error
        return item

    def close(self):
        """Stop the producer (and wait for it); later `next` calls end the iteration."""
        self.done = True
        _live.discard(self)
        self._finalizer()

    def _after_fork_in_child(self):
        self._finalizer.detach()
        if not self.done:
            self._start(self.channel.handed_over())


class Prefetch(DatasetValue):
    def __init__(self, input_, size):
        self.input = input_
        self.size = AUTOTUNE_BUFFER if size == AUTOTUNE else int(size)
        self.cardinality = input_.cardinality

    def __iter__(self):
        if self.size == 0:
            return iter(self.input)
        return PrefetchIterator(self.input, self.size)


def live_producers():
    """The prefetch threads running now (tests check none is left behind)."""
    return [it.thread for it in list(_live) if it.thread.is_alive()]


def _stop_all():
    for it in list(_live):
        it.close()


_paused = []


def _pause_producers():
    for it in list(_live):
        it.channel.step.acquire()
        _paused.append(it)


def _resume_producers():
    while _paused:
        _paused.pop().channel.step.release()


def _restart_in_child():
    paused = list(_paused)
    _paused.clear()
    for it in paused:
        it._after_fork_in_child()


atexit.register(_stop_all)
os.register_at_fork(before=_pause_producers, after_in_parent=_resume_producers,
                    after_in_child=_restart_in_child)
