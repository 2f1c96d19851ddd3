"""Both forms of a converted statement or expression (the speed machinery): the value Python tests
first picks the staged form (a symbolic tensor) or the construct itself as plain Python."""
import dis
import sys

import pytest

import autograph as ag
import autograph.operators as operators
import runtime as rt


def _refuse(name):
    def refused(*args, **kwargs):
        raise AssertionError(f'ag__.{name} ran on Python values')
    return refused


@pytest.fixture
def no_staged_operators(monkeypatch):
    """Converted code that calls any staged operator fails."""
    for name in ('if_stmt', 'while_stmt', 'for_stmt', 'and_', 'or_', 'not_', 'if_exp'):
        monkeypatch.setattr(operators, name, _refuse(name))


def collatz(n, limit):
    steps, seen = 0, []
    while n != 1 and steps < limit:
        if n % 2 == 0:
            n = n // 2
        elif n > 1000 or not seen:
            n = 3 * n + 1
        else:
            n = 3 * n + 1
        seen.append(n)
        steps += 1
    for value in seen:
        if value > 50:
            break
    return steps, value if seen else None, (seen and seen[-1]) or 'none'


def test_python_if_while_for_and_or_run_as_python(no_staged_operators):
    converted = ag.to_graph(collatz)
    assert converted(27, 100) == collatz(27, 100) == (100, 82, 53)
    assert converted(1, 100) == collatz(1, 100) == (0, None, 'none')


def _made_functions(function, *args):
    """The functions (closures, lambdas) that converted code creates while `function` runs."""
    made = []

    def trace(frame, event, arg):
        if not frame.f_code.co_filename.startswith('<autograph generated'):
            return None
        frame.f_trace_opcodes = True
        if event == 'opcode' and frame.f_code.co_code[frame.f_lasti] == dis.opmap['MAKE_FUNCTION']:
            made.append(frame.f_lineno)
        return trace
    sys.settrace(trace)
    try:
        function(*args)
    finally:
        sys.settrace(None)
    return made


def test_the_python_path_creates_no_block_function_or_lambda():
    converted = ag.to_graph(collatz)
    assert converted(6, 100) == (8, 1, 1)
    assert _made_functions(converted, 27, 100) == []


def tensor_branches(x, n):
    if x > 0:
        y = x
    else:
        y = -x
    i = 0
    while i < n:
        y += 1
        i += 1
    return y


def test_tensor_conditions_still_build_if_and_while_ops():
    function = ag.function(tensor_branches)
    graph = function.get_concrete_function(rt.TensorSpec([], rt.int32),
                                           rt.TensorSpec([], rt.int32)).graph
    types = [op.type for op in graph.get_operations()]
    assert types.count('If') + types.count('StatelessIf') == 1
    assert types.count('While') + types.count('StatelessWhile') == 1
    assert int(function(rt.constant(-3), rt.constant(2))) == 5


def test_the_first_test_of_a_tensor_while_runs_once_outside_the_loop():
    calls = []

    def below(i, n):
        calls.append(i)
        return i < n

    def count_up(n):
        i = 0
        while below(i, n):
            i += 1
        return i
    function = ag.function(count_up)
    assert int(function(rt.constant(3))) == 3
    # the decision, then the loop's own test graph (once), as while_stmt did before
    assert len(calls) == 2


def becomes_tensor(n):
    i = 0
    while i < 3:
        i = i + n
    return i


def test_a_while_test_that_becomes_a_tensor_mid_loop_is_refused_as_before():
    with pytest.raises(NotImplementedError, match='became a tensor inside the loop'):
        ag.function(becomes_tensor)(rt.constant(1))
    assert ag.to_graph(becomes_tensor)(2) == 4


def python_loop_with_tensor_break(xs, limit):
    total = 0
    for x in xs:
        total += x
        if total > limit:
            break
    return total


def test_a_for_break_that_becomes_a_tensor_is_refused_and_a_python_break_stops():
    with pytest.raises(NotImplementedError, match='became a tensor inside the loop'):
        ag.function(python_loop_with_tensor_break)([1, 2, 3], rt.constant(2))
    iterator = iter([1, 2, 3, 4])
    assert ag.to_graph(python_loop_with_tensor_break)(iterator, 2) == 3
    assert next(iterator) == 3   # the loop stopped before taking the next item, as Python's


