"""The plain forms of converted code (converters/speed/plain_forms.py): what runs on Python
values is written as the original, and tensors still reach the operators."""
import builtins
import gc
import sys
import traceback

import autograph as ag
import runtime as rt
from autograph.operators import call


def _first_negative(values):
    for k, value in enumerate(values):
        if value < 0:
            try:
                return k, value
            finally:
                values.append('finally ran')
    return None


def test_a_return_in_a_plain_form_is_a_real_return():
    code = ag.to_code(_first_negative, form='executed')
    # the loop appends to a list, so the return checks that no tensor loop staged one
    assert ('retval_ = (k, value)\n                        if ag__.STAGED_LISTS[0] is '
            'staged_before:\n                            return retval_\n' in code)
    converted = ag.to_graph(_first_negative)
    values, expected = [3, -1, 2], [3, -1, 2]
    assert converted(values) == _first_negative(expected) == (1, -1)
    assert values == expected == [3, -1, 2, 'finally ran']
    assert converted([1]) is None


class _Words:
    def __init__(self):
        self.calls = 0

    def next_word(self):
        self.calls += 1
        return 'word'


def _methods(text, words, count):
    parts = text.split(' ')
    return parts.index('b'), words.next_word().upper(), text.count(count())


def test_methods_of_plain_values_are_called_as_written_others_once():
    code = ag.to_code(_methods, form='executed')
    # text's type is tested once: the later statement reads the flag the first test stored
    assert "text.split(' ') if (plain_text := (ag__.type_(text) in ag__.PLAIN_TYPES))" in code
    assert 'text.count if plain_text or (not ag__.BUILDING_GRAPHS[0] and' in code
    assert code.count('ag__.type_(text) in ag__.PLAIN_TYPES') == 1
    words, calls = _Words(), []

    def count():
        calls.append(1)
        return 'a'
    assert ag.to_graph(_methods)('a b a', words, count) == (1, 'WORD', 2)
    assert words.calls == 1 and len(calls) == 1      # each receiver and argument once


class _Branches:
    def pick(self, x):
        if x > 0:
            return x
        return -x


def _calls_method(branches, x):
    return branches.pick(x)


def test_a_method_of_a_user_object_is_still_converted():
    graph = ag.function(_calls_method).get_concrete_function(
        _Branches(), rt.TensorSpec([], rt.int32)).graph
    assert any(op.type in ('If', 'StatelessIf') for op in graph.get_operations())
    assert ag.to_graph(_calls_method)(_Branches(), -4) == 4


def _size(x):
    return len(x)


def test_an_overloaded_builtin_by_name_is_the_builtin_on_python_values():
    code = ag.to_code(_size, form='executed')
    assert 'len if len is ag__.builtin_len and ag__.type_(x) in ag__.PLAIN_TYPES' in code
    converted = ag.to_graph(_size)
    assert converted('abc') == 3
    assert converted(rt.constant([1, 2])) == 2               # a tensor: the overload
    original = builtins.len
    builtins.len = hash                                     # patched: runs the patch
    try:
        patched = converted('abc')
    finally:
        builtins.len = original
    assert patched == hash('abc')


def _last_size(chunks, d):
    return len(chunks[-1]) + abs(d - 3)


def _parsed(text, digits, n):
    return int(text, 16) + int(digits[1:3], 10) + len(range(0, 8, 2)) * n


def test_an_overloaded_builtin_with_constant_arguments_is_the_builtin_on_python_values():
    code = ag.to_code(_parsed, form='executed')
    assert 'int if int is ag__.builtin_int and ag__.type_(text) in ag__.PLAIN_TYPES' in code
    assert 'ag__.type_((argument := digits[1:3])) in ag__.PLAIN_TYPES' in code
    converted = ag.to_graph(_parsed)
    assert 'range if range is ag__.builtin_range else' in code
    assert converted('ff', 'x42y', 7) == _parsed('ff', 'x42y', 7) == 255 + 42 + 4 * 7
    assert ag.function(_parsed)('ff', 'x42y', rt.constant(7)).numpy() == 255 + 42 + 4 * 7


def _last_size_of_symbolic(chunks):
    return len(chunks[-1]) * 2


