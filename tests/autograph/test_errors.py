"""Errors name the variable and the user's own file and line."""
import pytest
from autograph_helpers import in_graph

import autograph as ag
import runtime as rt
from autograph.pyct import errors

THIS_FILE = __file__


def set_in_one_branch(x):
    if x > 0:
        y = x
    return y


def dtypes_differ(x):
    if x > 0:
        y = 1
    else:
        y = 1.5
    return y


def shape_changes(x):
    v = rt.zeros([1])
    i = 0
    while i < x:
        v = rt.concat([v, v], 0)
        i += 1
    return v


def dtype_changes(x):
    v = rt.constant(0)
    i = 0
    while i < x:
        v = rt.constant(0.5)
        i += 1
    return v


def defined_in_loop(n):
    for i in rt.range(n):
        z = i * 2
    return z


def returns_in_loop(n):
    for i in rt.range(n):
        return i * 3


def generator(x):
    yield x


counter = 0


def assigns_global(x):
    global counter
    if x > 0:
        counter = 1
    return x


def tensor_if_in_try(x):
    try:
        if x > 0:
            x = x + 1
    except ValueError:
        pass
    return x


def python_loop_tensor_break(x):
    total = 0
    for i in range(5):
        if x > i:
            break
        total += i
    return total


def test_variable_set_in_one_branch():
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch") as e:
        in_graph(set_in_one_branch, 1)
    assert THIS_FILE in str(e.value)


def test_branches_with_different_dtypes():
    with pytest.raises(TypeError, match="'y'.*int32.*float32") as e:
        in_graph(dtypes_differ, 1)
    assert THIS_FILE in str(e.value)


def test_loop_variable_changing_shape():
    with pytest.raises(ValueError, match=r"'v'.*\(1,\).*\(2,\)") as e:
        in_graph(shape_changes, 3)
    assert THIS_FILE in str(e.value)


def test_loop_variable_changing_dtype():
    with pytest.raises(TypeError, match="'v'.*int32.*float32") as e:
        in_graph(dtype_changes, 3)
    assert THIS_FILE in str(e.value)


def test_variable_defined_in_a_tensor_loop_works_and_needs_one_iteration():
    result, _ = in_graph(defined_in_loop, 4)
    assert result == 6
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match="loop must iterate at least once to initialize 'z'") as e:
        in_graph(defined_in_loop, 0)
    assert THIS_FILE in str(e.value)


def test_return_inside_a_tensor_loop():
    result, _ = in_graph(returns_in_loop, 4)
    assert result == 0
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match='loop must iterate at least once to initialize the return value'):
        in_graph(returns_in_loop, 0)


def test_generators_are_refused_at_conversion():
    with pytest.raises(errors.UnsupportedFeatureError, match='yield') as e:
        ag.to_code(generator)
    assert f'{THIS_FILE}:56' in str(e.value)


def test_global_assignment_in_a_tensor_branch():
    with pytest.raises(NotImplementedError, match="global 'counter'") as e:
        in_graph(assigns_global, 1)
    assert f'{THIS_FILE}:65' in str(e.value)
    assert ag.to_graph(assigns_global)(1) == 1 and counter == 1


def test_tensor_control_flow_inside_try_with_handlers():
    with pytest.raises(NotImplementedError, match='`try`') as e:
        in_graph(tensor_if_in_try, 1)
    assert f'{THIS_FILE}:71' in str(e.value)


def test_python_loop_whose_break_becomes_a_tensor():
    with pytest.raises(NotImplementedError, match='became a tensor') as e:
        in_graph(python_loop_tensor_break, 2)
    assert THIS_FILE in str(e.value)


def test_reading_an_undefined_variable_on_python_values():
    with pytest.raises(UnboundLocalError, match="'y'") as e:
        ag.to_graph(set_in_one_branch)(-1)
    assert THIS_FILE in str(e.value)


def _adds_a_bool_in_a_branch(x):
    if x > 0:
        z = x * 2
        y = x + (z > 1)       # the op that fails
    else:
        y = x
    return y


def test_an_op_that_fails_in_a_traced_branch_names_its_own_line_not_the_ifs():
    with pytest.raises(TypeError) as raised:
        ag.function(_adds_a_bool_in_a_branch)(rt.constant(2))
    line = _adds_a_bool_in_a_branch.__code__.co_firstlineno + 3
    assert str(raised.value).startswith(f'{__file__}:{line}: AddV2: the operands must have')
