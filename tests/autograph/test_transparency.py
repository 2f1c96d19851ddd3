"""Converted code is the same program as the original on plain Python values:
one test per pattern that used to change the meaning of a converted function."""
import functools
import importlib.util
import time

import pytest

import autograph as ag
import runtime as rt

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


class _GlobalsAndLambdas:
    read = lambda self: self.__hidden  # noqa: E731

    def __init__(self):
        self.__hidden = 3

    def sets_global(self):
        global __module_private
        __module_private = 5
        return __module_private


def test_private_names_in_lambdas_and_global_statements():
    value = _GlobalsAndLambdas()
    assert ag.to_graph(_GlobalsAndLambdas.read)(value) == 3
    assert ag.to_graph(_GlobalsAndLambdas.sets_global)(value) == 5
    assert globals()['_GlobalsAndLambdas__module_private'] == 5


def test_private_names_are_mangled_as_in_the_class_body():
    counter = Counter()
    assert ag.to_graph(Counter.bump)(counter, 2) == 2
    assert ag.to_graph(counter.bump)(3) == 5
    assert ag.to_graph(Counter.calls_private_method)(counter) == ('helper', True, '__count')
    assert ag.to_graph(Counter.deletes)(counter) is False
    assert ag.to_graph(_Underscored__.set_and_get)(_Underscored__()) == (7, 7)


def test_the_generated_code_spells_the_mangled_names():
    code = ag.to_code(Counter.bump)
    assert 'self._Counter__count' in code and 'nonlocal _Counter__total' in code
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


def test_a_callee_without_source_runs_unconverted_with_a_note_at_verbosity_1(
        capsys, building_graph):
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


def test_a_global_that_shadows_a_builtin_is_the_global(monkeypatch):
    monkeypatch.setitem(globals(), 'abs', lambda v: ('shadowed', v))

    def uses_abs(v):
        return abs(v)
    assert ag.to_graph(uses_abs)(-2) == uses_abs(-2) == ('shadowed', -2)


def test_builtins_bound_by_default_arguments_and_patched_builtins(monkeypatch):
    import builtins
    original = builtins.len
    monkeypatch.setattr(builtins, 'len', lambda x: 42 if type(x) is _Bag else original(x))
    bag = _Bag([1, 2])
    assert ag.to_graph(_size_bound_early)(bag) == _size_bound_early(bag) == 2
    assert ag.to_graph(_size)(bag) == _size(bag) == 42


# -- lambdas anywhere in a statement ---------------------------------------------------------


def _tenfold(t):
    return t * 10


def test_a_lambda_in_a_compound_statement_header_is_found_and_converted():
    seen = []
    for y in (1, ag.to_graph(lambda t: _tenfold(t))(2)):
        seen.append(y)
    with open(__file__) as first, ag.to_graph(lambda: open(__file__))() as second:
        assert first.readline() == second.readline()
    assert seen == [1, 20]
    assert 'tf__lambda' in ag.to_code(lambda t: _tenfold(t))


def test_lambdas_on_continuation_lines_after_a_nested_def_and_in_defaults_are_found():
    def add(x, y):
        return x + y
    results = (
        ag.to_graph(lambda x, y: x * y)(6, 7),
        ag.to_graph(add)(1, 2),
    )

    def scaled(x, scale=lambda v: v * 3):
        return scale(x)
    assert results == (42, 3)
    assert ag.to_graph(scaled)(5) == 15
    assert ag.to_graph(scaled.__defaults__[0])(2) == 6
    if True:
        if True:
            deep = [ag.to_graph(lambda t: -t)(4),
                    ag.to_graph(
                        lambda t: t + 1)(4)]
    assert deep == [-4, 5]


_LAYOUTS = '''\
def deco(f):
    return f


@deco
@deco
def decorated(x):
    if x > 1:
        return x + 1
    return x
# a comment at column 0, then blank lines


def split_signature(x,
y=2):
    return x * y


class Holder:
    def method(self, x):
        text = """
text at column 0
        and indented text"""
        return text + str(x)

    async def later(self):
        return 1
'''


