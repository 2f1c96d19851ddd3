"""Code written for TensorFlow's AutoGraph converts and gives Python's answers.

Each test is a small user program: run as plain Python, converted with Python values, and traced
with tensors through `ag.function`, or the documented error when Python's answer cannot be
staged.
"""
import pytest

import autograph as ag
import runtime as rt


def traced(f, *args):
    """`ag.function(f)` called with int32 tensors; numpy results."""
    result = ag.function(f)(*[rt.constant(a) for a in args])
    return _numpy(result)


def _numpy(value):
    if isinstance(value, (tuple, list)):
        return type(value)(_numpy(v) for v in value)
    if isinstance(value, dict):
        return {k: _numpy(v) for k, v in value.items()}
    return value.numpy() if isinstance(value, rt.Tensor) else value


# Pattern 10: Python print is a trace-time side effect

def test_python_print_runs_once_per_trace_not_every_call(capsys):
    @ag.function
    def scale(x):
        print('Tracing with', x)
        return x * 2

    for value in (1, 2, 3):
        assert scale(rt.constant(value)).numpy() == 2 * value
    out = capsys.readouterr().out
    assert out.count('Tracing with') == 1
    scale(rt.constant([1, 2]))           # a new shape: a new trace, a second print
    assert capsys.readouterr().out.count('Tracing with') == 1


def test_print_inside_a_tensor_loop_prints_while_tracing_only(capsys):
    @ag.function
    def count(n):
        i = 0
        while i < n:
            print('body traced')
            i += 1
        return i

    assert count(rt.constant(3)).numpy() == 3
    assert count(rt.constant(5)).numpy() == 5
    assert capsys.readouterr().out.count('body traced') >= 1
    count(rt.constant(7))
    assert capsys.readouterr().out == ''


def test_rt_print_prints_every_call(capsys):
    @ag.function
    def show(x):
        rt.print('value', x)
        return x

    show(rt.constant(1))
    show(rt.constant(2))
    assert capsys.readouterr().err == 'value 1\nvalue 2\n'


# Pattern 9: chained comparisons

def in_band(low, x, high):
    if low < x <= high:
        return 1
    return 0


def all_equal(x, y, z):
    return x == y == z


@pytest.mark.parametrize('args', [(0, 1, 2), (0, 2, 2), (0, 3, 2), (1, 1, 2), (2, 1, 0)])
def test_chained_comparison_on_tensors_converts(args):
    assert traced(in_band, *args) == in_band(*args)
    assert ag.to_graph(in_band)(*args) == in_band(*args)


def test_chained_equality_on_tensors():
    assert traced(all_equal, 2, 2, 2) == True  # noqa: E712
    assert traced(all_equal, 2, 2, 3) == False  # noqa: E712
    assert ag.to_graph(all_equal)(2, 2, 2) is True


def test_chained_comparison_evaluates_each_operand_once_and_short_circuits():
    calls = []

    def value(v):
        calls.append(v)
        return v

    def chain():
        return value(3) < value(1) < value(2)

    assert ag.to_graph(chain)() is False
    assert calls == [3, 1]


# Pattern 15/16: nested control flow inside tensor loops traces in one graph

def halve_until_small(a, b):
    y = b
    steps = 0
    while steps < 2 and a > b:
        if b - a != 6:
            y -= 2
            if y < a:
                break
        return 1
    return 3


def first_hit(a, b):
    x = a
    y = b
    n = 0
    while n < 2 and x - x == a:
        n += 1
        if y < y % 3:
            x = y % 2
            if x < 0:
                break
            if x - y != -3:
                return y - y
    return y


@pytest.mark.parametrize('args', [(3, 2), (-2, 5), (0, 0), (1, -4)])
def test_return_after_a_break_in_a_nested_tensor_if(args):
    assert traced(halve_until_small, *args) == halve_until_small(*args)


@pytest.mark.parametrize('args', [(3, 2), (0, 0), (0, -1), (0, 4)])
def test_return_inside_nested_ifs_inside_a_tensor_loop(args):
    assert traced(first_hit, *args) == first_hit(*args)


# Patterns 1-2: keys and attributes as control-flow state; `del` in branches

