"""Tiered compilation (the default outside the tests, docs/jit.md): the first calls run the
default executor while a background thread lowers and compiles the graph, then calls run the
native code; errors still surface, and the process waits at exit for the compile running.

Each test holds the background compile at its start (`cache.load` waits for an event), so what
runs before and after it is known, not raced.
"""
import dataclasses
import os
import pickle
import sys
import threading

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.core import errors
from runtime.executor import native
from runtime.executor.native import cache
from tools import workloads

pytest.importorskip('numba')


@pytest.fixture(autouse=True)
def tiered(tmp_path, monkeypatch):
    """Tiering on (tests/conftest.py turns it off), compiling into the test's own temp dir (a
    graph an earlier test compiled would be in the cache's index: its first call loads it)."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_TIERED', '1')
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path / 'jit'))
    yield
    assert native.wait(timeout=60)


@pytest.fixture
def held(monkeypatch):
    """An event the background compile waits for before it loads the generated module."""
    release, load = threading.Event(), cache.load

    def held_load(*args):
        assert release.wait(timeout=60)
        return load(*args)
    monkeypatch.setattr(cache, 'load', held_load)
    yield release
    release.set()


def plan_of(function, *args):
    run = function.get_concrete_function(*args)._run
    return getattr(run, 'func', run)  # a graph with captures: partial(plan, captured values)


def test_calls_run_the_default_executor_until_the_native_code_is_ready(held):
    jit = ag.function(workloads.range_sum, jit_compile=True)
    default = ag.function(workloads.range_sum)
    n = rt.constant(30)
    expected = default(n).numpy()
    assert jit(n).numpy() == expected and jit(n).numpy() == expected
    plan = plan_of(jit, n)
    assert isinstance(plan, native.NativePlan) and not plan.native
    assert not native.wait(timeout=0)  # held: still compiling
    held.set()
    assert native.wait(timeout=60)
    assert plan.native and 'def native(' in plan.source
    assert jit(n).numpy() == expected and jit(rt.constant(31)).numpy() == default(
        rt.constant(31)).numpy()


def test_a_graph_in_the_caches_index_is_loaded_by_its_first_call():
    first = ag.function(workloads.range_sum, jit_compile=True)
    n = rt.constant(30)
    assert first(n).numpy() == 435
    assert native.wait(timeout=60) and plan_of(first, n).native
    # another trace of the same function: its graph is the same, and so is its key
    again = ag.function(workloads.range_sum, jit_compile=True)
    assert again(n).numpy() == 435
    plan = plan_of(again, n)
    compiled = plan_of(first, n).compiled
    assert plan.native and plan.compiled == dataclasses.replace(compiled, indexed=True,
                                                                      restored=True)
    assert not [t for t in threading.enumerate() if t.name.startswith('jit_compile')]


def test_a_graph_in_the_index_for_other_types_is_compiled_in_the_background(monkeypatch,
                                                                            held):
    first = ag.function(workloads.range_sum, jit_compile=True)
    n = rt.constant(30)
    held.set()
    assert first(n).numpy() == 435 and native.wait(timeout=60)
    index = os.path.join(os.environ['AUTOGRAPH_RT_JIT_CACHE'], 'index')
    (path,) = [os.path.join(index, name) for name in os.listdir(index)]
    with open(path, 'rb') as f:
        entry = pickle.load(f)
    with open(path, 'wb') as f:  # as if compiled for other argument types only
        pickle.dump({**entry, 'types': [(('float64',),)]}, f)
    held.clear()

    def lowered(*args):
        raise AssertionError('a graph the index holds is not lowered again')
    monkeypatch.setattr(native, 'lower', lowered)
    again = ag.function(workloads.range_sum, jit_compile=True)
    assert again(n).numpy() == 435
    plan = plan_of(again, n)
    assert not plan.native and plan.source == entry['source']  # compiling in the background
    held.set()
    assert native.wait(timeout=60) and plan.native and again(n).numpy() == 435
    with open(path, 'rb') as f:  # now compiled for these types too
        assert len(pickle.load(f)['types']) == 2


def test_a_compile_in_flight_keeps_the_process_alive_until_it_is_done(held):
    jit = ag.function(workloads.range_sum, jit_compile=True)
    assert jit(rt.constant(10)).numpy() == 45
    (thread,) = [t for t in threading.enumerate() if t.name.startswith('jit_compile')]
    assert not thread.daemon  # Python joins it at exit: numba's cache files are written whole
    held.set()
    assert native.wait(timeout=60) and not thread.is_alive()


def test_a_failed_compile_raises_at_the_next_calls(monkeypatch):
    def failing_load(*args):
        raise errors.InvalidArgumentError(None, None, 'numba refused it')
    monkeypatch.setattr(cache, 'load', failing_load)

    @ag.function(jit_compile=True)
    def double(x):
        return x * 2
    assert double(rt.constant(4)).numpy() == 8  # the default executor, while it compiles
    assert native.wait(timeout=60)
    for _ in range(2):
        with pytest.raises(errors.InvalidArgumentError, match='numba refused it'):
            double(rt.constant(4))


def test_an_op_without_a_kernel_is_lowered_and_reported_by_the_first_call():
    from runtime.ops import dispatch, infer, registry
    opless = registry.OpDef('NoKernelHereEither', None, infer.same_as_input)

    @ag.function(jit_compile=True)
    def holds_it(x):
        return dispatch.apply(opless, [x * 2])
    with pytest.raises(errors.InvalidArgumentError, match='NoKernelHereEither'):
        holds_it(rt.constant(1))
    assert native.wait(timeout=0)  # nothing went to the background


def test_variables_written_while_compiling_are_the_native_codes_start(held):
    v = rt.Variable(np.zeros(3, np.float32))

    @ag.function(jit_compile=True)
    def step(x):
        v.assign_add(x)
        return v.read_value()
    x = rt.constant(np.ones(3, np.float32))
    np.testing.assert_array_equal(step(x).numpy(), [1, 1, 1])  # default executor
    held.set()
    assert native.wait(timeout=60) and plan_of(step, x).native
    np.testing.assert_array_equal(step(x).numpy(), [2, 2, 2])  # native, from the value written
    np.testing.assert_array_equal(v.numpy(), [2, 2, 2])


def test_without_numba_a_tiered_first_call_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, 'numba', None)
    jit = ag.function(workloads.range_sum, jit_compile=True)
    with pytest.raises(ImportError, match=r"pip install 'autograph-rt\[jit\]'"):
        jit(rt.constant(10))


@pytest.mark.skipif(not hasattr(os, 'fork'), reason='no fork here')
def test_a_forked_child_compiles_again_what_its_parent_was_compiling(held):
    jit = ag.function(workloads.range_sum, jit_compile=True)
    assert jit(rt.constant(10)).numpy() == 45
    plan = plan_of(jit, rt.constant(10))
    pid = os.fork()
    if pid == 0:  # the child: no compile thread, nothing to wait for, the next call compiles
        ok = native.wait(timeout=0) and not plan.native and plan.run == plan.first_call
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert not native.wait(timeout=0)  # the parent's compile is still held
