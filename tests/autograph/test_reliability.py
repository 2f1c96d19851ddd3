"""Reliability: threads, interrupts and bad input.

Each section is a group of small user programs that must hold under stress:

1. Threads: one Function traced and called from many threads at once (same and different
   signatures, variables, prints); first calls of different Functions nested across threads.
2. Interrupts during tracing: a KeyboardInterrupt leaves no half-built state behind.
3. The CLI on bad files: every file is generated in `tmp_path` and converted with
   `python3 -m autograph convert` in a subprocess.

The runtime half (aliasing, ranges and counters, fork after a parallel graph, error types,
interrupts while a graph runs, threads on one graph, memory flat over many calls) is
tests/runtime/test_robustness.py.
"""
import gc
import importlib.util
import linecache
import os
import subprocess
import sys
import threading
import time

import pytest

import autograph as ag
import runtime as rt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
THREADS = 16


def run_in_threads(target, count=THREADS):
    """Runs `target(i)` in `count` threads started together; returns their results in order and
    re-raises the first error a thread hit."""
    barrier = threading.Barrier(count)
    results = [None] * count
    errors = []

    def work(i):
        barrier.wait()
        try:
            results[i] = target(i)
        except BaseException as e:  # noqa: B036 - handed to the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive(), 'a thread hung'
    if errors:
        raise errors[0]
    return results


# ---- 1. Threads ----------------------------------------------------------------------------


def test_sixteen_threads_calling_one_function_trace_it_once_and_compute_right():
    traces = []

    @ag.function
    def scaled_sum(x):
        traces.append(1)
        time.sleep(0.02)  # a slow trace: the other threads arrive while it runs
        total = rt.constant(0.0)
        for value in x:
            if value > 0:
                total += value * 2.0
            else:
                total -= value
        return total

    results = run_in_threads(lambda i: float(scaled_sum(rt.constant([float(i), -1.0]))))
    assert results == [2.0 * i + 1.0 for i in range(THREADS)]
    assert len(traces) == 1
    assert scaled_sum.experimental_get_tracing_count() == 1


@pytest.mark.filterwarnings('ignore::autograph.tracing.polymorphic_function.RetracingWarning')
def test_threads_with_different_signatures_each_trace_their_own_graph_once():
    @ag.function
    def total(x):
        return rt.reduce_sum(x)

    def call(i):
        return [float(total(rt.ones([i + 1]))) for _ in range(3)]

    assert run_in_threads(call) == [[float(i + 1)] * 3 for i in range(THREADS)]
    assert total.experimental_get_tracing_count() == THREADS


def test_threads_making_the_first_call_of_a_lazy_layer_initialize_its_variable_once():
    class Scale:
        def __init__(self):
            self.factor = None
            self.created = 0

        @ag.function
        def __call__(self, x):
            if self.factor is None:
                self.created += 1
                self.factor = rt.Variable(rt.ones_like(x) * 2.0)
            return x * self.factor

    layer = Scale()
    results = run_in_threads(lambda i: layer(rt.constant([float(i)] * 2)).numpy().tolist())
    assert results == [[2.0 * i] * 2 for i in range(THREADS)]
    assert layer.created == 1
    assert layer.factor.numpy().tolist() == [2.0, 2.0]


def test_threads_share_a_variable_a_graph_assigns():
    counter = rt.Variable(0)
    lock = threading.Lock()

    @ag.function
    def read_and_set(i):
        counter.assign(i)
        return counter.read_value()

    def call(i):
        with lock:  # assignments race as in TensorFlow; each call must see its own write
            return int(read_and_set(rt.constant(i)))

    assert run_in_threads(call) == list(range(THREADS))
    assert read_and_set.experimental_get_tracing_count() == 1


def test_prints_of_a_graph_happen_once_per_call_from_every_thread(capfd):
    @ag.function
    def shout(x):
        print('tracing')
        rt.print('value', x)
        return x + 1

    run_in_threads(lambda i: shout(rt.constant(i)))
    captured = capfd.readouterr()
    lines = (captured.out + captured.err).splitlines()
    assert lines.count('tracing') == 1
    assert sorted(line for line in lines if line.startswith('value')) == sorted(
        f'value {i}' for i in range(THREADS))