def sign_entry(a):
    x = {'a': a}
    if x['a'] > 0:
        x['b'] = 1
    else:
        x['b'] = -1
    return x['b']


def entry_in_one_branch(a):
    x = {'a': a}
    if x['a'] > 0:
        x['b'] = 1
    return x['b']


def last_double(n):
    x = {'n': n}
    i = 0
    while i < n:
        x['last'] = i * 2
        i += 1
    return x['last']


class Box:
    pass


def attribute_set_in_loop(n):
    box = Box()
    i = 0
    while i < n:
        box.total = i + 10
        i += 1
    return box.total


def deleted_in_both_branches(a):
    y = a
    if a > 0:
        del y
    else:
        del y
    return y


@pytest.mark.parametrize('a', [3, -3])
def test_dict_key_first_set_in_both_branches_of_a_tensor_if(a):
    assert traced(sign_entry, a) == sign_entry(a)


def test_dict_key_set_in_one_branch_is_the_usual_error():
    with pytest.raises(ValueError, match=r"'x\['b'\]' must also be initialized in the else branch"):
        traced(entry_in_one_branch, 3)


def test_dict_key_and_attribute_first_set_in_a_tensor_loop():
    assert traced(last_double, 4) == last_double(4) == 6
    assert traced(attribute_set_in_loop, 3) == attribute_set_in_loop(3) == 12


def test_del_in_both_branches_of_a_tensor_if():
    with pytest.raises(UnboundLocalError):
        deleted_in_both_branches(1)
    with pytest.raises(UnboundLocalError, match="'y' is used before it is assigned"):
        ag.to_graph(deleted_in_both_branches)(1)
    with pytest.raises(ValueError, match="'y' must also be initialized in the if branch"):
        traced(deleted_in_both_branches, 1)


# Pattern 16: tuples returned from inside a tensor loop

def first_above(a, b):
    i = 0
    while i < a:
        i += 1
        if i > b:
            return i, a
        if i == 7:
            return -i, 1
    return 0, 0


def pair_state(a, b):
    t = (a, 1)
    n = 0
    while n < 3 and a > b:
        n += 1
        if t[0] > 2:
            t = (t[0] - 1, t[1] + 1)
        else:
            return (t[1], 2)
    return t


@pytest.mark.parametrize('args', [(5, 2), (9, 8), (2, 5), (0, 0)])
def test_tuple_returned_from_inside_a_tensor_loop(args):
    assert tuple(traced(first_above, *args)) == first_above(*args)


@pytest.mark.parametrize('args', [(3, 2), (6, 1), (1, 2)])
def test_tuple_state_and_tuple_return_in_a_tensor_loop(args):
    assert tuple(traced(pair_state, *args)) == pair_state(*args)


# Patterns 12, 14, 20: errors name the user's line and say what to do

def value_in_return(x):
    y = x * 2
    return float(y.numpy())


def test_numpy_inside_ag_function_names_the_return_line_and_does_not_say_wrap_it():
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError) as info:
        ag.function(value_in_return)(rt.constant(1.0))
    message = str(info.value)
    line = value_in_return.__code__.co_firstlineno + 2
    assert f'{__file__}:{line}:' in message
    assert 'rt.print' in message and 'wrap the function' not in message


def test_function_without_source_says_so_when_it_needs_conversion():
    namespace = {}
    exec('def g(x):\n    if x > 0:\n        return x\n    return -x\n', namespace)
    with pytest.warns(UserWarning, match='source code is not available'):
        with pytest.raises(rt.errors.OperatorNotAllowedInGraphError,
                           match='(?s)Python `bool`.*did not convert this function.*exec'):
            ag.function(namespace['g'])(rt.constant(3))


# Pattern 17: zero-trip loops and variables a loop may not set

def set_but_unused_after(n):
    total = 0
    for i in rt.range(n):
        step = i * 2
        total += step
    return total


def set_after_a_break(a, b):
    for i in range(b % 3):
        if a > 0:
            break
        z = a - 2
    return z


def set_in_one_branch_inside_loop(a, b):
    for i in range(a % 3):
        if b > a:
            w = a + b
    return w


def test_variable_set_in_a_zero_trip_loop_but_unused_after_is_fine():
    assert traced(set_but_unused_after, 0) == 0
    assert traced(set_but_unused_after, 3) == 6


