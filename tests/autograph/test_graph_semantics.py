"""Converted code on tensors in a graph: the same values as plain Python on Python values."""
import collections
import io
import sys

import pytest
from autograph_helpers import Python, assert_same, in_graph, plain
from test_python_semantics import classify, first_multiple, odd_sum_until, sign, ternary

import autograph as ag
import runtime as rt


def count_down_rows(x):
    total = 0
    for row in x:
        total += row
    return total


def range_loop(n):
    total = 0
    for i in rt.range(n):
        total += i * i
    return total


def python_range_loop(n):
    total = 0
    for i in range(n):
        total += i
    return total


def enumerate_zip(a, b):
    total = 0
    for i, x in enumerate(a):
        total += i * x
    for x, y in zip(a, b):
        total += x * y
    return total


def nested_loops(n):
    count = 0
    i = 0
    while i < n:
        i += 1
        j = 0
        while j < n:
            j += 1
            if j > i:
                break
            if (i + j) % 2 == 1:
                continue
            count += 1
    return count


def early_return_in_for(n):
    for i in rt.range(n):
        if i * i > 10:
            return i
    return -1


def logic(a, b):
    return (a > 0 and b > 0), (a > 0 or b > 0), not a > 0


def helper_with_if(v):
    if v > 0:
        return v
    return -v


def uses_helpers(x, y):
    return helper_with_if(x) + helper_with_if(y)


def lambda_and_method(x):
    double = lambda v: v * 2  # noqa: E731
    return Scaler(3).scale(double(x))


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def scale(self, v):
        if v > 100:
            v = v - 100
        return v * self.factor


def dict_and_attribute(x):
    d = {'total': 0}
    box = Scaler(0)
    i = 0
    while i < x:
        d['total'] = d['total'] + i
        box.factor = box.factor + 1
        i += 1
    if x > 2:
        d['total'] = d['total'] * 10
    return d['total'], box.factor


Pair = collections.namedtuple('Pair', 'a b')


def namedtuple_loop(n):
    p = Pair(0, 1)
    for _ in rt.range(n):
        p = Pair(p.a + 1, p.b * 2)
    return p.a, p.b


def tensor_array_loop(n):
    ta = rt.TensorArray(rt.int32, size=0, dynamic_size=True)
    for i in rt.range(n):
        ta = ta.write(i, i * 10)
    return ta.stack()


def assert_positive(x):
    assert x > 0, 'x must be positive'
    return x


CASES = [
    (sign, (5,)), (sign, (-3,)), (sign, (0,)),
    (classify, (1, 1)), (classify, (1, -1)), (classify, (-1, 1)), (classify, (-1, -1)),
    (first_multiple, (10, 4)), (first_multiple, (3, 7)),
    (odd_sum_until, (20, 9)), (odd_sum_until, (5, 100)),
    (ternary, (11,)), (ternary, (-1,)), (ternary, (3,)),
    (count_down_rows, ([1, 2, 3],)),
    (range_loop, (5,)), (range_loop, (0,)),
    (python_range_loop, (Python(4),)),
    (enumerate_zip, ([1, 2, 3], [4, 5, 6])),
    (nested_loops, (4,)),
    (early_return_in_for, (10,)), (early_return_in_for, (3,)),
    (logic, (1, -1)), (logic, (-1, 1)),
    (uses_helpers, (3, -4)),
    (lambda_and_method, (7,)), (lambda_and_method, (70,)),
    (dict_and_attribute, (4,)), (dict_and_attribute, (1,)),
    (assert_positive, (3,)),
]


@pytest.mark.parametrize('f, args', CASES, ids=lambda c: getattr(c, '__name__', ''))
def test_graph_gives_python_values(f, args):
    result, _ = in_graph(f, *args)
    assert_same(result, f(*plain(*args)))


def test_namedtuple_loop_variable():
    result, _ = in_graph(namedtuple_loop, 3)
    assert_same(result, (3, 8))


def test_tensor_array_written_in_a_loop():
    result, _ = in_graph(tensor_array_loop, 4)
    assert_same(result, [0, 10, 20, 30])


def test_rt_range_loop_is_one_while_op():
    _, graph = in_graph(range_loop, 5)
    types = [op.type for op in graph.get_operations()]
    assert types.count('StatelessWhile') + types.count('While') == 1


def test_each_helper_gets_its_own_if_op():
    _, graph = in_graph(uses_helpers, 3, -4)
    types = [op.type for op in graph.get_operations()]
    assert types.count('StatelessIf') + types.count('If') == 2


def test_rt_print_in_a_graph_loop_prints_every_iteration(monkeypatch):
    def f(n):
        for i in rt.range(n):
            rt.print('step', i)
        return n

    graph = rt.Graph()
    with graph.as_default():
        n = rt.placeholder(rt.int32, shape=[])
        out = ag.to_graph(f)(n)
    captured = io.StringIO()
    monkeypatch.setattr(sys, 'stderr', captured)
    graph.run(out, {n: 3})
    assert captured.getvalue() == 'step 0\nstep 1\nstep 2\n'


def test_failing_assert_in_a_graph_raises_when_run():
    with pytest.raises(rt.errors.InvalidArgumentError, match='x must be positive'):
        in_graph(assert_positive, -1)


def test_python_values_stay_python_inside_graph_functions():
    result, graph = in_graph(python_range_loop, Python(3))
    assert result == 3
    assert not [op for op in graph.get_operations() if op.type in ('While', 'StatelessWhile')]