def test_a_trace_that_waits_on_another_thread_making_a_first_call_does_not_deadlock():
    @ag.function
    def inner(x):
        return x * 2

    seen = []

    @ag.function
    def outer(x):
        # While `outer` traces, another thread makes the first call of `inner` and this trace
        # waits for it: the trace locks are per Function, so `inner` traces meanwhile.
        worker = threading.Thread(target=lambda: seen.append(float(inner(rt.constant(3.0)))))
        worker.start()
        worker.join(timeout=10)
        assert not worker.is_alive(), 'the first call of inner() waited on the trace of outer()'
        return x + 1

    assert float(outer(rt.constant(1.0))) == 2.0
    assert seen == [6.0]


# ---- 2. Interrupts during tracing --------------------------------------------------------------


def test_a_keyboard_interrupt_while_tracing_leaves_clean_state():
    interrupt = [True]

    class Model:
        def __init__(self):
            self.w = None

        @ag.function
        def __call__(self, x):
            if self.w is None:
                self.w = rt.Variable(rt.ones([2]))
            y = x * self.w
            if interrupt[0]:
                interrupt[0] = False
                raise KeyboardInterrupt
            return y

    model = Model()
    with pytest.raises(KeyboardInterrupt):
        model(rt.constant([1.0, 2.0]))
    assert isinstance(rt.constant(1.0) + 1.0, rt.Tensor) and (rt.constant(1.0) + 1.0).numpy() == 2
    assert model.__call__.experimental_get_tracing_count() == 0
    # The next call traces again (reusing the variable made before the interrupt) and works,
    # also from another thread: the trace lock was released.
    result = run_in_threads(lambda i: model(rt.constant([1.0, 2.0])).numpy().tolist(), count=2)
    assert result == [[1.0, 2.0]] * 2
    assert model.__call__.experimental_get_tracing_count() == 1


def test_a_keyboard_interrupt_while_converting_leaves_the_function_convertible():
    calls = []

    def helper(x):
        calls.append(1)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return x + 1

    @ag.function
    def f(x):
        return helper(x)

    with pytest.raises(KeyboardInterrupt):
        f(rt.constant(1))
    assert int(f(rt.constant(1))) == 2
    assert int(f(rt.constant(5))) == 6


# ---- 3. The CLI on bad files ------------------------------------------------------------------


def convert(*args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, '-m', 'autograph', 'convert', *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, timeout=120)


def elif_chain(branches):
    lines = ['def classify(x):']
    for i in range(branches):
        lines += [f'    {"if" if i == 0 else "elif"} x == {i}:', f'        y = {i} * 10']
    lines += ['    else:', '        y = -1', '    return y', '']
    return '\n'.join(lines)