def test_functions_are_read_from_their_file_whatever_their_layout(tmp_path):
    path = tmp_path / 'layouts.py'
    path.write_text(_LAYOUTS)
    spec = importlib.util.spec_from_file_location('layouts', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert ag.to_graph(module.decorated)(3) == 4
    assert ag.to_graph(module.split_signature)(3) == 6
    # the text of a multi-line string is the file's (the source is not dedented)
    assert ag.to_graph(module.Holder().method)(5) == module.Holder().method(5) == (
        '\ntext at column 0\n        and indented text5')
    assert 'def tf__decorated(x):' in ag.to_code(module.decorated)


# -- the CLI ---------------------------------------------------------------------------------

_CLI_SOURCE = '''\
class P:
    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, value):
        self._x = value
        self.__y = value


def indent(text, prefix, predicate=None):
    if predicate is None:
        def predicate(line):
            return line.strip()

    def prefixed_lines():
        for line in text.splitlines(True):
            yield (prefix + line if predicate(line) else line)
    return ''.join(prefixed_lines())


def generator():
    # a form feed \\f in a comment
    x = 1
    yield x


def ｆｕｌｌ(ｘ):
    return ｘ
'''


def test_the_cli_converts_every_function_of_a_name_and_nested_generators_stay(tmp_path,
                                                                           capsys):
    from autograph.cli import convert_file
    path = tmp_path / 'module.py'
    path.write_text(_CLI_SOURCE, encoding='utf-8')
    source = convert_file(str(path), None)
    assert source.count('def tf__x(self') == 2 and 'def tf__x(self, value)' in source
    assert 'self._P__y = ' in source   # mangled with the method's class
    assert 'def tf__indent' in source and 'yield (prefix + line' in source
    note = capsys.readouterr().err
    assert "skipped 'generator'" in note and f'{path}:26:' in note and 'yield x' in note
    assert 'indent' not in note
    assert 'def tf__full' in convert_file(str(path), ['ｆｕｌｌ'])
    namespace = {}
    exec(compile(source, str(path), 'exec'), namespace)   # every output compiles


def test_a_nested_generator_runs_as_written_in_a_converted_function():
    def indent(text, prefix):
        def lines():
            for line in text.splitlines(True):
                yield prefix + line
        return ''.join(lines())
    assert ag.to_graph(indent)('a\nb\n', '> ') == '> a\n> b\n'
    assert 'def tf__indent' in ag.to_code(indent)


# -- names -----------------------------------------------------------------------------------


def _renamed(x):
    return x + 1


_renamed.__name__ = 'other_name'
_renamed.__qualname__ = 'Somewhere.other_name'


def ｆｕｌｌｗｉｄｔｈ(ｘ):
    return ｘ * 2


def test_reassigned_names_and_compatibility_characters():
    assert ag.to_graph(_renamed)(1) == 2
    assert ag.to_graph(fullwidth)(3) == 6


# -- output that compiles --------------------------------------------------------------------


def _raises_first(a):
    raise ValueError('first')
    for i in range(a):
        q = i
    return q


def test_code_after_a_raise_compiles_and_the_raise_happens():
    with pytest.raises(ValueError, match='first'):
        ag.to_graph(_raises_first)(3)


# -- frames ----------------------------------------------------------------------------------


def _depth(n):
    if n == 0:
        return 0
    return 1 + _depth(n - 1)


def _walk(node):
    total = 1
    for child in node:
        total += _walk(child)
    return total


def _deepest(f):
    low, high = 1, 3000
    while low < high:
        middle = (low + high + 1) // 2
        try:
            f(middle)
            low = middle
        except RecursionError:
            high = middle - 1
    return low


def _nested(n):
    x = []
    for _ in range(n):
        x = [x]
    return x


def _parse_value(text, pos):
    if text[pos] == '[':
        return _parse_array(text, pos + 1)
    return pos + 1, text[pos]


def _parse_array(text, pos):
    items = []
    while True:
        if text[pos] == ']':
            return pos + 1, items
        for _ in range(1):
            if text[pos] != ',':
                pos, item = _parse_value(text, pos)
                items.append(item)
            else:
                pos += 1


def test_recursion_through_loops_and_branches_goes_as_deep_as_unconverted():
    converted = ag.to_graph(_parse_value)

    def nesting(f):
        return lambda n: f('[' * n + ']' * n, 0)
    python_depth = _deepest(nesting(_parse_value))
    assert converted('[[a,b],[c]]', 0) == _parse_value('[[a,b],[c]]', 0)
    assert _deepest(nesting(converted)) >= 0.9 * python_depth


def test_recursion_goes_as_deep_as_unconverted_and_the_limit_is_restored():
    import sys
    limit = sys.getrecursionlimit()
    assert _deepest(ag.to_graph(_depth)) >= 0.9 * _deepest(_depth)
    converted_walk = ag.to_graph(_walk)
    assert _deepest(lambda n: converted_walk(_nested(n))) >= 0.9 * _deepest(
        lambda n: _walk(_nested(n)))
    with pytest.raises(RecursionError):
        ag.to_graph(_depth)(100 * limit)
    assert sys.getrecursionlimit() == limit


def _deprecated(flag):
    import warnings
    if flag:
        warnings.warn('old api', DeprecationWarning, stacklevel=2)
    else:
        warnings.warn('here', stacklevel=1)


def _uses_deprecated(flag):
    _deprecated(flag)   # the caller's line
    return flag


def test_warnings_stacklevel_names_the_users_frames():
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        _uses_deprecated(True)
        ag.to_graph(_uses_deprecated)(True)
        _uses_deprecated(False)
        ag.to_graph(_uses_deprecated)(False)
    places = [(w.filename, w.lineno, w.category) for w in caught]
    caller_line = _uses_deprecated.__code__.co_firstlineno + 1
    own_line = _deprecated.__code__.co_firstlineno + 5
    assert places == [(__file__, caller_line, DeprecationWarning)] * 2 + [
        (__file__, own_line, UserWarning)] * 2


def _fails_deep(x):
    if x > 0:
        raise KeyError(x)
    return x


def _calls_failing(x):
    return _fails_deep(x) + 1


def test_tracebacks_leave_out_autographs_own_frames():
    import os
    import traceback

    import autograph
    library = os.path.dirname(autograph.__file__)
    with pytest.raises(KeyError) as info:
        ag.to_graph(_calls_failing)(1)
    files = [frame.filename for frame in traceback.extract_tb(info.value.__traceback__)]
    assert not [f for f in files if f.startswith(library)], files
    entries = [(frame.filename, frame.lineno, frame.name)
               for frame in traceback.extract_tb(info.value.__traceback__)]
    # the frames of converted code are the user's: file, line and name (an `if` run in its
    # functional form adds its block function, `if_body`, at the line of the `raise`)
    users = [entry for entry in entries if entry[2] != 'if_body']
    assert users[-2:] == [
        (__file__, _calls_failing.__code__.co_firstlineno + 1, '_calls_failing'),
        (__file__, users[-1][1], '_fails_deep')]
    assert entries[-1][:2] == (__file__, _fails_deep.__code__.co_firstlineno + 2)


def _fails_in_branch(x):
    if x > 0:
        raise KeyError(1)
    return x


def _calls_branch(x):
    return _fails_in_branch(x) + 1


def test_an_error_leaving_converted_code_notes_the_users_frames():
    # on Python values the `if` runs as Python: the traceback is the user's, with no note
    with pytest.raises(KeyError) as info:
        ag.to_graph(_calls_failing)(1)
    assert not getattr(info.value, '__notes__', None)
    # a tensor `if` runs its branch in a block function, under an operator: the note
    with pytest.raises(KeyError) as info:
        ag.function(_calls_branch)(rt.constant(1))
    assert str(info.value) == '1' and info.value.args == (1,)
    note, = info.value.__notes__
    lines = note.splitlines()
    call_line = _calls_branch.__code__.co_firstlineno + 1
    raise_line = _fails_in_branch.__code__.co_firstlineno + 2
    assert lines[0].startswith("In converted code, the user's frames")
    assert lines[1:] == [
        f'  File "{__file__}", line {call_line}, in _calls_branch',
        '    return _fails_in_branch(x) + 1',
        f'  File "{__file__}", line {raise_line}, in _fails_in_branch',
        '    raise KeyError(1)']
