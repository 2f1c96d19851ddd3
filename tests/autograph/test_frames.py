"""Converted code runs in the user's frames: calls add no frame of autograph's, and the frames of
converted functions carry the user's file, lines and names."""
import functools
import sys
import traceback
import types
import warnings

import pytest

import autograph as ag
import autograph.operators as ag__
import runtime as rt
from autograph.operators import call, frames, py_builtins
from autograph.pyct import loader, origin_info


def _callee_frames():
    me = sys._getframe(0)
    return me.f_code, me.f_back.f_code, me.f_back.f_lineno


def _caller():
    return _callee_frames()   # the caller's line


def test_a_converted_call_adds_no_frame_between_caller_and_callee(building_graph):
    callee_code, caller_code, line = ag.to_graph(_caller)()
    assert origin_info.is_generated_code(callee_code)   # the callee ran converted
    assert origin_info.is_generated_code(caller_code)
    assert (caller_code.co_name, caller_code.co_filename) == ('_caller', __file__)
    assert line == _caller.__code__.co_firstlineno + 1


def _count(depth):
    depth.append(None)
    _count(depth)


def _deepest(function):
    depth = []
    try:
        function(depth)
    except RecursionError:
        pass
    return len(depth)


def test_recursion_goes_as_deep_as_python_and_the_limit_is_the_users():
    limit = sys.getrecursionlimit()
    python = _deepest(_count)
    converted = _deepest(ag.to_graph(_count))
    # Python's own RecursionError, at the same depth but for the few frames the operators
    # called at the innermost level need (ag__.ld, the scope's __enter__)
    assert python - 5 <= converted <= python
    assert converted >= 900 * limit / 1000
    assert sys.getrecursionlimit() == limit


def _top(_):
    return sys.getrecursionlimit()


def _limit_at(n):
    return [_limit_at, _top][n == 0](n - 1)   # no `if`: converted calls only


def test_deep_converted_calls_in_their_own_frames_run_under_the_users_limit():
    assert ag.to_graph(_limit_at)(40) == sys.getrecursionlimit()


def _warns(message):
    warnings.warn(message, DeprecationWarning, stacklevel=3)


def _middle(message):
    _warns(message)


def _outer_warning(message):
    _middle(message)   # stacklevel=3 names this line
    return message


def test_warnings_stacklevel_counts_the_converted_callers_frames():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        ag.to_graph(_outer_warning)('converted')
        _outer_warning('original')
    assert [(w.filename, w.lineno) for w in caught] == [
        (__file__, _outer_warning.__code__.co_firstlineno + 1)] * 2


def _parse(text):
    return int(text) + 1


def _parse_all(first, second):
    total = _parse(first)
    total = total + _parse(second)   # the failing call
    return total


def test_a_traceback_of_converted_python_code_shows_the_users_frames_and_source():
    converted = ag.to_graph(_parse_all)
    for function in (_parse_all, converted):
        try:
            function('1', 'x')
        except ValueError:
            text = traceback.format_exc()
            entries = traceback.extract_tb(sys.exc_info()[2])
        assert [(e.filename, e.lineno, e.name, e.line) for e in entries[-2:]] == [
            (__file__, _parse_all.__code__.co_firstlineno + 2, '_parse_all',
             'total = total + _parse(second)   # the failing call'),
            (__file__, _parse.__code__.co_firstlineno + 1, '_parse', 'return int(text) + 1')]
        assert 'autograph generated' not in text and 'tf__' not in text


def _raises():
    raise KeyError('k')


def test_an_error_through_converted_python_code_only_gets_no_note():
    converted = ag.to_graph(_raises)
    try:
        converted()
    except KeyError as e:
        assert not getattr(e, '__notes__', None)   # its traceback is the user's already
        assert traceback.extract_tb(e.__traceback__)[-1].name == '_raises'


class _Shape:
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side

    def __call__(self, k):
        return k * self.area()


def _plain(a, b=0, *, c=1):
    return a + b + c