def first_over(xs, limit):
    found = None
    while True:
        if not xs:
            break
        x = xs.pop(0)
        if x > limit:
            found = x
            break
    else:
        found = 'never'
    count = 0
    for x in range(10):
        if x == 3:
            break
        count += 1
    else:
        count = -1
    return found, count


def test_the_python_form_of_a_loop_breaks_for_real_and_keeps_the_else_block():
    assert ag.to_graph(first_over)([1, 5, 9], 4) == first_over([1, 5, 9], 4) == (5, 3)
    assert ag.to_graph(first_over)([1], 4) == (None, 3)
    source = ag.to_code(first_over, form='executed')
    assert 'while True:' in source        # a Python test and only `break`s: Python only
    assert 'break_ = True\n' + ' ' * 16 + 'break\n' in source    # the plain form's `break`


def while_with_tensor_break(limit):
    i = 0
    while True:
        i += 1
        if i > limit:
            break
    return i


def both_branches_break(t):
    n = 0
    for x in [1, 2, 3]:
        n += x
        if t > 0:
            break
        else:
            break
    return n


def test_a_break_that_a_tensor_if_sets_is_refused_or_stops_a_python_loop():
    with pytest.raises(NotImplementedError, match='became a tensor inside the loop'):
        ag.function(while_with_tensor_break)(rt.constant(2))
    assert ag.to_graph(while_with_tensor_break)(2) == 3
    # both branches of the tensor `if` break: the flag stays a Python True and stops the loop
    assert int(ag.function(both_branches_break)(rt.constant(1))) == 1


def drain(items):
    taken = []
    while items:
        taken.append(items.pop())
        items[:0] = []
    return taken


def test_the_python_form_of_a_loop_makes_no_list_mutation_check(monkeypatch):
    monkeypatch.setattr(operators, 'check_list_mutation', _refuse('check_list_mutation'))
    assert ag.to_graph(drain)([1, 2, 3]) == [3, 2, 1]


def sign_of(x, log):
    if not x:
        log.append('zero')
        return 0
    return 1


def test_if_not_picks_its_form_on_the_operand_and_tests_it_once():
    log = []
    value = Loud(0, log)
    assert ag.to_graph(sign_of)(value, log) == 0
    assert log == [0, 'zero']               # `__bool__` once, as Python
    assert ag.to_graph(sign_of)([5], []) == 1
    function = ag.function(sign_of)
    assert int(function(rt.constant(False), [])) == 0
    assert int(function(rt.constant(True), [])) == 1
    graph = function.get_concrete_function(rt.TensorSpec([], rt.bool), []).graph
    assert any(op.type in ('If', 'StatelessIf') for op in graph.get_operations())


class Loud:
    def __init__(self, value, log):
        self.value, self.log = value, log

    def __bool__(self):
        self.log.append(self.value)
        return bool(self.value)


def logic(a, b, c):
    return (a and b, a or b, a and b and c, a or b or c, not a, b if a else c)


@pytest.mark.parametrize('a, b, c', [(0, [], 'x'), (3, 0, None), ([1], 'y', 0), ('', 0, [])])
def test_and_or_not_and_conditional_give_pythons_values(a, b, c):
    assert ag.to_graph(logic)(a, b, c) == logic(a, b, c)


def test_each_operand_is_evaluated_once_and_short_circuits():
    def order(log):
        def operand(value):
            log.append(('eval', value))
            return Loud(value, log)
        return operand(0) and operand(1), operand(2) or operand(3), not operand(4)

    expected, got = [], []
    order(expected)
    ag.to_graph(order)(got)
    assert got == expected


def tensor_logic(x):
    return rt.logical_not(x > 0) if x < 5 and x > -5 else x > 100


def test_tensor_operands_take_the_staged_forms():
    function = ag.function(tensor_logic)
    graph = function.get_concrete_function(rt.TensorSpec([], rt.int32)).graph
    types = [op.type for op in graph.get_operations()]
    assert 'LogicalAnd' in types and types.count('If') + types.count('StatelessIf') == 1
    assert [bool(function(rt.constant(v))) for v in (3, -3, 7, 200)] == [False, True, False, True]


def set_in_one_branch(x):
    if x > 0:
        y = x
    return y


