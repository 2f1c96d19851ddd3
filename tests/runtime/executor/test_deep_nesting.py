"""Graphs nested deeper than the caller's recursion limit would allow the executor's walks
(runtime/executor/recursion.py): 100 nested Ifs or While loops lower, optimize, compile and
run, with `jit_compile=True` and with the default executor, when their first call comes under
a tight recursion limit, and the user's limit is the same afterwards."""
import contextlib
import sys
import traceback

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime import executor
from runtime.executor import recursion

LEVELS = 100


@pytest.fixture(autouse=True)
def jit_cache(tmp_path_factory, monkeypatch):
    """Compiled code goes to the test run's temp dir, never the user's ~/.cache."""
    monkeypatch.setenv('AUTOGRAPH_RT_JIT_CACHE', str(tmp_path_factory.getbasetemp() / 'jit'))


@contextlib.contextmanager
def tight_limit(frames=60):
    """The recursion limit `frames` above the caller's depth: far fewer than the walks over
    LEVELS nested functions take."""
    limit = sys.getrecursionlimit()
    tight = len(traceback.extract_stack()) + frames
    sys.setrecursionlimit(tight)
    try:
        yield
        assert sys.getrecursionlimit() == tight  # the walks gave the user's limit back
    finally:
        sys.setrecursionlimit(limit)


def _nested_ifs(x, n):
    if n == 0:
        return x
    if x > 0:  # a tensor `if`: an If node whose then-branch holds the next level
        x = _nested_ifs(x - 1, n - 1) + 2
    return x


def _nested_whiles(x, n):
    if n == 0:
        return x
    i = rt.constant(0)
    steps = 2 if n > LEVELS - 3 else 1  # only the outer three levels loop twice
    while i < steps:  # a tensor `while`: a While node whose body holds the next level
        x = _nested_whiles(x, n - 1) * 1.5 + 1
        i += 1
    return x


def _nested_for_ranges(x, n):
    if n == 0:
        return x
    for i in rt.range(2 if n > LEVELS - 3 else 1):  # a counted loop: a `for` over the counter
        x = _nested_for_ranges(x, n - 1) * 1.5 + rt.cast(i, rt.float64)
    return x


def _python_value(n, x=0.5):
    """The value the nested loops above give, in plain Python."""
    if n == 0:
        return x
    for i in range(2 if n > LEVELS - 3 else 1):
        x = _python_value(n - 1, x) * 1.5 + i
    return x


def _traced(fn, jit_compile, *args):
    """The concrete function of `fn` traced at the default limit (autograph's tracer makes
    its own room); its first call, which lowers and compiles, is left to the caller."""
    return ag.function(fn, jit_compile=jit_compile).get_concrete_function(*args)


@pytest.mark.parametrize('jit_compile', [True, False], ids=['jit', 'default'])
def test_a_hundred_nested_ifs_compile_and_run_under_a_tight_recursion_limit(jit_compile):
    concrete = _traced(_nested_ifs, jit_compile, rt.TensorSpec([], rt.int32), LEVELS)
    with tight_limit():
        assert int(concrete(rt.constant(1000))) == 1000 + LEVELS
        assert int(concrete(rt.constant(3))) == 3 + 3  # the fourth level's test is false


@pytest.mark.parametrize('loops', [_nested_whiles, _nested_for_ranges], ids=['while', 'range'])
def test_a_hundred_nested_loops_compile_and_run_under_a_tight_recursion_limit(loops):
    """Deeper than Python lets loops nest in one function (emit.MAX_LOOPS) too."""
    specs = (rt.TensorSpec([], rt.float64), LEVELS)
    jit, default = _traced(loops, True, *specs), _traced(loops, False, *specs)
    with tight_limit():
        got = jit(rt.constant(0.5, rt.float64))
    expected = default(rt.constant(0.5, rt.float64))
    assert float(got) == float(expected)
    if loops is _nested_for_ranges:
        np.testing.assert_allclose(float(got), _python_value(LEVELS), rtol=1e-12)


def _graph_of_nested_conds(levels):
    """A graph (built with the runtime alone, no autograph) of `levels` nested `rt.cond`s."""
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.float32, shape=[3], name='x')

        def level(v, k):
            if k == 0:
                return v * 2.0
            return rt.cond(rt.reduce_sum(v) > 0, lambda: level(v - 1.0, k - 1) + 1.0,
                           lambda: v)
        out = level(x, levels)
    return g, x, out


@pytest.mark.parametrize('jit_compile', [True, False], ids=['jit', 'default'])
def test_the_executors_compile_path_has_room_for_a_runtime_graph(jit_compile):
    g, x, out = _graph_of_nested_conds(LEVELS)
    values = np.array([400.0, 1.0, 2.0], np.float32)  # every level's test is true
    with tight_limit():
        plan = executor.compile_graph(g, [x], [out], jit_compile=jit_compile)
        (got,) = plan(values)
    np.testing.assert_allclose(got, (values - LEVELS) * 2.0 + LEVELS, rtol=1e-6)


def test_room_nests_and_gives_back_only_the_limit_it_set():
    limit = sys.getrecursionlimit()
    with recursion.room():
        raised = sys.getrecursionlimit()
        assert raised == limit + recursion.ROOM
        with recursion.room():  # a walk inside a walk: no more room asked for
            assert sys.getrecursionlimit() == raised
        assert sys.getrecursionlimit() == raised
    assert sys.getrecursionlimit() == limit
    try:
        with recursion.room():
            sys.setrecursionlimit(limit + 7)  # someone else set a limit meanwhile: it stands
    finally:
        assert sys.getrecursionlimit() == limit + 7
        sys.setrecursionlimit(limit)
