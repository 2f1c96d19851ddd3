"""The call of compiled code (docs/jit.md, *Calls*): a graph whose arguments are all scalars is
called at its compiled variant's entry point, rank-0 results come back as numpy scalars of their
dtype, each from a buffer of its own, and once native code is ready a ConcreteFunction calls
its wrapper without going through the plan.
"""
import threading

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.executor import native

pytest.importorskip('numba')
from numba.core.dispatcher import Dispatcher  # noqa: E402

DTYPES = ('bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'float32', 'float64')


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


def plan_of(function, *args):
    run = function.get_concrete_function(*args)._run
    return getattr(run, 'func', run)


def two_results(x, y):
    return x, rt.logical_not(y) if x.dtype == rt.bool else y + y


@pytest.mark.filterwarnings('ignore::autograph.tracing.polymorphic_function.RetracingWarning')
@pytest.mark.parametrize('dtype', DTYPES)
def test_rank_0_results_are_numpy_scalars_of_their_dtype_each_its_own(dtype):
    jit, default = ag.function(two_results, jit_compile=True), ag.function(two_results)

    def value(v):
        return rt.constant(np.array(v).astype(dtype))
    for x, y in ((1, 0), (0, 1), (np.iinfo(dtype).max if dtype[0] in 'iu' else 1, 1)):
        x, y = value(x), value(y)
        got, expected = jit(x, y), default(x, y)
        assert plan_of(jit, x, y).native
        for g, e in zip(got, expected):
            assert type(g.numpy()) is type(e.numpy()) is np.dtype(dtype).type
            assert g.numpy() == e.numpy()
    first = jit(value(1), value(0))
    jit(value(0), value(1))
    assert first[0].numpy() == 1  # a later call leaves an earlier result alone


def scalar_math(x, n):
    total = x
    for i in rt.range(n):
        total = total * 0.5 + rt.cast(i, x.dtype)
    return total


def test_scalar_arguments_go_to_the_entry_point_numpy_scalars_and_0_d_arrays_alike():
    jit, default = ag.function(scalar_math, jit_compile=True), ag.function(scalar_math)
    x, n = rt.constant(3.0), rt.constant(10)
    expected = default(x, n).numpy()
    assert jit(x, n).numpy() == expected
    assert not isinstance(plan_of(jit, x, n).run.__globals__['native'], Dispatcher)
    # numpy arguments: a 0-d array is fed as it is, unboxed by the entry point
    assert jit(np.array(3.0, np.float32), np.array(10, np.int32)).numpy() == expected
    assert jit(np.float32(3.0), np.int32(10)).numpy() == expected


def arrays(x, s):
    return rt.reduce_sum(x * s)


def test_a_graph_with_array_arguments_goes_through_numbas_dispatcher():
    jit = ag.function(arrays, jit_compile=True)
    x = rt.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert jit(x, rt.constant(2.0)).numpy() == 30.0
    assert jit(rt.transpose(x), rt.constant(2.0)).numpy() == 30.0  # not C-contiguous
    assert isinstance(plan_of(jit, x, rt.constant(2.0)).run.__globals__['native'], Dispatcher)


def test_once_native_code_is_ready_the_concrete_function_calls_its_wrapper(monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_TIERED', '1')
    jit = ag.function(scalar_math, jit_compile=True)
    x, n = rt.constant(2.0), rt.constant(5)
    expected = ag.function(scalar_math)(x, n).numpy()
    assert jit(x, n).numpy() == expected  # the default executor, while it compiles
    assert native.wait(timeout=60)
    plan = plan_of(jit, x, n)
    assert plan.native
    told = []
    plan.when_native(told.append)  # ready: told at once
    assert told == [plan.run]
    calls = []
    run = plan.run

    def counted(*values):
        calls.append(values)
        return run(*values)
    monkeypatch.setattr(plan, 'run', counted)  # what the plan's own dispatch would call
    assert jit(x, n).numpy() == expected
    assert calls == []  # the wrapper was called directly


def test_listeners_before_the_compile_are_told_once_it_is_done(monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_TIERED', '1')
    jit = ag.function(scalar_math, jit_compile=True)
    x, n = rt.constant(1.0), rt.constant(3)
    plan = plan_of(jit, x, n)
    told, done = [], threading.Event()
    plan.when_native(lambda run: (told.append(run), done.set()))
    assert told == []
    jit(x, n)
    assert done.wait(timeout=60) and native.wait(timeout=60)
    assert told == [plan.run]


class Made:
    """A result kind as the wrapper makes it: `value` and `dtype` slots, set without __init__."""
    __slots__ = ('value', 'dtype')

    def __init__(self, value, dtype):
        raise AssertionError('the wrapper makes its result without calling __init__')


def test_a_wrapper_binds_captures_and_makes_the_one_result(monkeypatch):
    offset = rt.constant(5.0)
    jit = ag.function(lambda x: x + offset, jit_compile=True)
    x = rt.constant(1.0)
    assert jit(x).numpy() == 6.0
    plan = plan_of(jit, x)
    run = plan.wrapper((offset.value,), (Made, 'made'))
    made = run(np.float32(2.0))
    assert type(made) is Made and made.dtype == 'made'
    assert made.value == 7.0 and type(made.value) is np.float32
    concrete = jit.get_concrete_function(x)
    assert concrete.call_feeds.__code__.co_filename == '<rt native call>'  # its own wrapper
    assert concrete.call_feeds(np.float32(3.0)).numpy() == 8.0
    pair = ag.function(two_results, jit_compile=True)
    pair(x, x)
    with pytest.raises(ValueError, match='one output'):
        plan_of(pair, x, x).wrapper((), (Made, None))


def test_a_wrapper_is_made_only_once_native_code_is_ready(monkeypatch):
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_TIERED', '1')
    jit = ag.function(scalar_math, jit_compile=True)
    x, n = rt.constant(4.0), rt.constant(2)
    plan = plan_of(jit, x, n)
    with pytest.raises(ValueError, match='not ready'):
        plan.wrapper()
    jit(x, n)
    assert native.wait(timeout=60)
    assert plan.wrapper()(x.value, n.value) == plan.run(x.value, n.value)
