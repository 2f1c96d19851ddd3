"""The `--jit` test mode: every graph the tests run goes through `jit_compile=True` where the
native backend lowers it (the others use the default executor), so the graph tests check that
native code gives the default executor's results:

    python3 -m pytest --jit tests/runtime/test_control_flow.py \
        tests/autograph/tracing/test_function_seeds.py

It compiles every distinct graph with numba, so it is slow on a cold cache (see docs/jit.md);
the default run covers the native backend in tests/runtime/executor/test_native.py.
"""
import atexit
import os
import shutil
import tempfile

import pytest

import runtime.executor
from runtime.core import errors

# jit_compile=True compiles before the first call runs (not in the background while the default
# executor runs it, docs/jit.md), so the tests run native code; the tiering's tests turn it on
os.environ.setdefault('AUTOGRAPH_RT_JIT_TIERED', '0')
# converted code goes to an on-disk cache of this run's own (autograph/compiler/disk_cache.py),
# shared by the run's workers and the processes its tests start, removed at the end
if 'AUTOGRAPH_CACHE' not in os.environ:
    os.environ['AUTOGRAPH_CACHE'] = tempfile.mkdtemp(prefix='autograph-conversions-')
    atexit.register(shutil.rmtree, os.environ['AUTOGRAPH_CACHE'], True)
default_compile_graph = runtime.executor.compile_graph
counts = {'native': 0, 'default': 0}


def jit_where_possible(graph, inputs, outputs, jit_compile=False, **options):
    """A plan that runs natively unless the graph does not lower (then the default one); a
    graph the test compiles with `jit_compile=True` itself gets its native plan as it is."""
    native = default_compile_graph(graph, inputs, outputs, jit_compile=True, **options)
    if jit_compile:
        return native
    chosen = []

    def run(*values):
        if chosen:
            return chosen[0](*values)
        try:
            result = native(*values)
        except errors.InvalidArgumentError as e:
            if 'jit_compile=True' not in str(e):
                raise
            chosen.append(default_compile_graph(graph, inputs, outputs, **options))
            counts['default'] += 1
            return chosen[0](*values)
        chosen.append(native)
        counts['native'] += 1
        return result
    return run


def pytest_addoption(parser):
    parser.addoption('--jit', action='store_true',
                     help='run graphs as jit_compile=True native code where it applies')


def pytest_configure(config):
    config.addinivalue_line('markers', 'default_executor: a test of the default executor\'s '
                                       'generated code, which --jit does not run')
    config.addinivalue_line('markers', 'interrupts_a_graph: a signal handler raises while a '
                                       'graph runs, which native code (no signal checks while '
                                       'it runs) would not see: --jit does not run it')


def pytest_collection_modifyitems(config, items):
    """With --jit, the tests of the default executor's generated code are skipped: its graphs
    run as native code, which has neither its source nor its memory policy."""
    if config.getoption('--jit'):
        skip = pytest.mark.skip(reason='tests the default executor\'s generated code')
        uninterruptible = pytest.mark.skip(reason='native code does not check for signals '
                                                  'while it runs (docs/jit.md)')
        for item in items:
            if item.get_closest_marker('default_executor'):
                item.add_marker(skip)
            if item.get_closest_marker('interrupts_a_graph'):
                item.add_marker(uninterruptible)


@pytest.fixture(autouse=True)
def jit_mode(request, monkeypatch):
    """With --jit, graphs run natively where they lower."""
    if not request.config.getoption('--jit'):
        yield
        return
    import runtime.graph.graph
    from autograph.tracing import concrete

    for module in (runtime.executor, runtime.graph.graph, concrete):
        monkeypatch.setattr(module, 'compile_graph', jit_where_possible)
    yield


def pytest_sessionfinish(session):
    """An xdist worker hands its counts to the controller (`pytest_testnodedown`)."""
    workeroutput = getattr(session.config, 'workeroutput', None)
    if workeroutput is not None:
        workeroutput['jit_counts'] = dict(counts)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, when it runs the tests
def pytest_testnodedown(node, error):
    for kind, count in getattr(node, 'workeroutput', {}).get('jit_counts', {}).items():
        counts[kind] += count


def pytest_terminal_summary(terminalreporter, config):
    if config.getoption('--jit'):
        terminalreporter.write_line(f'--jit: {counts["native"]} graphs ran as native code, '
                                    f'{counts["default"]} do not lower and ran as usual')
