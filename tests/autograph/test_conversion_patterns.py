"""Code written for TensorFlow's AutoGraph converts and gives Python's answers (issue 8).

Each test is a small user program: run as plain Python, converted with Python values, and traced
with tensors through `ag.function`, or the documented error when Python's answer cannot be
staged.
"""
import pytest

import autograph as ag
import runtime as rt
from conftest import in_graph


def traced(f, *args):
    """`ag.function(f)` called with int32 tensors; numpy results."""
    result = ag.function(f)(*[rt.constant(a) for a in args])
    return rt.nest.map_structure(lambda t: t.numpy() if isinstance(t, rt.Tensor) else t, result)


# Pattern 10: Python print is a trace-time side effect

def test_python_print_runs_once_per_trace_not_every_call(capsys):
    @ag.function
    def scale(x):
        print('Tracing with', x)
        return x * 2

    for value in (1, 2, 3):
        assert scale(rt.constant(value)).numpy() == 2 * value
    out = capsys.readouterr().out
    assert out.count('Tracing with') == 1
    scale(rt.constant([1, 2]))           # a new shape: a new trace, a second print
    assert capsys.readouterr().out.count('Tracing with') == 1


def test_print_inside_a_tensor_loop_prints_while_tracing_only(capsys):
    @ag.function
    def count(n):
        i = 0
        while i < n:
            print('body traced')
            i += 1
        return i

    assert count(rt.constant(3)).numpy() == 3
    assert count(rt.constant(5)).numpy() == 5
    assert capsys.readouterr().out.count('body traced') >= 1
    count(rt.constant(7))
    assert capsys.readouterr().out == ''


def test_rt_print_prints_every_call(capsys):
    @ag.function
    def show(x):
        rt.print('value', x)
        return x

    show(rt.constant(1))
    show(rt.constant(2))
    assert capsys.readouterr().out == 'value 1\nvalue 2\n'
