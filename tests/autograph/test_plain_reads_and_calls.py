"""What the plain Python form of converted code leaves out where Python's own control flow and
types make it unneeded: the unbound-read guard after a jump Python takes for real, and the
`callee` call of a method that is a plain value's own."""
import re

import pytest

import autograph as ag
import autograph.operators as operators
import runtime as rt


def _sum_until_negative(xs, flag):
    total = 0
    for x in xs:
        if flag:
            if x < 0:
                break
            j = x
        else:
            j = -x
        total += j      # bound: the path that leaves `j` unbound has broken out of the loop
    return total


def _plain_form(code):
    """The lines of `code` outside its staged forms (the functions `staged...` and theirs)."""
    lines, staged_indent = [], None
    for line in code.splitlines():
        indent = len(line) - len(line.lstrip())
        if staged_indent is not None and (indent > staged_indent or not line.strip()):
            continue
        staged_indent = indent if line.lstrip().startswith('def staged') else None
        if staged_indent is None:
            lines.append(line)
    return '\n'.join(lines)


def test_a_read_after_a_break_python_takes_needs_no_unbound_guard():
    code = ag.to_code(_sum_until_negative, form='executed')
    plain = _plain_form(code)
    assert 'total += j if type__(j) in plain_types__ else ag__.ld(j)' in plain
    assert 'ldu' not in plain
    # the staged form runs both branches of a tensor `if`: there the read stays guarded
    assert "total += ag__.ld(ag__.ldu(lambda: j, 'j'))" in code
    converted = ag.to_graph(_sum_until_negative)
    for args in (([1, 2, -1, 5], True), ([1, 2, -1, 5], False), ([-1], True), ([], True)):
        assert converted(*args) == _sum_until_negative(*args)


def _maybe_unbound_after_continue(xs):
    total = 0
    for x in xs:
        if x > 0:
            if x > 5:
                continue
            j = x
        total += j      # unbound on the first item when it is not positive
    return total


def test_a_read_python_may_find_unbound_still_raises_naming_the_variable():
    converted = ag.to_graph(_maybe_unbound_after_continue)
    assert converted([1, 9, 2]) == _maybe_unbound_after_continue([1, 9, 2])
    # after `continue`, the next item reads the `j` the previous one bound, as in Python
    assert converted([3, 9, -1]) == _maybe_unbound_after_continue([3, 9, -1])
    with pytest.raises(UnboundLocalError, match="'j'"):
        _maybe_unbound_after_continue([-1])
    with pytest.raises(UnboundLocalError, match="'j'"):
        converted([-1])


def test_a_break_in_a_tensor_loop_still_stages():
    @ag.function
    def first_run_sum(xs):
        total = 0
        for x in xs:
            if x < 0:
                break
            total += x
        return total
    assert int(first_run_sum(rt.constant([1, 2, -1, 5]))) == 3


_WORD = re.compile(r'\w+')


class _Scanner:
    def __init__(self, text):
        self.text = text

    def advance(self, i, j):
        return max(i, j) + 1

    def scan(self):
        text, i, words = self.text, 0, []
        startswith = text.startswith
        while i < len(text):
            if startswith(' ', i):
                i = self.advance(i, i)
                continue
            match = _WORD.match(text, i)
            words.append(match.group())
            i = self.advance(i, match.end() - 1)
        return words


def test_methods_of_plain_values_and_bound_methods_run_without_callee(monkeypatch):
    converted = ag.to_graph(_Scanner.scan)
    scanner = _Scanner('ab cd  e')
    assert converted(scanner) == scanner.scan() == ['ab', 'cd', 'e']   # plans made
    calls = []
    original = operators.callee

    def counting(f, *args, **kwargs):
        calls.append(f)
        return original(f, *args, **kwargs)
    monkeypatch.setattr(operators, 'callee', counting)
    assert converted(scanner) == ['ab', 'cd', 'e']
    # a compiled pattern's method read from a global, a string's method kept in a local and
    # the object's own method: each called without asking `callee`
    assert calls == []


def test_no_callable_callee_treats_specially_is_a_plain_values_builtin_method():
    # what lets the plain form call such a method as it is: `callee` would return it
    from autograph.operators import higher_order, py_builtins
    special = list(py_builtins.OVERLOADS) + list(higher_order.CALLABLE_ARGS)
    assert special
    for f in special:
        if type(f) in operators.BUILTIN_METHOD_TYPES:
            assert type(f.__self__) not in operators.PLAIN_TYPES, f


def _tokens(text):
    startswith, i, kinds = text.startswith, 0, []
    while i < len(text):
        if startswith('<', i):
            kinds.append('tag')
        elif startswith('&', i):
            kinds.append('ref')
        else:
            kinds.append(_WORD.match(text, i) is not None)
        i += 1
    return kinds


def test_a_local_builtin_method_is_tested_once_until_rebound_and_no_scope_is_read():
    code = ag.to_code(_tokens, form='executed')
    plain = _plain_form(code)
    # the first test stores its flag; the `elif` reads it
    assert plain.count('type__(startswith) in builtin_method_types__') == 1
    assert 'startswith if method_startswith else' in plain
    # a compiled pattern read from a global: its method as written
    assert '_WORD.match(text, i) if type__(_WORD) in plain_types__ else' in plain
    # the function's scope is looked up only where a slow path needs it
    assert 'fscope' not in code
    converted = ag.to_graph(_tokens)
    for text in ('<a &b c', '', '&&', ' x<'):
        assert converted(text) == _tokens(text)


class _Finder:
    def find(self, text):
        return 'found ' + text


def _rebinds_method(text, other):
    find = text.find
    first = find('b')
    find = other.find
    return first, find('b')


def test_a_rebound_local_method_is_tested_again():
    code = ag.to_code(_rebinds_method, form='executed')
    assert code.count('ag__.type_(find) in ag__.BUILTIN_METHOD_TYPES') == 2
    converted = ag.to_graph(_rebinds_method)
    assert converted('abc', _Finder()) == _rebinds_method('abc', _Finder()) == (1, 'found b')
    assert converted('abc', 'xb') == (1, 1)


class _Counter:
    def __init__(self):
        self.calls = 0

    def bump(self, by):
        self.calls += by
        return self.calls


def _bumps(counter, n):
    for _ in range(n):
        counter.bump(1)
    return counter.bump(0)


def test_a_method_of_an_object_runs_as_written_while_no_graph_is_built():
    code = ag.to_code(_bumps, form='executed')
    assert ('counter.bump(1) if plain_counter or (not building_graphs__[0] and '
            'type__(counter) is not moduletype__) else') in code
    assert ag.to_graph(_bumps)(_Counter(), 3) == 3
    # while a graph is built, the method goes through its plan (converted when it is user
    # code: test_plain_forms.py, a method of a user object is still converted)
    counter = _Counter()
    assert int(ag.function(_bumps)(counter, rt.constant(2))) == 1 == counter.calls


def _warns_through_a_local_module():
    import warnings as local_warnings
    local_warnings.warn('careful', UserWarning, stacklevel=1)


def test_a_function_of_a_module_in_a_local_keeps_its_overload_while_no_graph_is_built():
    # `warnings.warn` is overloaded (its place counted in the user's frames): the module's
    # method goes through its plan, and the warning names the user's line
    with pytest.warns(UserWarning) as record:
        ag.to_graph(_warns_through_a_local_module)()
    assert (record[0].filename, record[0].lineno) == (
        __file__, _warns_through_a_local_module.__code__.co_firstlineno + 2)
