"""The plain forms of converted code (converters/plain_forms.py, issue 18): what runs on Python
values is written as the original, and tensors still reach the operators."""
import builtins
import gc
import sys

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
    code = ag.to_code(_first_negative)
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
    code = ag.to_code(_methods)
    assert "text.split(' ') if ag__.type_(text) in ag__.PLAIN_TYPES" in code
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
    code = ag.to_code(_size)
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


def test_the_plan_of_a_module_function_goes_with_the_function(tmp_path, monkeypatch):
    (tmp_path / '_plain_forms_module.py').write_text(
        'def twice(x):\n    if x > 0:\n        return 2 * x\n    return 0\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    import _plain_forms_module
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
