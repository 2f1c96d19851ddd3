"""native/team.py and native/atomics.py: a fused sum of many blocks is shared with the helper
thread; the result is the default executor's within float32 rounding and the same whether
the helper computed blocks or not; a small sum, a sum of a strided array, a forked child
and AUTOGRAPH_RT_JIT_THREADS=1 all run on the calling thread alone, with the same result."""
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import autograph as ag
import runtime as rt

pytest.importorskip('numba')

from runtime.executor.native import team  # noqa: E402


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


def chain(x):
    y = ((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)
    return rt.reduce_sum(rt.exp(rt.tanh(y)))


def bias_sum(x, b):
    return rt.reduce_mean(rt.sigmoid(x * 0.5 + b))


X = rt.constant(np.random.default_rng(3).standard_normal(300_000).astype(np.float32))


def compiled(function, *args):
    jit = ag.function(function, jit_compile=True)
    jit(*args)
    return jit, jit.get_concrete_function(*args)._run.source


def alone():
    """The mailbox held busy: no call can post, so each computes every block itself."""
    class Alone:
        def __enter__(self):
            self.state = int(team.MAIL[team.STATE])
            team.MAIL[team.STATE] = team.RUNNING

        def __exit__(self, *exc):
            team.MAIL[team.STATE] = self.state
    return Alone()


def test_a_large_sum_is_shared_and_gives_the_same_result_helped_or_not():
    jit, source = compiled(chain, X)
    assert 'def worker_' in source and 'post(mail, ' in source
    expected = ag.function(chain)(X).numpy()
    with alone():
        by_itself = jit(X).numpy()
    np.testing.assert_allclose(by_itself, expected, rtol=1e-6)
    if not team.running():
        pytest.skip('no helper thread in this process (one CPU)')
    before, deadline, helped = team.helped(), time.monotonic() + 20, []
    while team.helped() == before and time.monotonic() < deadline:
        helped.append(jit(X).numpy())
    assert team.helped() > before, 'the helper thread computed no block in 20 s'

    assert all(value == by_itself for value in helped)  # block sums added in block order


def test_a_sum_over_rows_with_a_broadcast_operand_is_shared_block_by_block():
    # 2000 rows of 100: blocks of 100 (one a row), the bias read at the row's indexes
    x = rt.constant(np.random.default_rng(4).standard_normal((2000, 100)).astype(np.float32))
    b = rt.constant(np.linspace(-1, 1, 100, dtype=np.float32))
    jit, source = compiled(bias_sum, x, b)
    assert 'def worker_' in source
    expected = ag.function(bias_sum)(x, b).numpy()
    for _ in range(20):
        np.testing.assert_allclose(jit(x, b).numpy(), expected, rtol=1e-6)
    # 3 x 5000 float32: blocks of 4096 within each row (two a row), 6 in all: not shared
    small = rt.constant(np.ones((3, 5000), np.float32))
    jit, source = compiled(bias_sum, small, rt.constant(np.zeros(5000, np.float32)))
    assert 'def worker_' not in source


def every_other(x):
    return chain(x[::2])


def test_a_strided_array_is_summed_by_the_caller_alone():
    wide = rt.constant(np.random.default_rng(5).standard_normal(600_000).astype(np.float32))
    jit, source = compiled(every_other, wide)
    assert 'def worker_' in source
    expected = ag.function(every_other)(wide).numpy()
    before = team.helped()
    for _ in range(10):
        np.testing.assert_allclose(jit(wide).numpy(), expected, rtol=1e-6)
    assert team.helped() == before  # the helper cannot read a strided array by its address


@pytest.mark.skipif(not hasattr(os, 'fork'), reason='needs fork')
def test_a_forked_child_computes_with_a_helper_of_its_own():
    jit, _ = compiled(chain, X)
    expected = jit(X).numpy()
    pid = os.fork()
    if pid == 0:  # the child: its mailbox is new, its own helper serves the same workers
        try:
            ok = all(jit(X).numpy() == expected for _ in range(10))
            os._exit(0 if ok else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_threads_1_runs_no_helper(tmp_path):
    script = textwrap.dedent('''
        import numpy as np
        import autograph as ag
        import runtime as rt
        from runtime.executor.native import team

        def chain(x):
            y = ((x * 2.0 + 1.0) * x - 3.0) / (x + 5.0)
            return rt.reduce_sum(rt.exp(rt.tanh(y)))

        x = rt.constant(np.random.default_rng(3).standard_normal(300_000).astype(np.float32))
        jit = ag.function(chain, jit_compile=True)
        values = {float(jit(x).numpy()) for _ in range(30)}
        print(team.helped(), len(values))
    ''')
    root = os.path.join(os.path.dirname(__file__), '..', '..', '..')
    env = {**os.environ, 'AUTOGRAPH_RT_JIT_THREADS': '1', 'AUTOGRAPH_RT_JIT_TIERED': '0',
           'PYTHONPATH': os.path.abspath(root)}
    out = subprocess.run([sys.executable, '-c', script], env=env, capture_output=True,
                         text=True, timeout=300, check=True).stdout.split()
    assert out == ['0', '1']


def printed_sum(x):
    rt.print('elements:', rt.size(x))
    s = rt.reduce_sum(rt.exp(x * 0.5))
    return s, rt.py_function(lambda a: a * 2, [s], rt.float32)


def test_a_function_with_a_shared_sum_runs_without_the_gil_and_still_calls_kernels(capfd):
    jit, source = compiled(printed_sum, X)
    assert 'def worker_' in source and 'objmode' in source
    capfd.readouterr()
    got = [t.numpy() for t in jit(X)]
    expected = [t.numpy() for t in ag.function(printed_sum)(X)]
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    assert capfd.readouterr().err.count('elements: 300000') == 2  # both calls printed


def quotient_sum(a, b):
    return rt.reduce_sum(rt.cast(a // b, rt.float32))


def test_a_sum_that_may_raise_is_not_shared_and_raises_as_the_default_executor():
    a = rt.constant(np.arange(200_000, dtype=np.int32))
    b = rt.constant(np.full(200_000, 3, np.int32))
    jit, source = compiled(quotient_sum, a, b)
    assert 'floordiv' in source and 'def worker_' not in source
    assert jit(a, b).numpy() == ag.function(quotient_sum)(a, b).numpy()
    zero = rt.constant(np.arange(200_000, dtype=np.int32) % 7)
    with pytest.raises(rt.errors.InvalidArgumentError):
        ag.function(quotient_sum)(a, zero)
    with pytest.raises(rt.errors.InvalidArgumentError):
        jit(a, zero)


def activation(x, b):
    return rt.tanh(x * 0.5 + b) * 2.0


def test_a_large_elementwise_loop_is_shared_and_writes_the_default_executors_array():
    x = rt.constant(np.random.default_rng(6).standard_normal((512, 300)).astype(np.float32))
    b = rt.constant(np.linspace(-1, 1, 300, dtype=np.float32))
    jit, source = compiled(activation, x, b)
    assert 'def worker_' in source and 'result[i0, i1] = ' in source
    expected = ag.function(activation)(x, b).numpy()
    if not team.running():
        pytest.skip('no helper thread in this process (one CPU)')
    before, deadline = team.helped(), time.monotonic() + 20
    while True:
        got = jit(x, b).numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)
        if team.helped() > before or time.monotonic() > deadline:
            break
    assert team.helped() > before, 'the helper thread computed no block in 20 s'
    with alone():
        np.testing.assert_array_equal(jit(x, b).numpy(), got)


def test_a_job_names_what_its_worker_reads_so_two_dtypes_are_two_jobs():
    # one element text over float32 and over float64 arrays: the helper must run the worker
    # that reads the arrays with their dtypes
    def doubled(x):
        return x + x

    workers = set()
    for dtype in (np.float32, np.float64):
        x = rt.constant(np.arange(100_000, dtype=dtype))
        jit, source = compiled(doubled, x)
        workers |= {line for line in source.splitlines() if line.startswith('def worker_')}
        np.testing.assert_array_equal(jit(x).numpy(), np.arange(100_000, dtype=dtype) * 2)
    assert len(workers) == 2


def test_an_empty_elementwise_loop_compiles_unshared():
    x = rt.constant(np.zeros((0, 70_000), np.float32))
    jit, source = compiled(activation, x, rt.constant(np.zeros(70_000, np.float32)))
    assert 'def worker_' not in source
    assert jit(x, rt.constant(np.zeros(70_000, np.float32))).shape == (0, 70_000)
