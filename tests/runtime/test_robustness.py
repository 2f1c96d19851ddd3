"""Reliability of the runtime (the runtime half; tests/autograph/test_reliability.py
holds the tracing half).

1. Aliasing: values handed out never share writable memory with the runtime's state, and
   writing to a caller's array after it was handed in changes nothing inside.
2. Ranges and counters keep their dtype; counted loops run in constant memory.
3. TensorFlow's refusals: arithmetic on bools, negative TensorArray sizes, invalid op names.
4. Fork safety: a child forked after a graph used the thread pool does not hang.
5. Error types: only kernel failures become `rt.errors.OpError`s (also under interrupts).
6. Threads on one graph, memory over many calls, generated sources and linecache.
"""
import gc
import linecache
import os
import signal
import subprocess
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph import graph

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---- 1. Aliasing -----------------------------------------------------------------------------


def test_writing_to_numpy_of_a_function_output_does_not_change_the_next_call():
    @ag.function
    def table():
        return rt.constant([1, 2, 3])

    table().numpy()[0] = 99
    assert table().numpy().tolist() == [1, 2, 3]


def test_writing_to_numpy_of_a_variable_does_not_change_it():
    v = rt.Variable([1, 2, 3])
    v.numpy()[0] = 100
    np.asarray(v)[1] = 200
    assert v.numpy().tolist() == [1, 2, 3]

    @ag.function
    def read():
        return v.read_value()

    read().numpy()[2] = 300
    assert v.numpy().tolist() == [1, 2, 3] and read().numpy().tolist() == [1, 2, 3]


def test_numpy_gives_a_writable_copy_and_asarray_a_read_only_view_as_in_tensorflow():
    t = rt.constant([1.0, 2.0])
    copy = t.numpy()
    copy[0] = 5.0  # the caller owns it
    assert t.numpy().tolist() == [1.0, 2.0]
    view = np.asarray(t)
    assert not view.flags.writeable
    with pytest.raises(ValueError, match='read-only'):
        view[0] = 7.0
    assert np.asarray(t, dtype=np.float64).flags.writeable  # a converted, new array
    assert t.numpy().tolist() == [1.0, 2.0]


def test_a_captured_eager_tensor_stays_unchanged_when_an_output_is_written():
    weights = rt.constant([1.0, 2.0, 3.0])

    @ag.function
    def passthrough():
        return weights

    out = passthrough()
    out.numpy()[0] = -1.0
    with pytest.raises(ValueError):
        np.asarray(out)[1] = -2.0
    assert weights.numpy().tolist() == [1.0, 2.0, 3.0]
    assert passthrough().numpy().tolist() == [1.0, 2.0, 3.0]


def test_writing_to_an_array_after_handing_it_in_changes_nothing_inside():
    data = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    constant = rt.constant(data)
    variable = rt.Variable(data)

    @ag.function
    def same(x):
        return x

    out = same(data)
    data[:] = 0.0
    assert constant.numpy().tolist() == [1.0, 2.0, 3.0]
    assert variable.numpy().tolist() == [1.0, 2.0, 3.0]
    assert out.numpy().tolist() == [1.0, 2.0, 3.0]


N = 10_000  # big enough for the executor to reuse dead buffers (`out=`, in-place operators)


def test_the_executor_never_writes_into_params_captures_constants_or_outputs():
    bias = rt.constant(np.full(N, 0.5))
    scale = rt.Variable(np.full(N, 2.0))
    table = np.arange(N, dtype=np.float64)

    @ag.function
    def layer(x):
        y = x * scale                                     # a param and a variable's value
        z = (y + bias) * 3.0 + rt.constant(table)         # a capture and a constant
        w = rt.maximum(z, 0.0) - rt.exp(-z)
        return y, (w + 1.0) * 2.0, rt.tanh(w)             # `y` is an output and used later

    x_array = np.linspace(-1.0, 1.0, N)
    x = rt.constant(x_array)
    y_expected = x_array * 2.0
    z = (y_expected + 0.5) * 3.0 + table
    w = np.maximum(z, 0.0) - np.exp(-z)
    first = layer(x)
    second = layer(rt.constant(-x_array))  # a later call must not reuse the first call's arrays
    for got, want in zip(first, (y_expected, (w + 1.0) * 2.0, np.tanh(w))):
        np.testing.assert_allclose(got.numpy(), want)
    np.testing.assert_allclose(second[0].numpy(), -y_expected)
    np.testing.assert_array_equal(x.numpy(), x_array)
    np.testing.assert_array_equal(bias.numpy(), np.full(N, 0.5))
    np.testing.assert_array_equal(scale.numpy(), np.full(N, 2.0))
    np.testing.assert_allclose(layer(x)[1].numpy(), (w + 1.0) * 2.0)