@pytest.mark.parametrize('f, args', [(set_after_a_break, (3, 2)), (set_after_a_break, (3, 0)),
                                     (set_in_one_branch_inside_loop, (1, 0))])
def test_variable_a_tensor_loop_never_set_raises_where_python_does(f, args):
    with pytest.raises(UnboundLocalError):
        f(*args)
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match="loop must iterate at least once to initialize '[zw]'"):
        traced(f, *args)


@pytest.mark.parametrize('f, args', [(set_after_a_break, (-1, 2)),
                                     (set_in_one_branch_inside_loop, (1, 5))])
def test_variable_a_tensor_loop_sets_reads_as_in_python(f, args):
    assert traced(f, *args) == f(*args)


# Pattern 7: lambdas are found by their code's position; a changed file is refused

def test_nested_lambdas_on_one_line_convert_the_one_asked_for():
    countdown = ag.function(lambda x: rt.while_loop(lambda x: x > 0, lambda x: x - 1, [x])[0])
    assert countdown(rt.constant(3)).numpy() == 0


def test_two_lambdas_in_one_statement():
    inc = lambda y: y + 1; double = lambda y: y * 2  # noqa: E702, E731
    assert ag.function(inc)(rt.constant(3)).numpy() == 4
    assert ag.function(double)(rt.constant(3)).numpy() == 6


def test_lambda_default_reading_a_local():
    def outer(x):
        g = lambda y=x: y + 1  # noqa: E731
        return g()

    assert ag.function(outer)(rt.constant(3)).numpy() == 4


def test_function_whose_file_changed_since_import_is_refused(tmp_path, import_file):
    import linecache

    from autograph.pyct import errors

    module_file = tmp_path / 'changing_module.py'
    module_file.write_text('def scale(x):\n    return x * 2\n')
    module = import_file(module_file)
    module_file.write_text('def other(x, y):\n    return x - y\n')
    linecache.checkcache(str(module_file))
    with pytest.raises(errors.ConversionError, match="not the definition of 'scale'"):
        ag.to_graph(module.scale)


# Pattern 19: converted code always compiles

def annotated_in_branch(x):
    if x > 0:
        q: int = x
    else:
        q = -x
    r: int  # noqa: F842
    return q


def unreachable_loop_after_raise(x):
    raise ValueError('not supported yet')
    while x > 0:
        x -= 1
    return x


def class_body_with_an_if(x):
    class Settings:
        if True:
            scale = 2
        else:
            scale = 3
        offset: int = 1
    return x * Settings.scale + Settings.offset


def test_annotated_assignment_in_a_tensor_branch():
    assert traced(annotated_in_branch, -3) == 3
    assert traced(annotated_in_branch, 4) == 4


def test_unreachable_loop_after_raise_converts_and_raises():
    with pytest.raises(ValueError, match='not supported yet'):
        traced(unreachable_loop_after_raise, 3)


def test_class_body_with_an_if_inside_a_converted_function():
    assert traced(class_body_with_an_if, 3) == 7


# Pattern 4: a loop variable that changes structure is named

def growing_list(n):
    s = []
    i = 0
    while i < n:
        s = s + [i]
        i += 1
    return s


def test_loop_variable_changing_structure_is_a_TypeError_naming_it():
    with pytest.raises(TypeError, match="'s' does not have the same nested structure"):
        traced(growing_list, 3)


# Pattern 3: loop shapes are checked against their invariants

def widening(x):
    v = rt.zeros([1])
    while rt.constant(True):
        v = rt.zeros([rt.shape(x)[0]])
    return v


def narrower_invariant(n):
    v = rt.zeros([n])
    i = 0
    while i < n:
        ag.experimental.set_loop_options(shape_invariants=[(v, rt.TensorShape([1]))])
        v = v + 1.0
        i += 1
    return v


def test_loop_variable_that_widens_fails_at_trace_time():
    with pytest.raises(ValueError, match=r"'v' enters the loop with shape \(1,\), but has shape "
                                         r"\(None,\)"):
        ag.function(widening, input_signature=[rt.TensorSpec([None], rt.int32)])(
            rt.constant([1, 2]))