def test_an_overloaded_builtin_of_a_computed_argument_evaluates_it_once():
    code = ag.to_code(_last_size, form='executed')
    assert 'ag__.type_((argument := chunks[-1])) in ag__.PLAIN_TYPES' in code
    converted = ag.to_graph(_last_size)
    assert converted(['ab', 'xyz'], 1) == _last_size(['ab', 'xyz'], 1) == 5

    class Counted(list):
        reads = 0

        def __getitem__(self, index):
            Counted.reads += 1
            return list.__getitem__(self, index)
    assert converted(Counted(['ab', 'c']), 5) == 3 and Counted.reads == 1
    # an error in the argument: the original's exception and its line
    try:
        converted([], 0)
    except IndexError as e:
        assert traceback.extract_tb(e.__traceback__)[-1].line == \
            'return len(chunks[-1]) + abs(d - 3)'
    else:
        raise AssertionError('no IndexError')
    # a tensor argument: the overload (a graph's length of its first dimension)
    assert ag.function(_last_size_of_symbolic)([rt.constant([1, 2, 3])]).numpy() == 6
    original = builtins.len
    builtins.len = hash                                     # patched: runs the patch
    try:
        patched = converted(['ab'], 3)
    finally:
        builtins.len = original
    assert patched == hash('ab')


def _checked(x, message):
    assert x > 0, message
    return x


def test_an_assert_on_python_values_is_pythons_own_and_a_tensor_stages_one():
    code = ag.to_code(_checked, form='executed')
    assert 'assert assert_test, message' in code
    assert 'ag__.assert_stmt(x > 0, lambda: message)' in ag.to_code(_checked)
    converted = ag.to_graph(_checked)
    assert converted(2, 'm') == 2
    for message in ('must be positive', None):
        failures = []
        try:
            converted(-1, message)
        except AssertionError as error:
            last = traceback.extract_tb(error.__traceback__)[-1]
            failures.append((error.args, last.name, last.lineno, last.line))
        # Python's exception (pytest rewrites this module's own asserts: no comparison with
        # the original), raised in the user's function at the user's line
        assert failures == [((message,), '_checked', _checked.__code__.co_firstlineno + 1,
                             'assert x > 0, message')]
    graph = ag.function(_checked).get_concrete_function(
        rt.TensorSpec([], rt.int32), 'm').graph
    assert any(op.type == 'Assert' for op in graph.get_operations())


def test_a_list_a_tensor_loop_staged_is_appended_to_in_the_plain_form():
    def appends(n):
        values = []
        for i in rt.range(n):
            values.append(i)
        values.append(n)
        return rt.stack(values)
    result = ag.function(appends)(rt.constant(3))
    assert result.numpy().tolist() == [0, 1, 2, 3]


def _calls(f, x):
    return f(x)


def test_the_plan_of_a_module_function_goes_with_the_function(
        tmp_path, import_file, building_graph):
    (tmp_path / '_plain_forms_module.py').write_text(
        'def twice(x):\n    if x > 0:\n        return 2 * x\n    return 0\n')
    _plain_forms_module = import_file(tmp_path / '_plain_forms_module.py')
    twice = _plain_forms_module.twice
    assert ag.to_graph(_calls)(twice, 3) == 6
    key = id(twice)
    assert call.PLANS[key].__ag_converted__              # its conversion, by identity
    # redefined in its module (its conversion holds the module's globals, not the function)
    exec('def twice(x):\n    return 0\n', _plain_forms_module.__dict__)
    del twice
    gc.collect()
    assert key not in call.PLANS                         # gone with the function
    del sys.modules['_plain_forms_module']


def _count_letters(text, table):
    index, seen = 0, {}
    while index < len(text):
        char = text[index]
        if char.isalpha():
            seen[char] = seen.get(char, 0) + table.get(char, 1)
        index += 1
    return seen


def test_the_type_test_of_a_name_the_loop_never_rebinds_is_made_before_the_loop():
    code = ag.to_code(_count_letters, form='executed')
    lines = code.splitlines()
    flags = [k for k, line in enumerate(lines) if ' = type__(' in line]
    loop = next(k for k, line in enumerate(lines) if line.strip() == 'while cond:')
    assert [lines[k].strip() for k in flags] == [
        'plain_seen = type__(seen) in plain_types__',
        'plain_table = type__(table) in plain_types__',
        'plain_text = type__(text) in plain_types__']
    assert all(k < loop for k in flags)
    # the operators' constants the loop reads are locals, set before it
    constants = [lines[k].strip() for k in range(flags[0] - 6, flags[0])]
    assert constants == ['type__ = ag__.type_', 'plain_types__ = ag__.PLAIN_TYPES',
                         'building_graphs__ = ag__.BUILDING_GRAPHS',
                         'moduletype__ = ag__.ModuleType', 'methodtype__ = ag__.MethodType',
                         'builtin_len__ = ag__.builtin_len']
    loop_code = '\n'.join(lines[loop:])
    assert 'ag__.type_' not in loop_code.split('def staged')[0]
    assert 'builtin_len__ and plain_text else' in code
    assert 'seen.get(char, 0) if plain_seen or (not building_graphs__[0] and' in code
    # `char` is bound in the loop: tested where it is used
    assert 'char.isalpha() if type__(char) in plain_types__ or' in code
    converted = ag.to_graph(_count_letters)
    assert converted('a1ba', {'b': 5}) == _count_letters('a1ba', {'b': 5}) == {'a': 2, 'b': 5}


