"""A call like the last one (one eager tensor of the same dtype and shape) skips the key and
the cache lookup; everything a call decides otherwise must still be decided the same way."""
import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.core.errors import InvalidArgumentError
from runtime.summary import trace as summary_trace


def traced(fn, **options):
    return ag.function(fn, autograph=False, **options)


def double(x):
    return x * 2


@pytest.mark.parametrize('jit_compile', [False, True])
def test_calls_like_the_last_run_its_graph_and_others_look_theirs_up(jit_compile):
    f = traced(double, jit_compile=jit_compile)
    for _ in range(3):
        assert f(rt.constant(2.0)).numpy() == 4.0
    assert f(rt.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]  # another shape
    for _ in range(3):
        assert f(rt.constant(5.0)).numpy() == 10.0  # back to the first graph
    assert f(rt.constant(3)).dtype == rt.int32  # another dtype, right after hot calls
    assert f(rt.constant(3)).numpy() == 6
    for _ in range(3):
        assert f(rt.constant(3.0)).dtype == rt.float32
    assert f(rt.constant([3.0, 4.0])).numpy().tolist() == [6.0, 8.0]  # another shape then
    assert f.experimental_get_tracing_count() == 3
    assert f(x=rt.constant(4.0)).numpy() == 8.0  # by keyword: bound, then looked up
    assert f(np.float32(1.5)).numpy() == 3.0  # a numpy value: keyed as a tensor
    assert f.experimental_get_tracing_count() == 3


def test_a_scalar_string_tensor_takes_the_hot_path_as_well():
    f = traced(lambda s: rt.strings.length(s))
    for _ in range(3):
        assert f(rt.constant('abc')).numpy() == 3
    assert f(rt.constant(['a', 'bc'])).numpy().tolist() == [1, 2]
    assert f.experimental_get_tracing_count() == 2


def test_run_functions_eagerly_after_hot_calls_runs_python():
    calls = []

    def f(x):
        calls.append(x)
        return x + 1

    g = traced(f)
    for _ in range(3):
        g(rt.constant(1.0))
    assert len(calls) == 1  # traced once
    rt.config.run_functions_eagerly(True)
    try:
        assert g(rt.constant(1.0)).numpy() == 2.0
    finally:
        rt.config.run_functions_eagerly(False)
    assert len(calls) == 2  # the Python function ran
    g(rt.constant(1.0))
    assert len(calls) == 2


def test_a_tape_recording_sees_the_ops_of_a_hot_function():
    f = traced(lambda x: x * x)
    x = rt.constant(3.0)
    for _ in range(3):
        f(x)
    with rt.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, x).numpy() == 6.0


def test_a_hot_function_called_while_tracing_another_is_traced_inline():
    inner = traced(lambda x: x + 1.0)
    for _ in range(3):
        inner(rt.constant(1.0))
    one = rt.constant(1.0)
    outer = traced(lambda x: inner(one) * x)  # an eager tensor like the hot calls'
    assert outer(rt.constant(2.0)).numpy() == 4.0
    concrete = outer.get_concrete_function(rt.constant(2.0))
    assert any(op.type == 'AddV2' for op in concrete.graph.get_operations())


def test_a_summary_trace_notes_the_graph_of_a_hot_call(monkeypatch):
    f = traced(double)
    for _ in range(3):
        f(rt.constant(1.0))
    noted = []
    monkeypatch.setattr(summary_trace, 'note', noted.append)
    rt.summary.trace_on(graph=True)
    try:
        assert f(rt.constant(1.0)).numpy() == 2.0
    finally:
        rt.summary.trace_off()
    assert noted == [f.get_concrete_function(rt.constant(1.0)).graph]
    f(rt.constant(1.0))
    assert len(noted) == 1


def test_a_graph_forgotten_with_its_object_is_not_run_by_the_hot_path():
    class Scale:
        factor = 3.0

    f = traced(lambda x, s: x * s.factor)
    g = traced(double)
    for _ in range(3):
        g(rt.constant(1.0))
    scale = Scale()
    assert f(rt.constant(1.0), scale).numpy() == 3.0
    del scale
    assert g(rt.constant(2.0)).numpy() == 4.0


def read_variable_plus(x):
    return x + counter


counter = None


@pytest.mark.parametrize('jit_compile', [False, True])
def test_captured_variables_are_read_at_each_hot_call(jit_compile):
    global counter
    counter = rt.Variable(1.0)
    try:
        f = traced(read_variable_plus, jit_compile=jit_compile)
        x = rt.constant(1.0)
        assert [f(x).numpy() for _ in range(3)] == [2.0, 2.0, 2.0]
        counter.assign(5.0)
        assert f(x).numpy() == 6.0
    finally:
        counter = None


def divide(x, y):
    return x // y


def test_native_errors_of_a_hot_call_name_the_op():
    offset = rt.constant(7)
    f = traced(lambda x: divide(offset, x), jit_compile=True)  # a capture, one output
    for _ in range(3):
        assert f(rt.constant(2)).numpy() == 3
    with pytest.raises(InvalidArgumentError, match='[Dd]ivision by zero|zero'):
        f(rt.constant(0))
    assert f(rt.constant(3)).numpy() == 2


def test_a_zero_d_array_and_a_numpy_scalar_of_one_dtype_share_a_graph():
    from runtime.core.tensor import EagerTensor
    f = traced(double)
    scalar = rt.constant(2.0)
    array = EagerTensor(np.array(3.0, np.float32), rt.float32)  # a 0-d array value
    for _ in range(2):
        assert f(scalar).numpy() == 4.0
        assert f(array).numpy() == 6.0
    assert f(rt.constant([[1.0]])).numpy().tolist() == [[2.0]]  # an array of another shape
    assert f(EagerTensor(np.zeros((2,), np.float32), rt.float32)).numpy().tolist() == [0, 0]
    assert f.experimental_get_tracing_count() == 3


def test_what_makes_calls_look_further_is_counted_while_it_lasts():
    from runtime.core import context
    cell = context.calls_look_further
    start = cell[0]
    with rt.GradientTape():
        assert cell[0] == start + 1
    with rt.Graph().as_default():
        assert cell[0] == start + 1
    for _ in range(2):  # switching on twice counts once
        rt.config.run_functions_eagerly(True)
    assert cell[0] == start + 1
    for _ in range(2):
        rt.config.run_functions_eagerly(False)
    assert cell[0] == start
    summary_trace.trace_on()
    summary_trace.trace_on()
    assert cell[0] == start + 1
    summary_trace.trace_off()
    summary_trace.trace_off()
    assert cell[0] == start