def test_entry_shape_wider_than_an_explicit_invariant_is_refused():
    with pytest.raises(ValueError, match="'v' enters the loop with shape"):
        ag.function(narrower_invariant, input_signature=[rt.TensorSpec([], rt.int32)])(
            rt.constant(1))


# Pattern 8: a variable first set in a tensor loop and read in a later iteration

def running_previous(n):
    i = 0
    total = 0
    while i < n:
        if i > 0:
            total += previous  # noqa: F821
        previous = i * 10  # noqa: F841
        i += 1
    return total


def read_before_first_set(n):
    i = 0
    while i < n:
        i += step  # noqa: F821
        step = 1  # noqa: F841
    return i


def test_variable_read_in_a_later_iteration_gives_pythons_answer():
    assert traced(running_previous, 4) == running_previous(4) == 30
    assert traced(running_previous, 0) == running_previous(0) == 0


def test_variable_read_before_any_iteration_set_it_is_unbound_as_in_python():
    with pytest.raises(UnboundLocalError):
        read_before_first_set(2)
    with pytest.raises(UnboundLocalError, match="'step' is used before it is assigned"):
        traced(read_before_first_set, 2)


# Pattern 11: `try`/`finally` and `with` around tensor control flow

def clipped_with_log(x, log):
    try:
        if x > 0:
            y = x
        else:
            y = -x
    finally:
        log.append('finally')
    return y


def returns_inside_try_finally(x, log):
    try:
        if x > 2:
            return x * 10
        x = x + 1
    finally:
        log.append('done')
    return x


def test_try_finally_around_a_tensor_if_traces_body_then_finally():
    log = []
    f = ag.function(lambda x: clipped_with_log(x, log))
    assert f(rt.constant(-3)).numpy() == 3 == clipped_with_log(-3, [])
    assert f(rt.constant(4)).numpy() == 4
    assert log == ['finally']            # traced once: the `finally` ran at trace time


def test_return_inside_try_finally_in_a_tensor_if():
    for a in (1, 5):
        assert traced(lambda x: returns_inside_try_finally(x, []), a) == \
            returns_inside_try_finally(a, [])


def test_with_around_a_tensor_loop_enters_and_exits_at_trace_time():
    import contextlib
    events = []

    @contextlib.contextmanager
    def section(name):
        events.append(('enter', name))
        yield name
        events.append(('exit', name))

    def total(n):
        s = 0
        with section('sum') as label:
            for i in range(n):
                s += i
        events.append(label)
        return s

    assert traced(total, 4) == total(4) == 6
    assert events == [('enter', 'sum'), ('exit', 'sum'), 'sum'] * 2


# Pattern 5: a tensor of unknown rank first created inside a tensor loop

def last_scaled(v, n):
    for i in rt.range(n):
        last = v * rt.cast(i, rt.float32)
    return last


def test_unknown_rank_tensor_first_set_in_a_loop_is_inferred_from_one_iteration():
    f = ag.function(last_scaled, input_signature=[rt.TensorSpec(None, rt.float32),
                                                  rt.TensorSpec([], rt.int32)])
    result = f(rt.constant([[1.0, 2.0]]), rt.constant(3))
    assert result.shape == (1, 2) and result.numpy().tolist() == [[2.0, 4.0]]
    assert f(rt.constant(5.0), rt.constant(2)).numpy() == 5.0
    with pytest.raises(rt.errors.InvalidArgumentError, match="initialize 'last'"):
        f(rt.constant([1.0]), rt.constant(0))


def test_unknown_length_tensor_first_set_in_a_loop_gets_that_shape_as_invariant():
    f = ag.function(last_scaled, input_signature=[rt.TensorSpec([None], rt.float32),
                                                  rt.TensorSpec([], rt.int32)])
    assert f(rt.constant([1.0, 2.0, 3.0]), rt.constant(2)).numpy().tolist() == [1.0, 2.0, 3.0]


# Pattern 6: tuple and namedtuple loop variables next to a shape invariant