@pytest.mark.parametrize('name, data', [
    ('latin1', b'# -*- coding: latin-1 -*-\ndef f(x):\n    s = "caf\xe9"\n'
               b'    if x > 0:\n        x = -x\n    return x\n'),
    ('bom', b'\xef\xbb\xbfdef f(x):\n    if x > 0:\n        x = -x\n    return x\n'),
    ('crlf', b'def f(x):\r\n    if x > 0:\r\n        x = -x\r\n    return x\r\n'),
])
def test_the_cli_reads_files_as_python_does(tmp_path, name, data):
    source = tmp_path / f'{name}.py'
    source.write_bytes(data)
    result = convert(source, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert b'def tf__f(x):' in result.stdout and b'ag__.if_stmt' in result.stdout
    assert result.stderr == b''


@pytest.mark.parametrize('data, message', [
    (b'def f(x):\n    s = "\xff\xfe"\n    return x\n',
     b'bad.py:2: cannot decode byte 0xff as utf-8'),
    (b'def f(x):\n    return x\x00\n', b'bad.py:2: the file contains a NUL byte'),
    (b'# -*- coding: no-such-codec -*-\ndef f(x):\n    return x\n', b'bad.py: unknown encoding'),
    (b'def f(x:\n    return x\n', b'bad.py:1: syntax error'),
])
def test_the_cli_reports_a_file_it_cannot_read_in_one_line(tmp_path, data, message):
    source = tmp_path / 'bad.py'
    source.write_bytes(data)
    result = convert(source, '--output', tmp_path / 'out.py', cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == b'' and not (tmp_path / 'out.py').exists()
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith(b'autograph: error: ') and message in result.stderr


def test_the_cli_reports_a_missing_output_folder_in_one_line_and_creates_nothing(tmp_path):
    source = tmp_path / 'good.py'
    source.write_text('def f(x):\n    return x\n')
    before = sorted(os.listdir(tmp_path))
    result = convert(source, '--output', tmp_path / 'missing' / 'out.py', cwd=tmp_path)
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1
    assert b'missing/out.py: the folder' in result.stderr and b'does not exist' in result.stderr
    assert sorted(os.listdir(tmp_path)) == before


def test_the_cli_skips_functions_it_cannot_convert_and_converts_the_rest(tmp_path):
    source = tmp_path / 'mixed.py'
    source.write_text(
        'def numbers(n):\n    yield n\n\n'
        'async def fetch(n):\n    return n\n\n'
        'def pick(x):\n    match x:\n        case 1:\n            return 2\n    return x\n\n'
        'def f(x):\n    if x > 0:\n        x = -x\n    return x\n\n'
        'class Model:\n    async def step(self):\n        return 1\n\n'
        '    def call(self, x):\n        while x > 0:\n            x -= 1\n        return x\n')
    result = convert(source, cwd=tmp_path)
    assert result.returncode == 0
    notes = result.stderr.decode().splitlines()
    assert [note.split("'")[1] for note in notes] == ['numbers', 'fetch', 'pick', 'Model.step']
    assert all(note.startswith("autograph: note: skipped '") for note in notes)
    assert 'generators' in notes[0] and 'async def' in notes[1] and 'match' in notes[2]
    assert 'mixed.py:1' in notes[0] or 'mixed.py:2' in notes[0]
    out = result.stdout.decode()
    compile(out, 'out.py', 'exec')
    assert 'def tf__f(x):' in out and 'def tf__call(self, x):' in out
    assert 'numbers' not in out and 'fetch' not in out
    asked = convert(source, '--function', 'f', '--function', 'fetch', cwd=tmp_path)
    assert asked.returncode == 1 and asked.stdout == b''
    assert asked.stderr.decode().splitlines() == [
        "autograph: error: cannot convert 'fetch': " + notes[1].split(": ", 3)[3]]


@pytest.mark.parametrize('branches', [100, 300])
def test_the_cli_converts_long_if_elif_chains_to_valid_code(tmp_path, branches):
    source = tmp_path / 'chain.py'
    source.write_text(elif_chain(branches))
    out = tmp_path / 'out.py'
    result = convert(source, '--output', out, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.stderr) == 0
    text = out.read_text()
    compile(text, str(out), 'exec')
    assert max(len(line) - len(line.lstrip()) for line in text.splitlines()) <= 24


def test_a_long_if_elif_chain_runs_on_python_values_and_on_tensors(tmp_path):
    path = tmp_path / 'chain100.py'
    path.write_text(elif_chain(100))
    spec = importlib.util.spec_from_file_location('chain100', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    converted = ag.to_graph(module.classify)
    assert [converted(i) for i in (0, 7, 99, 100)] == [0, 70, 990, -1]
    classify = ag.function(module.classify)
    assert [int(classify(rt.constant(i))) for i in (0, 42, 99, 100)] == [0, 420, 990, -1]
    assert classify.experimental_get_tracing_count() == 1


@pytest.mark.default_executor  # counts the default executor's plan sources ('<rt plan')
def test_generated_sources_leave_linecache_when_their_functions_die(tmp_path):
    def generated():
        return sum(1 for name in linecache.cache
                   if name.startswith(('<autograph generated', '<rt plan')))

    gc.collect()
    before = generated()
    for i in range(5):
        path = tmp_path / f'model{i}.py'
        path.write_text(f'def step(x):\n    if x > {i}:\n        x = x - 1\n    return x\n')
        spec = importlib.util.spec_from_file_location(f'model{i}', path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        step = ag.function(module.step)
        assert int(step(rt.constant(10))) == 9
        assert generated() > before
        del step, module, spec
    gc.collect()
    assert generated() <= before
