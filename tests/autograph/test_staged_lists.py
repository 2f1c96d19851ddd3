"""Python lists appended to in tensor loops nested in other staged statements (tensor `if`s,
loops with break/continue/return): traced, they give Python's answers, or TensorFlow's
refusal where TensorFlow refuses the program (fuzz seed 23, program 397)."""
import pytest

import autograph as ag
import runtime as rt


def traced(f, *args):
    return ag.function(f)(*[rt.constant(a) for a in args]).numpy().tolist()


def appended_in_one_branch(a, b):
    s = []
    if a > 1:
        for i in range(b):
            s.append(i)
    return len(s)


def appended_in_a_loop_in_one_branch_and_directly_in_the_other(a, b):
    s = [b]
    if a > 1:
        for i in range(b):
            s.append(i)
    else:
        s.append(a)
    return rt.reduce_sum(rt.stack(s)) + 10 * len(s)


def appended_under_a_tensor_if_in_a_python_loop(a, b):
    s = []
    for c in range(3):
        if a > c:
            for i in range(b):
                s.append(i + c)
    return len(s)


def appended_before_a_tensor_break(a, b):
    s = []
    if a > 1:
        for i in range(b):
            s.append(i)
            if i > 0:
                break
    return len(s)


def appended_after_the_loop(a, b):
    s = []
    for i in range(a):
        s.append(i)
    s.append(100)
    return rt.reduce_sum(rt.stack(s))


def appended_in_the_branches_after_the_loop(a, b):
    s = []
    for i in range(b):
        s.append(i)
    if a > 1:
        s.append(10)
    else:
        s.append(20)
        s.append(30)
    return rt.reduce_sum(rt.stack(s)) + 100 * len(s)


def appended_in_a_python_while_with_a_tensor_break(a, b):
    s = []
    c1 = 0
    while c1 < 3:
        c1 += 1
        if b > a:
            break
        for c3 in range(b % 3):
            s.append(b)
    return len(s)


@pytest.mark.parametrize('f', [appended_in_one_branch,
                               appended_in_a_loop_in_one_branch_and_directly_in_the_other,
                               appended_under_a_tensor_if_in_a_python_loop,
                               appended_before_a_tensor_break, appended_after_the_loop,
                               appended_in_the_branches_after_the_loop])
def test_lists_a_nested_tensor_loop_appends_to_give_pythons_answers(f):
    for a, b in [(3, 2), (1, 3), (2, 1), (0, 0)]:
        expected = f(a, b)
        assert traced(f, a, b) == (expected.numpy().tolist() if isinstance(expected, rt.Tensor)
                                   else expected)


def test_a_python_while_whose_break_becomes_a_tensor_is_refused_in_tensorflows_words():
    assert appended_in_a_python_while_with_a_tensor_break(3, 2) == 6
    with pytest.raises(NotImplementedError) as error:
        traced(appended_in_a_python_while_with_a_tensor_break, 3, 2)
    message = str(error.value)
    assert 'started as non-Tensor, then changed to Tensor' in message
    assert 'test_staged_lists.py:' in message and '`while` loop' in message