def test_undefined_placeholders_are_set_in_the_staged_form_only():
    code = ag.to_code(set_in_one_branch, form='executed')
    staged, python = code.split('\n        elif cond:\n')
    assert "y = ag__.Undefined('y')" in staged and 'Undefined' not in python
    with pytest.raises(UnboundLocalError, match="local variable 'y'"):
        ag.to_graph(set_in_one_branch)(-1)
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch"):
        ag.function(set_in_one_branch)(rt.constant(1))


def none_before_tensor_loop(n):
    y = None
    for i in rt.range(n):
        y = i
    return y


def test_reads_after_a_loop_that_may_leave_a_flagged_value_stay_checked():
    code = ag.to_code(none_before_tensor_loop, form='executed')
    assert 'ag__.ld(y)' in code.split('for i in itr:')[1]     # the read after the loop
    with pytest.raises(rt.errors.InvalidArgumentError, match='iterate at least once'):
        ag.function(none_before_tensor_loop)(rt.constant(0))


def plain(values):
    total = 0
    for v in values:
        if v > 2 or v < 0:
            total += v
    return total


def test_reads_of_plain_python_code_are_not_checked():
    code = ag.to_code(plain, form='executed')
    assert '\n                elif cond:\n                    total += v\n' in code
    assert ag.to_graph(plain)([1, 3, -1]) == 2


class Table:
    keys = [k for k in ('a', 'b') if k and not k.isupper()]


def where_walrus_is_not_allowed(xs, ys):
    class Local:
        picked = [x for x in (xs or ys) if x and x > 1]
    squares = [y * y for y in (ys if xs else ys or [])]
    return Local.picked, squares, f'{xs and len(xs)}', Table.keys


def test_comprehension_iterables_and_class_bodies_keep_the_staged_form():
    code = ag.to_code(where_walrus_is_not_allowed, form='executed')
    compile(code, '<to_code>', 'exec')
    assert ag.to_graph(where_walrus_is_not_allowed)([1, 2, 3], [4]) == \
        where_walrus_is_not_allowed([1, 2, 3], [4])
    assert ag.to_graph(where_walrus_is_not_allowed)([], [5]) == \
        where_walrus_is_not_allowed([], [5])


def chains(a, b, c, d):
    return a < b <= c, 0 <= a < b < d, [x for x in (a, b) if 0 < x < 3]


def test_chained_comparisons_give_pythons_values_and_evaluate_each_operand_once():
    for args in [(0, 1, 1, 2), (1, 0, 2, 3), (2, 2, 5, 1), (0, 1, 2, 3)]:
        assert ag.to_graph(chains)(*args) == chains(*args)
    log = []

    def operand(value):
        log.append(value)
        return value

    def chained():
        return operand(1) < operand(2) < operand(0) < operand(5)
    assert ag.to_graph(chained)() is False and log == [1, 2, 0]


def test_a_tensor_chained_comparison_is_staged():
    def between(x):
        return 0 < x < 5
    function = ag.function(between)
    assert [bool(function(rt.constant(v))) for v in (-1, 2, 7)] == [False, True, False]
    types = [op.type for op in function.get_concrete_function(
        rt.TensorSpec([], rt.int32)).graph.get_operations()]
    assert 'LogicalAnd' in types


def identity_tests(x, keys):
    if x is None:
        x = 0
    for k in ('a', 'b'):
        if k in keys and k not in ('z',):
            x += 1
    return x


def test_a_test_that_is_always_a_python_bool_is_written_as_python_only():
    code = ag.to_code(identity_tests, form='executed')
    assert 'if x is None:' in code and "for k in ('a', 'b'):" in code
    assert "if k in keys and k not in ('z',):" in code
    assert 'is_staged' not in code and 'if_stmt' not in code and 'for_stmt' not in code
    assert ag.to_graph(identity_tests)(None, ['a', 'z']) == 1


def last_item(xs):
    total = 0
    for x in xs:
        total += x
    return x, total


def test_a_local_python_may_find_unbound_is_read_with_a_check_naming_the_line():
    code = ag.to_code(last_item, form='executed')
    # `x` may be unbound after the loop; `total` (0 before it) cannot be a placeholder
    assert "(ag__.ld(ag__.ldu(lambda: x, 'x')), total)" in code
    assert ag.to_graph(last_item)([1, 2]) == (2, 3)
    with pytest.raises(UnboundLocalError, match=rf"{__file__}:\d+: local variable 'x'"):
        ag.to_graph(last_item)([])