def test_a_graph_loop_never_writes_into_its_loop_inputs_or_captures():
    start = rt.constant(np.ones(N))
    step = rt.constant(np.full(N, 0.25))

    @ag.function
    def walk(x, n):
        total = x
        for _ in rt.range(n):
            total = (total + step) * 1.0
        return total, x + 0.0

    total, same = walk(start, rt.constant(4))
    np.testing.assert_allclose(total.numpy(), np.full(N, 2.0))
    np.testing.assert_array_equal(same.numpy(), np.ones(N))
    np.testing.assert_array_equal(start.numpy(), np.ones(N))
    np.testing.assert_array_equal(step.numpy(), np.full(N, 0.25))
    again, _ = walk(start, rt.constant(4))
    np.testing.assert_allclose(total.numpy(), again.numpy())


def test_a_graph_run_hands_out_copies_of_its_constants():
    g = rt.Graph()
    with g.as_default():
        c = rt.constant([1, 2, 3])
    g.run(c)[0] = 42
    assert g.run(c).tolist() == [1, 2, 3]


# ---- 2. Ranges and counters keep their dtype ---------------------------------------------------


def test_a_loop_over_an_int64_range_beyond_int32_does_not_wrap():
    @ag.function
    def first_steps(n):
        steps = rt.constant(0, rt.int64)
        last = rt.constant(-1, rt.int64)
        for i in rt.range(n):
            if steps >= 5:
                break
            steps += 1
            last = i
        return steps, last

    steps, last = first_steps(rt.constant(2**32 + 3, rt.int64))
    assert int(steps) == 5 and int(last) == 4 and last.dtype is rt.int64


def test_a_counted_loop_of_billions_of_steps_starts_at_once():
    @ag.function
    def first_steps(n):
        total = rt.constant(0, rt.int64)
        for i in rt.range(n):
            rt.debugging.assert_less(i, rt.constant(5, rt.int64), message='stop here')
            total += i
        return total

    # Up-front counter values would need 64 GiB; the loop starts at once and stops at step 5.
    with pytest.raises(rt.errors.InvalidArgumentError, match='stop here'):
        first_steps(rt.constant(2**33, rt.int64))
    assert int(first_steps(rt.constant(5, rt.int64))) == 10


def test_a_counted_loop_runs_in_constant_memory():
    @ag.function
    def count(n):
        total = rt.constant(0, rt.int64)
        for _ in rt.range(n):
            total += 1
        return total

    count(rt.constant(10, rt.int64))
    tracemalloc.start()
    try:
        assert int(count(rt.constant(200_000, rt.int64))) == 200_000
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200_000, f'{peak} bytes at the peak for 200000 steps'


def test_counted_loops_nest_as_deep_as_before():
    # Each counted loop is one Python `for` in the generated code (Python allows 20 nested).
    def nested(levels):
        lines = ['def deep(n):', '    total = rt.constant(0)']
        for level in range(levels):
            lines.append('    ' * (level + 1) + f'for i{level} in rt.range(n):')
        lines.append('    ' * (levels + 1) + 'total += 1')
        lines.append('    return total')
        source, filename = '\n'.join(lines) + '\n', f'<deep loops {levels}>'
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        namespace = {'rt': rt}
        exec(compile(source, filename, 'exec'), namespace)
        return ag.function(namespace['deep'])

    assert int(nested(12)(rt.constant(2))) == 2**12


@pytest.mark.parametrize('make, dtype, values', [
    (lambda: rt.range(5), rt.int32, [0, 1, 2, 3, 4]),
    (lambda: rt.range(2**32 + 3, 2**32 + 5), rt.int64, [2**32 + 3, 2**32 + 4]),
    (lambda: rt.range(rt.constant(3, rt.int64)), rt.int64, [0, 1, 2]),
    (lambda: rt.range(rt.constant(1), rt.constant(4, rt.int64)), rt.int64, [1, 2, 3]),
    (lambda: rt.range(rt.constant(1), rt.constant(3.0)), rt.float32, [1.0, 2.0]),
    (lambda: rt.range(rt.constant(1, rt.int64), rt.constant(3.0, rt.float16)), rt.float16,
     [1.0, 2.0]),
    (lambda: rt.range(0.5, 3), rt.float32, [0.5, 1.5, 2.5]),
    (lambda: rt.range(3, dtype=rt.float64), rt.float64, [0.0, 1.0, 2.0]),
    (lambda: rt.range(rt.constant(3), dtype=rt.float32), rt.float32, [0.0, 1.0, 2.0]),
    (lambda: rt.range(np.int64(3)), rt.int64, [0, 1, 2]),
])
def test_range_infers_its_dtype_as_tensorflow_does(make, dtype, values):
    r = make()
    assert r.dtype is dtype and r.numpy().tolist() == values