def growing_with_pair(n):
    import collections
    Pair = collections.namedtuple('Pair', 'count product')
    s = rt.zeros([1])
    p = Pair(rt.constant(0), rt.constant(1))
    t = (rt.constant(0), rt.constant(1.5))
    for _ in rt.range(n):
        ag.set_loop_options(shape_invariants=[(s, rt.TensorShape([None]))])
        s = rt.concat([s, [1.0]], 0)
        p = Pair(p.count + 1, p.product * 2)
        t = (t[0] + 1, t[1])
    return s, tuple(p), t


def test_tuple_and_namedtuple_beside_a_shape_invariant():
    s, p, t = traced(growing_with_pair, 3)
    assert s.tolist() == [0.0, 1.0, 1.0, 1.0]
    assert p == (3, 8) and t == (3, 1.5)


# Pattern 18: early returns in a tensor `if` when every path returns

def early_return_in_elif(a, b):
    if b >= 0:
        pass
    elif a == 0:
        return 1
    return 2


def classify_pair(a, b):
    if a > b:
        if a > 2 * b:
            return a, 2
        a = a - b
    elif a == b:
        return b, 0
    total = a + b
    return total, 1


def returns_in_if_inside_loop(n):
    i = 0
    while i < n:
        if i * i > n:
            return i
        i += 1
    return -1


def falls_off_the_end(a):
    if a > 0:
        return 1


def test_early_return_in_an_elif_with_code_after_the_if():
    for a, b in [(0, 1), (0, -1), (1, -1)]:
        assert traced(early_return_in_elif, a, b) == early_return_in_elif(a, b)


def test_nested_early_returns_of_tuples():
    for a, b in [(5, 1), (3, 2), (2, 2), (1, 4), (-3, -1)]:
        assert traced(classify_pair, a, b) == classify_pair(a, b)


def test_early_return_in_an_if_inside_a_tensor_loop():
    for n in (0, 3, 10):
        assert traced(returns_in_if_inside_loop, n) == returns_in_if_inside_loop(n)


def first_square_above(n):
    for i in range(n):
        if i * i > n:
            return i


def float_or_int_early_return(a, b):
    if a > b:
        return rt.cast(a, rt.float32) * 0.5, 1
    elif a == b:
        return rt.cast(b, rt.float32), 0
    return rt.cast(a + b, rt.float32), 2


def test_early_returns_start_from_one_shared_object_that_tracing_never_changes():
    from autograph.operators import variables
    shared = variables.UNDEFINED_RETURN_ON_EVERY_PATH
    # a plain call makes no object for its return value: the start is one shared object
    assert 'retval_ = ag__.UNDEFINED_RETURN_ON_EVERY_PATH\n' in ag.to_code(classify_pair)
    assert 'retval_ = ag__.UNDEFINED_RETURN\n' in ag.to_code(first_square_above)
    for a, b in [(5, 1), (2, 2), (1, 4)]:
        assert traced(classify_pair, a, b) == classify_pair(a, b)
    # the return type each staged `if` learns is kept on the call's own object, so a function
    # returning other types, traced next, learns its own
    assert shared.return_type is None and variables.UNDEFINED_RETURN.return_type is None
    for a, b in [(5, 1), (2, 2), (1, 4)]:
        value, which = traced(float_or_int_early_return, a, b)
        assert which == [1, 0, 2][[(5, 1), (2, 2), (1, 4)].index((a, b))]
        assert value == {1: a * 0.5, 0: float(b), 2: float(a + b)}[which]
    assert shared.return_type is None
    assert traced(returns_in_if_inside_loop, 10) == returns_in_if_inside_loop(10)
    assert first_square_above(10) == ag.to_graph(first_square_above)(10) == 4
    assert shared.return_type is None and variables.UNDEFINED_RETURN.return_type is None


def test_a_path_without_return_is_still_refused():
    assert falls_off_the_end(-1) is None
    with pytest.raises(ValueError, match='needs a `return` in the else branch'):
        traced(falls_off_the_end, 1)


def test_early_returns_of_different_dtypes_name_the_return_value():
    def mixed(a):
        if a > 0:
            return 1.5
        return a

    with pytest.raises(TypeError, match='retval_'):
        traced(mixed, 1)


# Pattern 13: `list.append` inside a tensor loop stages the list as a TensorArray

