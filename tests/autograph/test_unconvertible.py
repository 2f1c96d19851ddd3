"""A function whose source Python does not keep (exec, a REPL) runs unconverted, with a warning."""
import pytest

import autograph as ag
import runtime as rt


def test_a_function_without_source_warns_and_runs_unconverted():
    namespace = {'rt': rt}
    exec('def double(x):\n    return x * 2\n', namespace)
    f = ag.function(namespace['double'])
    with pytest.warns(UserWarning, match="cannot convert 'double'.*runs unconverted"):
        assert f(rt.constant(4)).numpy() == 8
