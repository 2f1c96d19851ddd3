"""The Python-value fast paths of converted code (issue 18): what a call from converted code runs
is decided once per function, and loops over Python containers run as Python loops; the
results are those of the slow path."""
import functools
import os.path

import autograph as ag
import runtime as rt
from autograph.operators import call


def relu(x):
    if x > 0:
        return x
    return 0 * x


def calls_relu_twice(x):
    return relu(x), relu(-x)


def test_a_user_function_keeps_its_conversion_for_later_calls():
    converted = ag.to_graph(calls_relu_twice)
    assert converted(3) == (3, 0)
    plan = relu.__dict__['__ag_call_plan__']
    assert plan[0] is relu and plan[1] is not relu        # its converted version runs
    graph = ag.function(calls_relu_twice).get_concrete_function(
        rt.TensorSpec([], rt.int32)).graph
    assert sum(op.type in ('If', 'StatelessIf') for op in graph.get_operations()) == 2


def test_a_plan_copied_by_functools_wraps_is_not_used_for_the_wrapper():
    ag.to_graph(calls_relu_twice)(1)

    @functools.wraps(relu)
    def wrapper(x):
        return 'the wrapper'

    def calls_wrapped(x):
        return wrapper(x)
    assert wrapper.__dict__['__ag_call_plan__'][0] is relu   # copied from relu ...
    assert ag.to_graph(calls_wrapped)(1) == 'the wrapper'    # ... and ignored


def library_calls(path, values):
    parts = os.path.split(path)
    total = sum(values)
    text = 'abc'.upper()
    return parts, total, text, values.index(2)


def test_library_functions_builtins_and_builtin_methods_run_as_they_are():
    values = [1, 2, 3]
    expected = library_calls('/a/b', values)
    converted = ag.to_graph(library_calls)
    assert converted('/a/b', values) == expected
    assert converted('/a/b', values) == expected        # second call: the fast paths
    assert os.path.split.__dict__.get('__ag_call_plan__', (None,))[0] in (None, os.path.split)


class Counter:
    def __init__(self):
        self.calls = 0

    def bump(self, k):
        self.calls += k
        return self.calls


def bumps(counter, n):
    for k in range(n):
        counter.bump(k)
    return counter.calls


def test_methods_are_called_bound_on_every_call():
    first, second = Counter(), Counter()
    converted = ag.to_graph(bumps)
    assert converted(first, 4) == 6 and converted(second, 3) == 3
    assert (first.calls, second.calls) == (6, 3)


@ag.do_not_convert
def unconverted_relu(x):
    if x > 0:
        return x
    return 0 * x


def calls_unconverted(x):
    return unconverted_relu(x)


def test_do_not_convert_still_holds_after_the_first_call():
    converted = ag.to_graph(calls_unconverted)
    assert converted(2) == 2 and converted(2) == 2
    function = ag.function(calls_unconverted)
    try:
        function(rt.constant(2))
    except rt.errors.OperatorNotAllowedInGraphError:
        pass
    else:
        raise AssertionError('a tensor `if` in a do_not_convert function must not be staged')


def test_an_options_object_that_does_not_recurse_calls_as_it_is():
    ag.to_graph(calls_relu_twice)(1)           # relu's plan: its conversion
    no_recursion = type('Options', (), {'recursive': False})()
    with rt.Graph().as_default():
        x = rt.placeholder(rt.int32, [])
        call.converted_call(relu, (x,), None)   # converted: a tensor `if` is staged
        try:
            call.converted_call(relu, (x,), None, None, no_recursion)
        except rt.errors.OperatorNotAllowedInGraphError:
            pass
        else:
            raise AssertionError('recursive=False must call relu as it is')


def loops_over_containers(n):
    seen = []
    for key, value in {'a': n, 'b': n + 1}.items():
        seen.append((key, value))
    for ch in 'xy':
        seen.append(ch)
    for k in range(n):
        if k == 2:
            break
        seen.append(k)
    return seen


def test_loops_over_python_containers_give_pythons_results():
    assert ag.to_graph(loops_over_containers)(4) == loops_over_containers(4)