@pytest.mark.parametrize('make', [
    lambda: rt.range(2**32, dtype=rt.int32),  # TensorFlow wraps this to an empty range
    lambda: rt.range(np.int16(5)),
    lambda: rt.range(True),
])
def test_range_refuses_operands_that_do_not_fit(make):
    with pytest.raises(TypeError):
        make()


def test_range_in_a_graph_keeps_an_int64_limit():
    @ag.function
    def last(n):
        return rt.range(n)[-1]

    assert last(rt.constant(4, rt.int64)).dtype is rt.int64
    assert int(last(rt.constant(4, rt.int64))) == 3


# ---- 3. TensorFlow's refusals ------------------------------------------------------------------


@pytest.mark.parametrize('compute', [
    lambda t: t + t, lambda t: t - t, lambda t: -t, lambda t: t ** t, lambda t: t // t,
    lambda t: rt.maximum(t, t), lambda t: rt.abs(t), lambda t: rt.square(t),
    lambda t: rt.matmul(rt.reshape(t, [1, 2]), rt.reshape(t, [2, 1])), lambda t: t + True,
])
def test_arithmetic_on_bools_is_refused_as_in_tensorflow(compute):
    flags = rt.constant([True, False])
    with pytest.raises(rt.errors.InvalidArgumentError, match="attr 'T' of bool"):
        compute(flags)

    @ag.function
    def staged(t):
        return compute(t)

    with pytest.raises(TypeError, match="attr 'T' of bool"):
        staged(flags)


def test_bool_operations_tensorflow_allows_still_work():
    flags = rt.constant([True, False])
    assert (flags * flags).numpy().tolist() == [True, False]
    assert (flags == flags).numpy().tolist() == [True, True]
    assert rt.logical_or(flags, flags).numpy().tolist() == [True, False]
    with pytest.raises(TypeError, match='bool'):
        flags / flags
    # `*` is TensorFlow's logical and of bools; its ops refuse them, as TensorFlow's do
    assert (True * flags).numpy().tolist() == [True, False]
    with pytest.raises(rt.errors.InvalidArgumentError, match="attr 'T' of bool"):
        rt.multiply(flags, flags)
    with pytest.raises(rt.errors.InvalidArgumentError, match="attr 'T' of bool"):
        flags < flags
    with pytest.raises(rt.errors.InvalidArgumentError, match="attr 'T' of uint8"):
        rt.abs(rt.constant([3], rt.uint8))


def test_a_negative_tensor_array_size_is_refused():
    with pytest.raises(rt.errors.InvalidArgumentError, match='non negative'):
        rt.TensorArray(rt.float32, size=-1)

    @ag.function
    def make(n):
        return rt.TensorArray(rt.float32, size=n).stack()

    with pytest.raises(rt.errors.InvalidArgumentError, match='non negative'):
        make(rt.constant(-1))
    assert make(rt.constant(0)).shape == (0,)


@pytest.mark.parametrize('bad', ['a b', ':0', 'a\nb', '_x', '-x', 'a:b', 'é'])
def test_op_names_tensorflow_refuses_are_refused_by_name(bad):
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, name='x')
        for make in (lambda: rt.identity(x, name=bad), lambda: rt.constant(1.0, name=bad),
                     lambda: rt.placeholder(rt.float32, name=bad), lambda: x + rt.add(x, x, bad)):
            with pytest.raises(ValueError) as info:
                make()
            assert repr(bad) in str(info.value)
    assert rt.identity(rt.constant(1.0), name=bad).numpy() == 1.0  # eagerly names are unused


def test_names_derived_from_parameters_and_variables_stay_valid():
    v = rt.Variable(1.0, name='my weight')

    @ag.function
    def f(_x, é, y_):
        return _x + é + y_ + v

    concrete = f.get_concrete_function(rt.constant(1.0), rt.constant(2.0), rt.constant(3.0))
    names = [op.name for op in concrete.graph.get_operations()]
    assert 'y_' in names and 'Placeholder' in names and 'Placeholder_1' in names
    for name in names:
        assert graph.check_name(name) == name
    assert float(f(rt.constant(1.0), rt.constant(2.0), rt.constant(3.0))) == 7.0