def test_callee_resolves_what_a_call_from_converted_code_runs(building_graph):
    scope = ag__.FunctionScope('f', ag__.STD)
    assert call.callee(len, scope) is py_builtins.len_           # a builtin's overload
    assert call.callee(print, scope) is print                    # a builtin without one
    method = 'x'.isdigit
    assert call.callee(method, scope) is method                  # a method of a builtin type
    converted = call.callee(_plain, scope)
    assert loader.is_generated(converted) and converted(1, 2, c=3) == 6
    shape = _Shape(3)
    area = call.callee(shape.area, scope)
    assert isinstance(area, types.MethodType) and area.__self__ is shape
    assert loader.is_generated(area.__func__) and area() == 9
    assert call.callee(shape, scope)(2) == 18                    # a callable object
    assert loader.is_generated(call.callee(shape, scope).__func__)
    partial = call.callee(functools.partial(_plain, 1, c=5), scope)
    assert isinstance(partial, functools.partial) and loader.is_generated(partial.func)
    assert partial(2) == 8
    no_recursion = ag__.ConversionOptions(recursive=False)
    assert call.callee(_plain, None, no_recursion) is _plain
    assert call.converted_call(_plain, (1,), {'c': 2}, scope) == 3   # TF's operator stays


def _doubles_each(x):
    return rt.map_fn(lambda v: v * 2, x)


def test_a_runtime_function_taking_user_functions_gets_them_converted():
    wrapper = call.callee(rt.map_fn, None)
    assert wrapper is not rt.map_fn and wrapper.__wrapped__ is rt.map_fn
    assert ag.to_graph(_doubles_each)(rt.constant([1, 2])).numpy().tolist() == [2, 4]


def _uses_options():
    return 'called'


def _asks_options():
    return _uses_options()


def test_conversion_options_are_built_once_not_on_every_call(monkeypatch):
    converted = ag.to_graph(_asks_options)
    assert 'ag__.STD_REQUESTED' in ag.to_code(_asks_options)
    assert 'ConversionOptions(' not in ag.to_code(_asks_options)

    def refuse(*args, **kwargs):
        raise AssertionError('options built on a call')
    monkeypatch.setattr(ag__, 'ConversionOptions', refuse)
    assert converted() == 'called'
    # the scope the callee's slow path was given: a constant, with the constant options
    assert ag__.STD_REQUESTED_SCOPES['_asks_options'].options is ag__.STD_REQUESTED
    assert ag__.STD.recursive and ag__.STD_REQUESTED.user_requested


def _named(x):
    def inner(y):
        return y + 1
    return inner(x), inner


def test_converted_functions_carry_the_users_names():
    converted = ag.to_graph(_named)
    assert (converted.__name__, converted.__qualname__) == ('_named', '_named')
    assert converted.__code__.co_filename == __file__
    value, inner = converted(1)
    assert value == 2 and inner.__qualname__ == '_named.<locals>.inner'
    assert loader.is_generated(inner) and not loader.is_generated(_named)
    # a def of converted code is converted already: called as it is
    assert call.callee(inner, ag__.FunctionScope('f', ag__.STD)) is inner


def _countdown(n):
    while n > 0:
        yield n
        n -= 1


def _sums_countdown(n):
    return sum(_countdown(n))


def test_a_generator_callee_is_called_as_it_is():
    scope = ag__.FunctionScope('f', ag__.STD)
    assert call.callee(_countdown, scope) is _countdown   # no wrapper: no frame of ours
    assert ag.to_graph(_sums_countdown)(4) == 10


def _logs(logger):
    logger.warning('from the user')   # the record's line
    return 1


def test_a_log_record_from_converted_code_names_the_users_function_and_line():
    import logging
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append((record.pathname, record.lineno, record.funcName))
    logger = logging.getLogger('test_frames')
    logger.addHandler(Keep())
    logger.propagate = False
    try:
        _logs(logger)
        ag.to_graph(_logs)(logger)
    finally:
        logger.handlers.clear()
    assert records == [(__file__, _logs.__code__.co_firstlineno + 1, '_logs')] * 2


def _staged_down(x, n):
    if n == 0:
        return x
    if x > 0:   # a tensor `if`: its branch runs under the operator, in a block function
        x = _staged_down(x - 1, n - 1) + 1
    return x


_levels = []


def _staged_forever(x):
    _levels.append(None)
    if x > 0:
        x = _staged_forever(x - 1)
    return x


