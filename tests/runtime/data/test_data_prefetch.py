"""prefetch(n): a background producer bounded by n, stopped when the iterator goes, safe at
exit and after fork."""
import gc
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import runtime as rt
from runtime.data import prefetch

D = rt.data.Dataset
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))


def slow_source(produced, delay):
    def gen():
        for i in range(1000):
            produced.append(i)
            time.sleep(delay)
            yield i
    return D.from_generator(gen, output_signature=rt.TensorSpec([], rt.int64))


def test_the_producer_runs_ahead_but_no_further_than_the_buffer():
    produced = []
    it = iter(slow_source(produced, 0).prefetch(3))
    assert int(next(it)) == 0
    deadline = time.time() + 5
    while len(produced) < 5 and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    # one element consumed, three in the buffer, one being put: never the whole source
    assert 4 <= len(produced) <= 6
    del it


def test_preparation_overlaps_with_the_consumer():
    steps, delay = 10, 0.03
    produced = []

    def epoch(ds):
        start = time.perf_counter()
        for _ in ds.take(steps):
            time.sleep(delay)  # the "training step"
        return time.perf_counter() - start
    serial = epoch(slow_source(produced, delay))
    overlapped = epoch(slow_source(produced, delay).prefetch(2))
    assert overlapped < serial * 0.8


def test_dropping_the_iterator_stops_its_thread():
    before = threading.active_count()
    it = iter(D.range(10 ** 6).prefetch(rt.data.AUTOTUNE))
    next(it)
    assert len(prefetch.live_producers()) == 1
    del it
    gc.collect()
    assert prefetch.live_producers() == []
    assert threading.active_count() == before


def test_an_epoch_that_ends_leaves_no_thread():
    for _ in D.range(5).prefetch(2).repeat(3):
        pass
    assert prefetch.live_producers() == []


def test_an_error_in_the_producer_reaches_the_consumer():
    def gen():
        yield 1
        raise RuntimeError('broken source')
    ds = D.from_generator(gen, output_signature=rt.TensorSpec([], rt.int32)).prefetch(2)
    it = iter(ds)
    assert int(next(it)) == 1
    with pytest.raises(RuntimeError, match='broken source'):
        next(it)
    assert prefetch.live_producers() == []


def run_python(code):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=60)


def test_interpreter_exit_does_not_wait_for_a_live_producer():
    result = run_python('''
        import runtime as rt
        it = iter(rt.data.Dataset.range(10 ** 9).prefetch(4))
        print(int(next(it)))
    ''')
    assert result.returncode == 0, result.stderr
    assert result.stdout == '0\n'


@pytest.mark.skipif(not hasattr(os, 'fork'), reason='needs os.fork')
def test_an_iterator_keeps_working_in_a_forked_child():
    result = run_python('''
        import os
        import runtime as rt
        it = iter(rt.data.Dataset.range(20).prefetch(3))
        print('parent', int(next(it)), flush=True)
        pid = os.fork()
        if pid == 0:
            rest = [int(x) for x in it]
            new = [int(x) for x in rt.data.Dataset.range(3).prefetch(2)]
            print('child', rest == list(range(1, 20)), new, flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
        print('parent', [int(x) for x in it] == list(range(1, 20)), flush=True)
    ''')
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ['parent 0', 'child True [0, 1, 2]', 'parent True']
