"""Graph ops built by converted code are attributed to the user's line."""
import pytest

import autograph as ag
import runtime as rt


def positive(x):
    assert x > 0, 'x must be positive'
    return x


def test_a_failing_assert_in_a_graph_names_the_users_assert_line():
    line = positive.__code__.co_firstlineno + 1
    f = ag.function(positive)
    assert f(rt.constant(3)).numpy() == 3
    with pytest.raises(rt.errors.InvalidArgumentError) as info:
        f(rt.constant(-3))
    assert 'x must be positive' in str(info.value)
    assert f'test_op_origins.py:{line}' in str(info.value)
