"""The cycle collector is off while the compiler's passes run, and as it was after them."""
import gc
import linecache
import threading

import pytest

import autograph as ag
from autograph.pyct import collector, transformer


def _convert_watching_collector(monkeypatch):
    """Converts a fresh function and returns whether the collector was on during its passes."""
    seen = []
    original = transformer.Base.visit

    def visit(self, node):
        seen.append(gc.isenabled())
        return original(self, node)
    monkeypatch.setattr(transformer.Base, 'visit', visit)
    namespace = {}
    exec(compile('def f(x):\n    if x > 0:\n        return x\n    return -x\n',
                 '<collector test>', 'exec'), namespace)
    linecache.cache['<collector test>'] = (0, None, ['def f(x):\n', '    if x > 0:\n',
                                                     '        return x\n', '    return -x\n'],
                                           '<collector test>')
    ag.to_code(namespace['f'])
    return seen


def test_paused_during_conversion_and_restored(monkeypatch):
    assert gc.isenabled()
    seen = _convert_watching_collector(monkeypatch)
    assert seen and not any(seen)
    assert gc.isenabled()


def test_stays_off_when_the_user_turned_it_off(monkeypatch):
    gc.disable()
    try:
        _convert_watching_collector(monkeypatch)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_and_failing_passes_restore_it():
    with pytest.raises(ValueError):
        with collector.paused():
            with collector.paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
            raise ValueError('a pass failed')
    assert gc.isenabled()


def test_concurrent_passes_share_one_pause():
    inside, leave = threading.Event(), threading.Event()

    def other():
        with collector.paused():
            inside.set()
            leave.wait(5)
    thread = threading.Thread(target=other)
    with collector.paused():
        thread.start()
        inside.wait(5)
    assert not gc.isenabled()   # the other thread's pass still runs
    leave.set()
    thread.join()
    assert gc.isenabled()

