"""Converted code is the same program as the original on plain Python values (issue 18):
one test per pattern that used to change the meaning of a converted function."""
import functools
import time

import pytest

import autograph as ag
from autograph.compiler import conversion

# -- private name mangling -------------------------------------------------------------------


class Counter:
    def __init__(self):
        self.__count = 0

    def bump(self, __by=1):
        self.__count += __by
        __total = self.__count

        def read():
            nonlocal __total
            __total += 0
            return __total
        return read()

    def __helper(self):
        return 'helper'

    def calls_private_method(self):
        return self.__helper(), hasattr(self, '_Counter__count'), '__count'

    def deletes(self):
        del self.__count
        return hasattr(self, '_Counter__count')


class _Underscored__:
    def set_and_get(self):
        self.__value = 7
        return self.__value, self._Underscored____value


def test_private_names_are_mangled_as_in_the_class_body():
    counter = Counter()
    assert ag.to_graph(Counter.bump)(counter, 2) == 2
    assert ag.to_graph(counter.bump)(3) == 5
    assert ag.to_graph(Counter.calls_private_method)(counter) == ('helper', True, '__count')
    assert ag.to_graph(Counter.deletes)(counter) is False
    assert ag.to_graph(_Underscored__.set_and_get)(_Underscored__()) == (7, 7)


def test_the_generated_code_spells_the_mangled_names():
    code = ag.to_code(Counter.bump)
    assert 'self)._Counter__count' in code and 'nonlocal _Counter__total' in code
    # strings are not names
    assert "'__count'" in ag.to_code(Counter.calls_private_method)


def test_functions_outside_classes_keep_private_names():
    def outside(obj):
        return obj.__secret

    class Holder:
        pass
    holder = Holder()
    setattr(holder, '__secret', 1)
    assert ag.to_graph(outside)(holder) == 1


# -- decorators of nested functions ---------------------------------------------------------


def _decorate(f):
    @functools.wraps(f)
    def wrapper(*args, extra=len('ab')) -> int:
        return f(*args) + extra
    return wrapper


def _plus_one(x):
    return x + 1


def test_decorators_and_defaults_of_nested_functions_run_in_the_enclosing_scope():
    wrapped = ag.to_graph(_decorate)(_plus_one)
    assert wrapped(1) == 4
    assert wrapped.__name__ == '_plus_one' and wrapped.__wrapped__ is _plus_one


# -- return values are not walked -----------------------------------------------------------


def _self_containing():
    x = []
    x.append(x)
    return x


def _returns(value):
    return value


def test_a_list_that_contains_itself_is_returned_as_it_is():
    result = ag.to_graph(_self_containing)()
    assert result[0] is result


def test_returning_a_large_structure_costs_nothing():
    big = [[i] for i in range(100_000)]
    converted = ag.to_graph(_returns)
    assert converted(big) is big
    start = time.perf_counter()
    for _ in range(100):
        converted(big)
    per_call = (time.perf_counter() - start) / 100
    assert per_call < 1e-3, per_call   # walking the list took about 100 ms a call


@pytest.fixture(autouse=True)
def _fresh_cache():
    yield
    conversion._cache.clear()


# -- callees that cannot be converted run as they are ----------------------------------------


def _countdown(n):
    while n:
        yield n
        n -= 1


def _collects(n):
    return list(_countdown(n)), sum(_countdown(n))


def test_a_generator_callee_runs_unconverted_and_silently(capsys, recwarn):
    assert ag.to_graph(_collects)(3) == ([3, 2, 1], 6)
    assert capsys.readouterr().err == '' and len(recwarn) == 0


def test_a_callee_without_source_runs_unconverted_with_a_note_at_verbosity_1(capsys):
    namespace = {}
    exec('def triple(x):\n    return 3 * x\n', namespace)
    triple = namespace['triple']

    def calls(x):
        return triple(x)
    assert ag.to_graph(calls)(2) == 6
    assert capsys.readouterr().err == ''
    exec('def quadruple(x):\n    return 4 * x\n', namespace)
    quadruple = namespace['quadruple']

    def calls_again(x):
        return quadruple(x)
    previous = ag.get_verbosity()
    ag.set_verbosity(1)
    try:
        assert ag.to_graph(calls_again)(2) == 8
    finally:
        ag.set_verbosity(previous)
    assert "could not convert 'quadruple' and runs it as it is" in capsys.readouterr().err
    with pytest.raises(ValueError, match='int >= 0'):
        ag.set_verbosity(-1)


# -- builtins are the objects Python would use ----------------------------------------------


class _Bag(list):
    pass


def _size_bound_early(x, len=len):
    return len(x)


def _size(x):
    return len(x)


def test_builtins_bound_by_default_arguments_and_patched_builtins(monkeypatch):
    import builtins
    original = builtins.len
    monkeypatch.setattr(builtins, 'len', lambda x: 42 if type(x) is _Bag else original(x))
    bag = _Bag([1, 2])
    assert ag.to_graph(_size_bound_early)(bag) == _size_bound_early(bag) == 2
    assert ag.to_graph(_size)(bag) == _size(bag) == 42