# ---- 4. Fork safety ------------------------------------------------------------------------------

FORK_AFTER_PARALLEL_GRAPH = '''
import multiprocessing, os, threading
import numpy as np
import autograph as ag
import runtime as rt

@ag.function
def two_products(a, b):
    return rt.matmul(a, a) + rt.matmul(b, b)   # two heavy int products: run on the pool

a = rt.constant(np.ones((200, 200), np.int32))
b = rt.constant(np.full((200, 200), 2, np.int32))
expected = int(rt.reduce_sum(two_products(a, b)))
if (os.cpu_count() or 1) >= 2:  # one core: the executor runs everything inline
    assert any(t.name.startswith('rt-executor') for t in threading.enumerate()), 'no pool used'

def child(queue):
    queue.put(int(rt.reduce_sum(two_products(a, b))))

context = multiprocessing.get_context('fork')
queue = context.Queue()
process = context.Process(target=child, args=(queue,), daemon=True)
process.start()
assert queue.get(timeout=20) == expected
process.join(timeout=20)
assert process.exitcode == 0
print('ok')
'''

FORK_WHILE_ANOTHER_THREAD_TRACES = '''
import multiprocessing, threading
import autograph as ag
import runtime as rt

tracing, release = threading.Event(), threading.Event()

@ag.function
def slow(x):
    tracing.set()
    release.wait(30)    # holds the trace lock of `slow` while the main thread forks
    return x + 1

worker = threading.Thread(target=lambda: slow(rt.constant(1)))
worker.start()
tracing.wait(10)

def child(queue):
    release.set()       # the child's copy of the event; the tracing thread is gone here
    queue.put(int(slow(rt.constant(41))))

context = multiprocessing.get_context('fork')
queue = context.Queue()
process = context.Process(target=child, args=(queue,), daemon=True)
process.start()
assert queue.get(timeout=20) == 42
process.join(timeout=20)
release.set()
worker.join(10)
print('ok')
'''


@pytest.mark.skipif(not hasattr(os, 'register_at_fork'), reason='fork is POSIX only')
@pytest.mark.parametrize('program', [FORK_AFTER_PARALLEL_GRAPH, FORK_WHILE_ANOTHER_THREAD_TRACES],
                         ids=['after_a_parallel_graph', 'while_another_thread_traces'])