def flag_set_in_both_branches(n, c):
    # `ok` is dead after the first `if` (the second sets it in both branches), so the first's
    # staged form does not carry it out: the second's reads it with `ldu`
    for i in rt.range(n):
        ok = i > 0
    if c > 1:
        ok = True
    else:
        ok = c < 100
    if c > 1:
        ok = True
    else:
        ok = True
    assert ok
    return c


def flag_cleared_in_both_branches(c):
    ok = True
    if c > 1:
        ok = False
    else:
        ok = False
    assert ok
    return c


def test_a_flag_both_branches_of_a_tensor_if_set_to_one_python_value_is_asserted_in_the_graph():
    # as in TensorFlow: the variable is the cond's tensor, so `assert` is an Assert op
    function = ag.function(flag_set_in_both_branches)
    graph = function.get_concrete_function(rt.TensorSpec([], rt.int32),
                                           rt.TensorSpec([], rt.int32)).graph
    types = [op.type for op in graph.get_operations()]
    assert types.count('Assert') == 1 and types.count('StatelessIf') == 2
    assert int(function(rt.constant(2), rt.constant(0))) == 0
    with pytest.raises(rt.errors.InvalidArgumentError):
        ag.function(flag_cleared_in_both_branches)(rt.constant(3))
    with pytest.raises(AssertionError):
        ag.to_graph(flag_cleared_in_both_branches)(3)


def test_the_compilers_own_flags_keep_the_python_value_both_branches_give_them():
    code = ag.to_code(tensor_branches, form='executed')
    assert code.count("('y',), 1)") == 1
    function = ag.function(simple_return_in_both)
    graph = function.get_concrete_function(rt.TensorSpec([], rt.int32)).graph
    assert 'Assert' not in [op.type for op in graph.get_operations()]   # do_return is True
    assert "('do_return', 'retval_'), 2, ('do_return',))" in ag.to_code(
        simple_return_in_both, form='executed')


def simple_return_in_both(x):
    if x > 0:
        return x
    else:
        return 0


def _test_becomes_a_tensor(n):
    while n > 0:
        n = n - rt.constant(1)      # the test `n > 0` is a tensor from the second time on
    return n


def _body_bools_a_tensor(n, t):
    while n > 0:
        n -= 1
        if n == 1:
            bool(t)                 # the body's own error, raised while the test is Python
    return n


def _nested_whiles_source(depth):
    """A function of `depth` nested `while` loops, each running n times; the innermost counts."""
    lines, indent = ['def nested(n):', '    total = 0'], '    '
    for k in range(depth):
        name = f'v{k}'
        lines += [f'{indent}{name} = n', f'{indent}while {name} > 0:', f'{indent}    {name} -= 1']
        indent += '    '
    return '\n'.join(lines + [f'{indent}total += 1', '    return total']) + '\n'


def test_a_plain_while_tests_its_condition_again_without_a_per_iteration_check(
        tmp_path, import_file):
    code = ag.to_code(_test_becomes_a_tensor, form='executed')
    assert 'except ag__.OperatorNotAllowedInGraphError:' in code
    assert 'cond = ag__.ld(n) > 0' in code or 'cond = n > 0' in code
    # a test that became a tensor: the loop's error (TF's words), with no error chained to it
    with pytest.raises(NotImplementedError) as error:
        ag.function(_test_becomes_a_tensor)(3)
    assert 'started as non-Tensor, then changed to Tensor' in str(error.value)
    assert error.value.__suppress_context__
    # the body's own error, raised while the test is a Python value, goes on as it was raised
    t = rt.constant(True)
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError) as error:
        ag.function(lambda n: _body_bools_a_tensor(n, t * t))(3)
    assert 'started as non-Tensor' not in str(error.value)
    frames = [frame.name for frame in error.traceback]
    assert 'tf___body_bools_a_tensor' in frames or '_body_bools_a_tensor' in frames
    # ten nested loops, each its handler but the innermost: within CPython's limit of nested
    # blocks (20), which one more handler would pass
    (tmp_path / '_nested_whiles.py').write_text(_nested_whiles_source(10))
    nested = import_file(tmp_path / '_nested_whiles.py').nested
    code = ag.to_code(nested, form='executed')
    assert code.count('except ag__.OperatorNotAllowedInGraphError:') == 9
    assert ag.to_graph(nested)(2) == nested(2) == 1024
    del sys.modules['_nested_whiles']
