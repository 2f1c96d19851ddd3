"""TensorFlow AutoGraph's reference behaviours: Python lists whose elements are loop
state, closures made in loops, TensorArray shapes after a loop, and TF's error wording."""
import pytest

import autograph as ag
import runtime as rt


def count_down_in_a_list(x):
    y = [x, x]
    while x > 0:
        y[0] += 1
        x -= 1
    return y[0], y[1]


def list_elements_in_a_range_loop(n):
    y = [rt.constant(0), rt.constant(1)]
    key = 1
    for i in rt.range(n):
        y[key] = y[key] * 2
        y[0] += i
    return y


def test_list_elements_are_state_of_a_tensor_while_loop():
    first, second = ag.function(count_down_in_a_list)(rt.constant(3))
    assert (int(first), int(second)) == (6, 3)       # TensorFlow gives (6, 3)
    assert count_down_in_a_list(3) == (6, 3)
    assert ag.to_graph(count_down_in_a_list)(3) == (6, 3)


def test_list_elements_are_state_of_a_for_loop_over_rt_range():
    values = ag.function(list_elements_in_a_range_loop)(rt.constant(4))
    assert [int(v) for v in values] == [6, 16]       # TensorFlow gives [6, 16]
    graph = ag.function(list_elements_in_a_range_loop).get_concrete_function(
        rt.TensorSpec([], rt.int32)).graph
    assert any(op.type in ('While', 'StatelessWhile') for op in graph.get_operations())


def index_set_in_the_loop(n):
    y = [rt.constant(0), rt.constant(0)]
    for i in rt.range(n):
        k = 0
        y[k] = y[k] + i
    return y


def test_an_element_whose_index_the_loop_sets_is_still_refused():
    with pytest.raises(TypeError, match=r"list 'y' is changed by `y\[k\] = y\[k\] \+ i` .*"
                                        r"is not allowed in a loop on a tensor"):
        ag.function(index_set_in_the_loop)(rt.constant(2))


def lambdas_in_a_loop(x):
    fs = []
    for v in [1, 2, 3]:
        fs.append(lambda: v * x)
    return [g() for g in fs]


def closure_made_before_a_loop(n):
    v = 0
    read = lambda: v   # noqa: E731
    for i in range(n):
        v = i
    return read()


def test_closures_made_in_or_before_a_loop_see_the_last_value_as_in_python():
    assert lambdas_in_a_loop(10) == [30, 30, 30]
    assert ag.to_graph(lambdas_in_a_loop)(10) == [30, 30, 30]
    assert [int(t) for t in ag.function(lambdas_in_a_loop)(rt.constant(10))] == [30, 30, 30]
    assert ag.to_graph(closure_made_before_a_loop)(4) == closure_made_before_a_loop(4) == 3


def transposed_stack(n):
    ta = rt.TensorArray(rt.float32, size=n)
    for i in rt.range(n):
        ta = ta.write(i, rt.ones([2, 3]) * rt.cast(i, rt.float32))
    stacked = ta.stack()
    return stacked, rt.transpose(stacked)


def test_tensor_array_after_a_graph_loop_knows_its_element_shape():
    function = ag.function(transposed_stack)
    graph = function.get_concrete_function(rt.TensorSpec([], rt.int32)).graph
    stacked, transposed = graph.outputs
    assert stacked.shape.as_list() == [None, 2, 3]    # as in TensorFlow
    assert transposed.shape.as_list() == [3, 2, None]
    _, value = function(rt.constant(2))
    assert value.numpy().tolist() == [[[0.0, 1.0]] * 2] * 3


def set_in_one_branch(x):
    if x > 0:
        y = 1
    return y


def tuple_or_tensor(x):
    if x > 0:
        y = (x, x)
    else:
        y = x
    return y


def float_or_int(x):
    if x > 0:
        y = rt.constant(1.0)
    else:
        y = rt.constant(1)
    return y


def changes_dtype(x):
    for i in rt.range(x):
        x = rt.cast(x, rt.float32)
    return x


def none_before(n):
    y = None
    for i in rt.range(n):
        y = i * 2
    return y


def object_in_the_loop(n):
    for i in rt.range(n):
        y = object()
    return y


def test_none_before_a_tensor_loop_takes_the_type_of_one_iteration_as_in_tensorflow():
    function = ag.function(none_before)
    assert int(function(rt.constant(3))) == 4
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match="loop must iterate at least once to initialize 'y'"):
        function(rt.constant(0))


@pytest.mark.parametrize('function, error, phrase', [
    (set_in_one_branch, ValueError, "'y' must also be initialized in the else branch"),
    (tuple_or_tensor, TypeError,
     "'y' must have the same nested structure in the main and else branches"),
    (float_or_int, TypeError,
     "'y' has dtype float32 in the main branch, but dtype int32 in the else branch"),
    (changes_dtype, TypeError,
     "'x' has dtype int32 before the loop, but dtype float32 after one iteration"),
    (object_in_the_loop, ValueError, "'y' must be defined before the loop"),
])
def test_errors_carry_tensorflow_autographs_phrases_and_the_users_line(function, error, phrase):
    with pytest.raises(error) as info:
        ag.function(function)(rt.constant(2))
    message = str(info.value)
    assert phrase in message
    assert 'test_tf_reference_behaviours.py:' in message


def test_a_none_loop_variable_of_rt_while_loop_uses_tensorflows_phrase():
    with ag.function(lambda: None).get_concrete_function().graph.as_default():
        with pytest.raises(ValueError, match="'y' is not allowed to be None before the loop"):
            rt.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y),
                          [rt.placeholder(rt.int32, []), None], names=('i', 'y'))