def test_a_forked_child_does_not_hang(program):
    result = subprocess.run([sys.executable, '-c', program], cwd=ROOT, capture_output=True,
                            timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    assert result.stdout.decode().split() == ['ok']


# ---- 5. Only kernel failures become OpErrors ------------------------------------------------------  # noqa: E501


class ClosedPipe:
    """An output stream whose reader went away."""

    def write(self, text):
        raise BrokenPipeError(32, 'Broken pipe')


class Picky:
    """An output stream that refuses some text with its own ValueError."""

    def write(self, text):
        if 'bad' in text:
            raise ValueError('no bad words')


def test_an_output_streams_error_keeps_its_type_eagerly():
    with pytest.raises(BrokenPipeError) as info:
        rt.print(rt.constant(1), output_stream=ClosedPipe())
    assert any('PrintV2' in note for note in info.value.__notes__)
    with pytest.raises(ValueError, match='no bad words') as info:
        rt.print('bad', rt.constant(1), output_stream=Picky())
    assert not isinstance(info.value, rt.errors.OpError)


class Mine(Exception):
    """A user's own exception."""


def refuse(x):
    if int(x) < 0:
        raise ValueError('negative input')
    if int(x) == 0:
        raise Mine('zero input')
    return x * 2


def test_an_exception_of_a_py_functions_code_keeps_its_type():
    # TensorFlow turns these into InvalidArgumentError / UnknownError; here they keep their type.
    @ag.function
    def staged(x):
        return rt.py_function(refuse, [x], rt.int32)

    for call in (lambda x: rt.py_function(refuse, [x], rt.int32), staged):
        with pytest.raises(ValueError, match='negative input') as info:
            call(rt.constant(-1))
        assert not isinstance(info.value, rt.errors.OpError)
        assert any('EagerPyFunc' in note for note in info.value.__notes__)
        with pytest.raises(Mine, match='zero input'):
            call(rt.constant(0))
        assert int(call(rt.constant(4))) == 8


def test_kernel_failures_still_become_invalid_argument_errors_eagerly():
    with pytest.raises(rt.errors.InvalidArgumentError, match='GatherV2'):
        rt.gather(rt.constant([1.0]), [3])
    with pytest.raises(rt.errors.InvalidArgumentError, match='Reshape'):
        rt.reshape(rt.constant([1.0, 2.0]), [3])


class Timeout(Exception):
    """A signal handler's own exception."""


def interrupt_after(seconds, error):
    """Raise `error` from a SIGALRM handler after `seconds` (in the main thread)."""
    def handler(signum, frame):
        raise error
    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return previous


def stop_interrupting(previous):
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@ag.function
def count_up(n):
    total = rt.constant(0, rt.int64)
    i = rt.constant(0, rt.int64)
    while i < n:
        total += i % 3
        i += 1
    return total


@pytest.mark.skipif(not hasattr(signal, 'setitimer'), reason='needs SIGALRM')
@pytest.mark.interrupts_a_graph
@pytest.mark.parametrize('error', [KeyboardInterrupt(), Timeout('too slow')])
def test_an_interrupt_while_a_graph_loop_runs_keeps_its_type_and_the_function_works(error):
    assert int(count_up(rt.constant(10, rt.int64))) == 9
    previous = interrupt_after(0.05, error)
    try:
        with pytest.raises(type(error)) as info:
            count_up(rt.constant(10**12, rt.int64))
    finally:
        stop_interrupting(previous)
    assert not isinstance(info.value, rt.errors.OpError)
    assert int(count_up(rt.constant(10, rt.int64))) == 9
    assert count_up.experimental_get_tracing_count() == 1


def test_a_graph_print_to_a_failing_stream_raises_the_streams_error():
    @ag.function
    def report(label, x, stream):
        rt.print(label, x, output_stream=stream)
        return x + 1

    with pytest.raises(BrokenPipeError) as info:
        report('value', rt.constant(1), ClosedPipe())
    assert any('PrintV2' in note for note in info.value.__notes__)
    with pytest.raises(ValueError, match='no bad words') as info:
        report('bad', rt.constant(1), Picky())
    assert not isinstance(info.value, rt.errors.OpError)
    assert int(report('good', rt.constant(1), Picky())) == 2


def test_a_kernel_failure_in_a_graph_is_still_an_invalid_argument_error():
    @ag.function
    def pick(x, i):
        return rt.gather(x, i)

    with pytest.raises(rt.errors.InvalidArgumentError, match='GatherV2'):
        pick(rt.constant([1.0, 2.0]), rt.constant([5]))


# ---- 6. Threads and memory ------------------------------------------------------------------------  # noqa: E501


def test_threads_running_one_graph_at_once_each_get_their_own_results():
    @ag.function
    def poly(x):
        y = x * x
        for _ in rt.range(3):
            y = y + x
        return rt.reduce_sum(y)

    inputs = [np.arange(i, i + 50, dtype=np.float64) for i in range(8)]
    expected = [float(np.sum(a * a + 3 * a)) for a in inputs]
    poly(rt.constant(inputs[0]))
    barrier = threading.Barrier(len(inputs))
    results = [None] * len(inputs)

    def work(i):
        barrier.wait()
        results[i] = [float(poly(rt.constant(inputs[i]))) for _ in range(50)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert results == [[value] * 50 for value in expected]
    assert poly.experimental_get_tracing_count() == 1


def test_memory_stays_flat_over_many_calls():
    v = rt.Variable(np.zeros(100, np.float32))

    @ag.function
    def step(x):
        v.assign_add(x)
        total = rt.constant(0.0)
        for i in rt.range(10):
            total += rt.reduce_sum(x) * rt.cast(i, rt.float32)
        return total

    x = rt.constant(np.ones(100, np.float32))
    for _ in range(200):
        step(x)
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(200):
            step(x).numpy()
        gc.collect()
        before, _ = tracemalloc.get_traced_memory()
        for _ in range(1000):
            step(x).numpy()
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after - before < 20_000, f'{after - before} bytes more after 1000 calls'
    assert step.experimental_get_tracing_count() == 1


def test_a_graphs_generated_programs_leave_linecache_with_the_graph():
    def plans():
        return {name for name in linecache.cache if name.startswith('<rt plan')}

    gc.collect()
    before = plans()
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, name='x')
        y = rt.cond(x > 0, lambda: x * 2, lambda: -x)  # noqa: F821
    assert g.run(y, {x: 3}) == 6
    assert plans() - before
    del g, x, y
    gc.collect()
    assert not plans() - before
