"""The staged form of each construct runs in a function of its own
(autograph/converters/speed/staged_functions.py): the plain path's variables are fast locals, and
both paths keep their meaning."""
import pytest

import autograph as ag
import runtime as rt
from tools import bench_python


@pytest.mark.parametrize('name, function, arguments', bench_python.CASES)
def test_converted_functions_have_no_cells(name, function, arguments):
    converted = ag.to_graph(function)
    assert converted.__code__.co_cellvars == ()
    assert converted(*arguments()) == function(*arguments())


def counts(n, use_lambda):
    total, steps = 0, 0
    while steps < n:
        if steps % 2 == 1:
            total += steps
        else:
            total -= 1
        steps += 1
    if use_lambda:
        read = lambda: total   # noqa: E731  (a closure: `total` stays a cell, as in Python)
        total += 100
        return read()
    return total


def test_a_closure_of_the_users_keeps_its_cell_and_sees_later_writes():
    converted = ag.to_graph(counts)
    assert 'total' in converted.__code__.co_cellvars
    assert converted.__code__.co_cellvars == counts.__code__.co_cellvars
    for n in (0, 5, 8):
        assert converted(n, True) == counts(n, True)
        assert converted(n, False) == counts(n, False)


def test_the_staged_forms_still_carry_their_variables():
    @ag.function
    def staged(n, use_lambda):
        return counts(n, use_lambda)
    for n in (0, 5, 8):
        assert int(staged(rt.constant(n), True)) == counts(n, True)
        assert int(staged(rt.constant(n), False)) == counts(n, False)


def test_a_variable_unbound_before_a_tensor_if_keeps_tensorflows_error():
    def f(x):
        if x > 0:
            y = x
        return y
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        ag.function(f)(rt.constant(1))
    assert ag.to_graph(f)(1) == 1
    with pytest.raises(UnboundLocalError):
        ag.to_graph(f)(-1)


counter = 0


def bumps(x):
    seen = 0

    def inner(x):
        nonlocal seen
        if x > 0:
            seen = seen + 1
        else:
            seen = seen - 1
        return seen
    return inner(x), seen


def counts_globally(x):
    global counter
    if x > 0:
        counter = counter + 1
    return counter


def test_global_and_nonlocal_names_assigned_in_staged_forms():
    global counter
    converted = ag.to_graph(bumps)
    assert converted(3) == bumps(3) == (1, 1)
    assert converted(-3) == bumps(-3) == (-1, -1)
    # a nonlocal assigned in a tensor `if` is state of the staged form
    assert [int(v) for v in ag.function(bumps)(rt.constant(3))] == [1, 1]
    assert [int(v) for v in ag.function(bumps)(rt.constant(-3))] == [-1, -1]
    counter = 0
    assert ag.to_graph(counts_globally)(1) == 1 and counter == 1
    assert ag.to_graph(counts_globally)(-1) == 1
    # a global assigned there is refused, as before the staged forms had functions of their own
    with pytest.raises(NotImplementedError, match="assigning the global 'counter'"):
        ag.function(counts_globally)(rt.constant(3))


def test_logical_expressions_on_tensors_and_on_python_values():
    def f(a, b, c):
        return (a > 0 and b > 0) or not c

    converted = ag.to_graph(f)
    assert converted.__code__.co_cellvars == ()
    for args in ((1, 1, True), (0, 1, True), (0, 0, False)):
        assert converted(*args) == f(*args)
        assert bool(ag.function(f)(*[rt.constant(v) for v in args])) == f(*args)


def test_the_staged_function_is_made_on_the_staged_path_only():
    source = ag.to_code(bench_python.walk, form='executed')
    staged = [line for line in source.splitlines() if line.strip().startswith('def staged')]
    assert staged
    for line in source.splitlines():
        if 'ag__.staged_call(' in line:
            assert line.lstrip().split(' = ')[-1].startswith('ag__.staged_call(staged')