def squares(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return rt.stack(out), len(out), out[-1]


def even_rows(n):
    parts = [rt.zeros([1, 2])]
    i = 0
    while i < n:
        if i % 2 == 0:
            parts.append(rt.ones([1, 2]) * rt.cast(i, rt.float32))
        i += 1
    return rt.concat(parts, 0), rt.concat(parts, axis=1), rt.stack(parts, axis=1)


def nested_appends(n):
    seen = []
    for i in range(n):
        for j in range(i):
            seen.append(i * 10 + j)
    return rt.stack(seen)


def appends_then_pops(n):
    window = [0]
    for i in range(n):
        window.append(i)
        window.pop(0)
    return window


def test_list_appended_in_a_tensor_loop_is_read_with_stack_len_and_indexing():
    stacked, length, last = traced(squares, 4)
    assert stacked.tolist() == [0, 1, 4, 9] and length == 4 and last == 9
    python = ag.to_graph(squares)(4)
    assert python[0].numpy().tolist() == [0, 1, 4, 9] and python[1:] == (4, 9)


def test_list_with_elements_appended_under_a_tensor_if_is_read_with_concat():
    by_rows, by_columns, stacked = (v.tolist() for v in traced(even_rows, 5))
    assert by_rows == [[0, 0], [0, 0], [2, 2], [4, 4]]
    assert by_columns == [[0, 0, 0, 0, 2, 2, 4, 4]]
    assert stacked == [[[0, 0], [0, 0], [2, 2], [4, 4]]]
    assert [v.numpy().tolist() for v in ag.to_graph(even_rows)(5)] == [
        by_rows, by_columns, stacked]


def test_list_appended_in_nested_tensor_loops():
    assert traced(nested_appends, 4).tolist() == [10, 20, 21, 30, 31, 32]


def test_other_list_mutation_in_a_tensor_loop_names_the_list_and_line():
    assert appends_then_pops(3) == [2]
    with pytest.raises(TypeError, match=r"list 'window' is changed by `window.pop\(0\)` "
                                        r"\(line \d+\) inside a loop on a tensor.*TensorArray"):
        traced(appends_then_pops, 3)


def collect(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    return out, len(out)


def test_a_staged_list_returned_as_it_is_comes_back_stacked():
    values, length = traced(collect, 3)
    assert values.tolist() == [0, 2, 4] and length == 3
    assert traced(collect, 0)[0].tolist() == []
    result = ag.to_graph(collect)(3)
    assert result == ([0, 2, 4], 3)                 # Python values: the list itself


def fails_in_branch(x):
    y = x
    try:
        if x > 0:
            y = y + 1
            y = y + not_defined_anywhere  # noqa: F821
    finally:
        y = y * 2
    return y


def test_finally_after_an_error_while_tracing_sees_the_functions_values():
    with pytest.raises(NameError, match='not_defined_anywhere'):
        fails_in_branch(1)
    with pytest.raises(NameError, match='not_defined_anywhere'):
        traced(fails_in_branch, 1)


def set_in_a_loop_in_one_branch(a, b):
    if a > 2:
        for _ in range(b % 3):
            w = b
    else:
        w = -a
    return w + 1


def test_variable_a_tensor_loop_may_not_set_in_one_branch_of_a_tensor_if():
    assert traced(set_in_a_loop_in_one_branch, 5, 1) == set_in_a_loop_in_one_branch(5, 1) == 2
    assert traced(set_in_a_loop_in_one_branch, 0, 3) == set_in_a_loop_in_one_branch(0, 3) == 1
    with pytest.raises(UnboundLocalError):
        set_in_a_loop_in_one_branch(5, 3)
    with pytest.raises(rt.errors.InvalidArgumentError, match="'w'"):
        traced(set_in_a_loop_in_one_branch, 5, 3)


def appends_after_a_tensor_continue(a, b):
    kept = []
    for i in range(4):           # a Python loop: its `continue` becomes a tensor `if`
        if a + i < b:
            continue
        kept.append(a + i)
    return len(kept)


def test_list_appended_under_a_tensor_if_in_a_python_loop_is_staged():
    for a, b in [(0, 2), (3, 0), (1, 9)]:
        assert traced(appends_after_a_tensor_continue, a, b) == \
            appends_after_a_tensor_continue(a, b)