def _rebinding(values):
    total, extra = 0, []
    for value in values:
        total += len(extra)
        extra = extra + [value]
    return total


def _maybe_bound(flag, values):
    if flag:
        limit = 2
    for value in values:
        if value > limit:
            return limit.bit_length()
    return None


def _rebound_by_a_nested_function(values):
    data = []

    def replace():
        nonlocal data
        data = rt.constant([1.0, 2.0])
    for value in values:
        if value:
            replace()
        total = len(data)
    return total


def test_a_name_the_loop_may_rebind_or_that_may_be_unbound_is_tested_where_it_is_used():
    assert 'plain_extra' not in ag.to_code(_rebinding, form='executed')
    assert ag.to_graph(_rebinding)([1, 2, 3]) == _rebinding([1, 2, 3]) == 3
    # bound on one path only: the test before the loop would raise before the loop runs
    assert 'plain_limit' not in ag.to_code(_maybe_bound, form='executed')
    converted = ag.to_graph(_maybe_bound)
    assert converted(True, [1, 3]) == _maybe_bound(True, [1, 3]) == 2
    assert converted(False, []) is None
    try:
        converted(False, [5])
    except UnboundLocalError as e:
        assert 'limit' in str(e)
    else:
        raise AssertionError('no UnboundLocalError')
    # a nested function may rebind it to a tensor: `len` then takes the tensor path
    assert 'plain_data' not in ag.to_code(_rebound_by_a_nested_function, form='executed')
    assert ag.to_graph(_rebound_by_a_nested_function)([0, 1]) == 2


def test_a_hoisted_type_test_still_sends_a_tensor_to_the_operators():
    def count(text, table):
        total = rt.constant(0)
        for k in range(3):        # a Python loop: its plain form runs, on a tensor `text`
            total += table.get('a', 1) * len(text)
        return total
    assert 'builtin_len__ and plain_text else' in ag.to_code(count, form='executed')
    count = ag.function(count)
    assert count('abcd', {'a': 2}).numpy() == 24
    assert count(rt.constant([1, 2]), {}).numpy() == 6


def _shared_test(text, other):
    if text.isdigit():
        return text.zfill(4)
    return text.upper() + other.lower()


def _rebound_after(text):
    head = text.strip()
    text = text.split(',')
    return head, text.count('a')


def _behind_a_condition(flag, text):
    first = flag and text.isdigit()
    return first, text.upper()


def _rebound_by_an_earlier_function(text):
    def replace():
        nonlocal text
        text = rt.constant([1, 2, 3])
    head = text.strip()
    replace()
    return head, len(text)


def test_a_type_test_is_shared_by_the_code_after_it_until_the_name_may_change():
    code = ag.to_code(_shared_test, form='executed')
    assert code.count('ag__.type_(text) in ag__.PLAIN_TYPES') == 1 and 'plain_text :=' in code
    assert 'text.zfill(4) if plain_text or' in code and 'text.upper() if plain_text or' in code
    # tested once, where it is used
    assert code.count('ag__.type_(other) in ag__.PLAIN_TYPES') == 1
    converted = ag.to_graph(_shared_test)
    assert converted('12', 'X') == _shared_test('12', 'X') == '0012'
    assert converted('ab', 'X') == _shared_test('ab', 'X') == 'ABx'
    # rebound: the assignment's value (run before the binding) reads the flag, the test
    # after the binding is made again
    code = ag.to_code(_rebound_after, form='executed')
    assert "text.split(',') if plain_text or" in code
    assert code.count('ag__.type_(text) in ag__.PLAIN_TYPES') == 2
    assert ag.to_graph(_rebound_after)(' a,b ') == _rebound_after(' a,b ') == ('a,b', 0)
    # a test behind `and` may not run: not the one stored; the later sure one is the first
    code = ag.to_code(_behind_a_condition, form='executed')
    assert 'plain_text' not in code
    assert ag.to_graph(_behind_a_condition)(False, 'a') == (False, 'A')
    # a nested function may rebind it (even one defined before): no flag; len sees the tensor
    assert 'plain_text' not in ag.to_code(_rebound_by_an_earlier_function, form='executed')
    assert ag.to_graph(_rebound_by_an_earlier_function)(' ab ') == ('ab', 3)


