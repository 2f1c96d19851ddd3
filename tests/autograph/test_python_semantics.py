"""Converted code on Python values behaves exactly like the original: same result, same type."""
import collections

import pytest

import autograph as ag


def sign(x):
    if x > 0:
        s = 1
    elif x < 0:
        s = -1
    else:
        s = 0
    return s


def classify(x, y):
    if x > 0:
        if y > 0:
            return 'both'
        return 'x only'
    elif y > 0:
        return 'y only'
    return 'neither'


def first_multiple(n, k):
    i = 1
    while i < n:
        if i % k == 0:
            return i
        i += 1
    return -1


def find_index(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            return i
    return None


def odd_sum_until(n, stop):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if i > stop:
            break
        total += i
    return total


def pairs_below(n, limit):
    found = []
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            if (i + j) % 2:
                continue
            if i * j > limit:
                break
            found.append((i, j))
    return found


def for_else(xs):
    for x in xs:
        if x < 0:
            result = 'negative'
            break
    else:
        result = 'all non-negative'
    return result


def ternary(x):
    return 'big' if x > 10 else ('small' if x < 0 else 'medium')


def logic(a, b):
    return (a and b, a or b, not a, a and b or not b)


def checked(x):
    assert x >= 0, 'x must be non-negative'
    return x * 2


def with_helpers(x):
    square = lambda v: v * v  # noqa: E731
    return square(sign(x)) + Counter(x).bump()


class Counter:
    def __init__(self, start):
        self.count = start

    def bump(self):
        if self.count > 3:
            self.count = 3
        return self.count


Point = collections.namedtuple('Point', 'x y')


def move(p, steps):
    for _ in range(steps):
        p = Point(p.x + 1, p.y * 2)
    return p


def returns_nothing(x):
    if x:
        return
    x = 1


CASES = [
    (sign, (5,)), (sign, (-2,)), (sign, (0,)),
    (classify, (1, 1)), (classify, (1, -1)), (classify, (-1, 1)), (classify, (-1, -1)),
    (first_multiple, (10, 4)), (first_multiple, (3, 7)),
    (find_index, ([3, 4, 5], 4)), (find_index, ([3, 4, 5], 9)),
    (odd_sum_until, (20, 9)), (odd_sum_until, (5, 100)),
    (pairs_below, (5, 6)),
    (for_else, ([1, 2],)), (for_else, ([1, -2],)),
    (ternary, (11,)), (ternary, (-1,)), (ternary, (3,)),
    (logic, (0, 5)), (logic, (2, 0)), (logic, ([], 'x')),
    (checked, (4,)),
    (with_helpers, (7,)), (with_helpers, (-1,)),
    (move, (Point(0, 1), 3)),
    (returns_nothing, (True,)), (returns_nothing, (False,)),
]


@pytest.mark.parametrize('f, args', CASES, ids=lambda c: getattr(c, '__name__', ''))
def test_same_result_and_type_as_python(f, args):
    expected = f(*args)
    result = ag.to_graph(f)(*args)
    assert result == expected
    assert type(result) is type(expected)


def test_and_or_are_lazy_on_python_values():
    calls = []

    def touch(value):
        calls.append(value)
        return value

    def f(a):
        return touch(a) and touch('and') or touch('or')

    assert ag.to_graph(f)(0) == 'or'
    assert calls == [0, 'or']


def test_assert_raises_assertion_error_with_message():
    with pytest.raises(AssertionError, match='x must be non-negative'):
        ag.to_graph(checked)(-1)


def test_methods_and_bound_methods_convert():
    counter = Counter(10)
    assert ag.to_graph(counter.bump)() == 3
    assert counter.count == 3


def test_closures_and_partials_are_called_through():
    import functools
    offset = 10

    def add(a, b):
        if a > b:
            return a + b + offset
        return a - b

    def f(x):
        return functools.partial(add, 5)(x)

    assert ag.to_graph(f)(1) == f(1) == 16


def test_do_not_convert_leaves_a_function_alone():
    @ag.do_not_convert
    def helper(x):
        return x

    def f(x):
        return helper(x)

    assert ag.to_graph(f)(3) == 3