def test_recursion_through_staged_ifs_has_room_and_counts_against_the_users_limit():
    limit = sys.getrecursionlimit()
    depth = len(traceback.extract_stack())
    sys.setrecursionlimit(depth + 200)   # about 15 frames per level: 100 levels need more
    try:
        result = ag.function(_staged_down)(rt.constant(5), 100)
        assert int(result) == 5
        del _levels[:]
        try:
            ag.function(_staged_forever)(rt.constant(1))
        except RecursionError:
            pass
        else:
            raise AssertionError('endless staged recursion must stop')
        # stopped by the user's limit, counted in staged constructs (not by the frames the
        # tracer makes room for)
        assert 150 < len(_levels) <= depth + 200
        assert sys.getrecursionlimit() == depth + 200
    finally:
        sys.setrecursionlimit(limit)


def _fails(x):
    return x['missing']


def test_a_converted_call_reads_no_scope_and_its_handler_only_runs_on_errors(monkeypatch):
    converted = ag.to_graph(_parse_all)
    assert converted('1', '2') == 5   # a callee's first call: its slow path gets the scope
    scope = ag__.STD_REQUESTED_SCOPES['_parse_all']
    assert converted('3', '4') == 9
    assert ag__.STD_REQUESTED_SCOPES['_parse_all'] is scope   # built once

    def refuse(*args):
        raise AssertionError('a scope looked up or unwound on a call without an error')
    monkeypatch.setattr(ag__, 'unwind', refuse)
    monkeypatch.setattr(ag__, 'STD_REQUESTED_SCOPES', None)   # no `.get` on entry
    assert converted('5', '6') == 13
    monkeypatch.undo()
    try:
        ag.to_graph(_fails)({})
    except KeyError as e:
        assert [entry.name for entry in traceback.extract_tb(e.__traceback__)][-1] == '_fails'


class _Leaf:
    def __init__(self):   # called from C (the class call), at the deepest point
        self.items = {}


_leaf_class = [_Leaf]


def _nests(n):
    if n == 0:
        return _leaf_class[0]()
    return [_nests(n - 1)]


def _deepest_nesting():
    n = 1
    while True:
        try:
            _nests(n + 1)
        except RecursionError:
            return n
        n += 1


def test_a_converted_method_called_from_c_needs_no_more_depth_than_the_original():
    """As `autograph convert` and a module swap install them: the scope's lookup on the
    method's first line runs no Python code, which would count against the limit."""
    class Converted(_Leaf):
        pass
    Converted.__init__ = ag.to_graph(_Leaf.__init__)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(traceback.extract_stack()) + 120)
    try:
        original = _deepest_nesting()
        _leaf_class[0] = Converted
        assert _deepest_nesting() == original
    finally:
        _leaf_class[0] = _Leaf
        sys.setrecursionlimit(limit)


def _warns_in_a_tensor_if(x):
    if x > 0:
        warnings.warn('positive', UserWarning, stacklevel=2)
        y = x + rt.cast(x > 1 and x < 5, rt.int32)     # a staged `and`: a lambda of its own
    else:
        y = x
    return y


def _calls_warns_in_a_tensor_if(x):
    return _warns_in_a_tensor_if(x)   # stacklevel=2 names this line


def _fails_in_a_tensor_if(x):
    if x > 0:
        y = x + _raises()
    else:
        y = x
    return y


def test_staged_functions_are_blocks_of_the_users_function_for_warnings_and_errors():
    # the staged form of a tensor `if` runs in a function of its own
    # (converters/speed/staged_functions.py); its frame is not one of the user's
    assert 'def staged' in ag.to_code(_warns_in_a_tensor_if, form='executed')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        ag.function(_calls_warns_in_a_tensor_if)(rt.constant(2))
    assert [(w.filename, w.lineno) for w in caught] == [
        (__file__, _calls_warns_in_a_tensor_if.__code__.co_firstlineno + 1)]
    with pytest.raises(KeyError) as raised:
        ag.function(_fails_in_a_tensor_if)(rt.constant(2))
    note = [n for n in raised.value.__notes__ if n.startswith(frames.USER_FRAMES_NOTE)][0]
    line = _fails_in_a_tensor_if.__code__.co_firstlineno + 2
    assert f'line {line}, in _fails_in_a_tensor_if' in note
    assert 'in staged' not in note and 'in <lambda>' not in note