def test_a_shared_type_test_still_sends_a_tensor_to_the_operators():
    def scale(x, factor):
        y = x.__mul__(factor)
        return y, x.__add__(factor)
    code = ag.to_code(scale, form='executed')
    assert 'plain_x :=' in code and code.count('ag__.type_(x) in ag__.PLAIN_TYPES') == 1
    scale = ag.function(scale)
    y, z = scale(rt.constant([1.0, 2.0]), 2.0)
    assert list(y.numpy()) == [2.0, 4.0] and list(z.numpy()) == [3.0, 4.0]


def _rebound_by_a_nested_generator(text):
    def replace():
        nonlocal text
        text = rt.constant([1, 2, 3])
        yield 1

    def outer():
        def inner():
            nonlocal text
            text = rt.constant([1, 2])
        inner()
    head = text.strip()
    list(replace())
    size = len(text)
    outer()
    return head, size, len(text)


def test_a_nested_generator_or_a_function_two_levels_in_that_rebinds_a_name_stops_sharing():
    assert 'plain_text' not in ag.to_code(_rebound_by_a_nested_generator, form='executed')
    assert ag.to_graph(_rebound_by_a_nested_generator)(' ab ') == ('ab', 3, 2)




def _rebound_by_a_staged_if(t, value):
    first = value.__abs__()              # value's type test, shared by the code after it
    if t > 0:                            # a tensor: the staged form binds value
        value = t * 2
    else:
        value = -t
    return first, value.__abs__()        # tested again: value may be a tensor now


def test_a_name_a_staged_form_rebinds_is_tested_again():
    code = ag.to_code(_rebound_by_a_staged_if, form='executed')
    assert code.count('ag__.type_(value) in ag__.PLAIN_TYPES') == 2
    assert ag.to_graph(_rebound_by_a_staged_if)(1, -3) == (3, 2)
    first, second = ag.function(_rebound_by_a_staged_if)(rt.constant(-2), -3)
    assert int(first.numpy()) == 3 and int(second.numpy()) == 2


class _Truth:
    """A value that counts the tests of its truth."""
    tests = 0

    def __init__(self, value):
        self.value = value

    def __bool__(self):
        _Truth.tests += 1
        return self.value


def _chains(a, b, c):
    if a and b:
        return 1
    elif a or c:
        return 2
    return 3


def test_an_and_or_if_test_tests_each_operands_truth_once_as_python_does():
    code = ag.to_code(_chains, form='executed')
    assert 'if left else False' in code and 'True if left_1 else' in code
    converted = ag.to_graph(_chains)
    for values in [(x, y, z) for x in (0, 1, None, '', 'a') for y in ([], [0], 2)
                   for z in (0, 3)]:
        assert converted(*values) == _chains(*values), values
    for flags in [(x, y, z) for x in (False, True) for y in (False, True) for z in (False, True)]:
        _Truth.tests = 0
        expected = _chains(*[_Truth(f) for f in flags])
        tests = _Truth.tests
        _Truth.tests = 0
        assert converted(*[_Truth(f) for f in flags]) == expected
        assert _Truth.tests == tests, flags
    # a tensor operand: the staged form
    assert ag.function(_chains)(rt.constant(True), rt.constant(False), True).numpy() == 2


def _count_while(flags, limit):
    k = 0
    while flags[k] and k < limit:
        k += 1
    return k


def test_an_and_or_while_test_tests_each_operands_truth_once_as_python_does():
    converted = ag.to_graph(_count_while)
    for values, limit in [((True, True, False), 5), ((True, True, True), 1), ((False,), 0)]:
        _Truth.tests = 0
        expected = _count_while([_Truth(v) for v in values], limit)
        tests = _Truth.tests
        _Truth.tests = 0
        assert converted([_Truth(v) for v in values], limit) == expected
        assert _Truth.tests == tests, values
