"""The Python-value fast paths of converted code: what a call from converted code runs
is decided once per function, and loops over Python containers run as Python loops; the
results are those of the slow path."""
import functools
import os.path
import re

import autograph as ag
import runtime as rt
from autograph import operators as ag__
from autograph.operators import call


def relu(x):
    if x > 0:
        return x
    return 0 * x


def calls_relu_twice(x):
    return relu(x), relu(-x)


def test_a_user_function_keeps_its_conversion_for_later_calls(building_graph):
    converted = ag.to_graph(calls_relu_twice)
    assert converted(3) == (3, 0)
    plan = call.PLANS[id(relu)]
    assert plan is not relu and plan.__ag_converted__     # its converted version runs
    assert '__ag_call_plan__' not in relu.__dict__        # kept by identity, not on relu
    graph = ag.function(calls_relu_twice).get_concrete_function(
        rt.TensorSpec([], rt.int32)).graph
    assert sum(op.type in ('If', 'StatelessIf') for op in graph.get_operations()) == 2


def test_a_plan_copied_by_functools_wraps_is_not_used_for_the_wrapper():
    ag.to_graph(calls_relu_twice)(1)

    @functools.wraps(relu)
    def wrapper(x):
        return 'the wrapper'

    def calls_wrapped(x):
        return wrapper(x)
    assert id(wrapper) not in call.PLANS                     # nothing copied from relu
    assert ag.to_graph(calls_wrapped)(1) == 'the wrapper'


def library_calls(path, values):
    parts = os.path.split(path)
    total = sum(values)
    text = 'abc'.upper()
    return parts, total, text, values.index(2)


def test_library_functions_builtins_and_builtin_methods_run_as_they_are():
    values = [1, 2, 3]
    expected = library_calls('/a/b', values)
    converted = ag.to_graph(library_calls)
    assert converted('/a/b', values) == expected
    assert converted('/a/b', values) == expected        # second call: the fast paths
    assert os.path.split.__dict__.get('__ag_call_plan__', (None,))[0] in (None, os.path.split)


class Counter:
    def __init__(self):
        self.calls = 0

    def bump(self, k):
        self.calls += k
        return self.calls


def bumps(counter, n):
    for k in range(n):
        counter.bump(k)
    return counter.calls


def test_methods_are_called_bound_on_every_call():
    first, second = Counter(), Counter()
    converted = ag.to_graph(bumps)
    assert converted(first, 4) == 6 and converted(second, 3) == 3
    assert (first.calls, second.calls) == (6, 3)


@ag.do_not_convert
def unconverted_relu(x):
    if x > 0:
        return x
    return 0 * x


def calls_unconverted(x):
    return unconverted_relu(x)


def test_do_not_convert_still_holds_after_the_first_call():
    converted = ag.to_graph(calls_unconverted)
    assert converted(2) == 2 and converted(2) == 2
    function = ag.function(calls_unconverted)
    try:
        function(rt.constant(2))
    except rt.errors.OperatorNotAllowedInGraphError:
        pass
    else:
        raise AssertionError('a tensor `if` in a do_not_convert function must not be staged')


def test_an_options_object_that_does_not_recurse_calls_as_it_is():
    ag.to_graph(calls_relu_twice)(1)           # relu's plan: its conversion
    no_recursion = type('Options', (), {'recursive': False})()
    with rt.Graph().as_default():
        x = rt.placeholder(rt.int32, [])
        call.converted_call(relu, (x,), None)   # converted: a tensor `if` is staged
        try:
            call.converted_call(relu, (x,), None, None, no_recursion)
        except rt.errors.OperatorNotAllowedInGraphError:
            pass
        else:
            raise AssertionError('recursive=False must call relu as it is')


def loops_over_containers(n):
    seen = []
    for key, value in {'a': n, 'b': n + 1}.items():
        seen.append((key, value))
    for ch in 'xy':
        seen.append(ch)
    for k in range(n):
        if k == 2:
            break
        seen.append(k)
    return seen


def test_loops_over_python_containers_give_pythons_results():
    assert ag.to_graph(loops_over_containers)(4) == loops_over_containers(4)


def test_builtin_overloads_answer_python_values_with_one_type_check(monkeypatch):
    """`len`, `range`, `enumerate`, `zip`, `int`, `float`, `abs` of Python's own values call
    the builtin without asking whether a graph or a tensor is involved; tensors still stage."""
    from autograph.operators import py_builtins

    def no_lookup(*args, **kwargs):
        raise AssertionError('the fast path looked further than the type')
    monkeypatch.setattr(py_builtins, 'is_symbolic', no_lookup)
    monkeypatch.setattr(py_builtins, '_graph_datasets', no_lookup)
    monkeypatch.setattr(py_builtins, '_any_symbolic', no_lookup)
    assert py_builtins.len_('abc') == 3 and py_builtins.len_({1: 2}) == 1
    assert list(py_builtins.range_(2, 5)) == [2, 3, 4]
    assert list(py_builtins.enumerate_(['a'], 1)) == [(1, 'a')]
    assert list(py_builtins.zip_((1, 2), 'ab')) == [(1, 'a'), (2, 'b')]
    assert py_builtins.int_('ff', 16) == 255 and py_builtins.float_('1.5') == 1.5
    assert py_builtins.abs_(-3) == 3
    monkeypatch.undo()

    @ag.function
    def f(x):
        return py_builtins.len_(x), py_builtins.abs_(x), py_builtins.float_(x[0])

    n, a, v = f(rt.constant([-1, 2]))
    assert int(n) == 2 and a.numpy().tolist() == [1, 2] and v.dtype == rt.float32


def test_a_scope_that_does_not_recurse_calls_planned_functions_as_they_are(building_graph):
    ag.to_graph(calls_relu_twice)(1)           # relu's plan: its conversion
    recursing = ag__.FunctionScope('f', ag__.STD)
    not_recursing = ag__.FunctionScope('f', ag__.ConversionOptions(recursive=False))
    assert call.callee(relu, recursing) is not relu
    assert call.callee(relu, not_recursing) is relu


def test_the_converter_knows_which_builtins_have_an_overload():
    import builtins

    from autograph.converters import call_trees
    from autograph.operators import py_builtins
    overloaded = {name for name, value in vars(builtins).items()
                  if callable(value) and value in py_builtins.OVERLOADS}
    assert call_trees.OVERLOADED_BUILTINS == overloaded


def _kinds(values):
    return [isinstance(v, int) for v in values], len(values), max(values)


# how the code that runs reads its function's scope (converters/speed/scope_reads.py)
_SCOPE = 'ag__.STD_REQUESTED_SCOPES.get'


def _max_bound_locally(values, max=min):
    return max(values)


def test_unshadowed_builtins_are_called_directly_others_through_callee(monkeypatch):
    code = ag.to_code(_kinds, form='executed')
    assert 'isinstance(v, int)' in code and 'max(values)' in code
    assert 'ag__.callee(isinstance' not in code and 'ag__.callee(max' not in code
    # an overload: through callee (given the scope, read where a slow path needs it)
    assert f"ag__.callee(len, {_SCOPE}('_kinds')" in code
    # a parameter named like a builtin is the parameter
    assert f'ag__.callee(max, {_SCOPE}(' in ag.to_code(_max_bound_locally, form='executed')
    assert ag.to_graph(_max_bound_locally)([3, 1]) == 1
    # a global that shadows the builtin after conversion is the global, as in Python
    converted = ag.to_graph(_kinds)
    monkeypatch.setitem(globals(), 'max', lambda values: 'shadowed')
    assert converted([1, 'a']) == _kinds([1, 'a']) == ([True, False], 2, 'shadowed')


def _uses_shadowed_max(values):
    return max(values)


def test_a_builtin_the_module_binds_goes_through_callee(monkeypatch):
    monkeypatch.setitem(globals(), 'max', lambda values: 'the global')
    assert f"ag__.callee(max, {_SCOPE}('_uses_shadowed_max')" in ag.to_code(
        _uses_shadowed_max, form='executed')
    assert ag.to_graph(_uses_shadowed_max)([1]) == 'the global'


def test_the_cli_calls_builtins_directly_unless_the_module_binds_them(tmp_path):
    from autograph import cli
    plain = tmp_path / 'plain.py'
    plain.write_text('def f(x):\n    return max(x), sorted(x)\n')
    assert 'return (max(x), sorted(x))' in cli.convert_file(str(plain), None, 'executed')
    shadowing = tmp_path / 'shadowing.py'
    shadowing.write_text('from os.path import *\n\ndef f(x):\n    return max(x)\n')
    assert f"ag__.callee(max, {_SCOPE}('f')" in cli.convert_file(str(shadowing), None, 'executed')
    bound = tmp_path / 'bound.py'
    bound.write_text('if True:\n    def max(x):\n        return 0\n\ndef f(x):\n'
                     '    return max(x), sorted(x)\n')
    source = cli.convert_file(str(bound), None, 'executed')
    assert f"ag__.callee(max, {_SCOPE}('f')" in source and ' sorted(x)' in source


def _sign(x):
    if x < 0:
        return -1
    if x > 0:
        return 1
    return 0


def test_a_return_that_ran_is_returned_without_the_scope(monkeypatch):
    converted = ag.to_graph(_sign)
    assert [converted(v) for v in (-3, 0, 4)] == [-1, 0, 1]

    def refuse(*args):
        raise AssertionError('ret called although a return ran')
    monkeypatch.setattr(ag__.FunctionScope, 'ret', refuse)
    assert [converted(v) for v in (-3, 0, 4)] == [-1, 0, 1]
    monkeypatch.undo()
    graph = ag.function(_sign).get_concrete_function(rt.TensorSpec([], rt.int32)).graph
    assert any(op.type in ('If', 'StatelessIf') for op in graph.get_operations())


# -- eagerly (no graph being built), converted code calls user functions as they are --------

def _code_of_caller():
    import sys
    return sys._getframe(0).f_code


def calls_code_of_caller():
    return _code_of_caller()


def test_eagerly_a_user_function_runs_as_it_is_without_a_conversion(monkeypatch):
    from autograph.compiler import conversion
    converted = ag.to_graph(calls_code_of_caller)          # asked for: converted
    calls = []
    monkeypatch.setattr(conversion, 'convert', lambda f: calls.append(f))
    assert converted() is _code_of_caller.__code__          # the original's own code ran
    assert calls == []                                      # nothing converted
    assert call.EAGER_PLANS[id(_code_of_caller)] is _code_of_caller   # by identity
    assert ag__.plan_of is not None and ag__.plan_of.__self__ is call.EAGER_PLANS


def test_while_a_graph_is_built_calls_read_the_plans_of_conversions():
    with rt.Graph().as_default():
        assert ag__.plan_of.__self__ is call.PLANS
        code = ag.to_graph(calls_code_of_caller)()
        assert code is not _code_of_caller.__code__ and code.co_name == '_code_of_caller'
    assert ag__.plan_of.__self__ is call.EAGER_PLANS


def test_eagerly_a_closure_is_marked_by_its_code_and_a_wraps_copy_is_not():
    def make(k):
        def scaled(x):
            if x > 0:
                return k * x
            return 0
        return scaled
    inner = make(3)

    def calls(x):
        return inner(x)
    assert ag.to_graph(calls)(2) == 6
    assert inner.__dict__['__ag_eager_plan__'] is inner.__code__

    @functools.wraps(inner)
    def wrapper(x):
        return 'the wrapper'
    assert wrapper.__dict__.get('__ag_eager_plan__') is inner.__code__   # copied, not its own

    def calls_wrapper(x):
        return wrapper(x)
    assert ag.to_graph(calls_wrapper)(2) == 'the wrapper'
    assert wrapper.__dict__['__ag_eager_plan__'] is wrapper.__code__


def test_a_thread_running_eagerly_while_another_builds_a_graph_gets_the_same_results():
    import threading
    started, leave = threading.Event(), threading.Event()

    def build():
        with rt.Graph().as_default():
            started.set()
            leave.wait(10)
    thread = threading.Thread(target=build)
    thread.start()
    try:
        started.wait(10)
        assert ag__.plan_of.__self__ is call.PLANS          # some thread builds a graph
        assert ag.to_graph(calls_relu_twice)(5) == (5, 0)   # this one runs eagerly: same
        assert call.callee(relu, None) is relu              # its own callee: as it is
    finally:
        leave.set()
        thread.join()
    assert ag__.plan_of.__self__ is call.EAGER_PLANS


def test_eagerly_a_converted_function_its_module_holds_is_answered_by_plan_of(
        tmp_path, import_file):
    import sys
    (tmp_path / '_eager_module.py').write_text(
        'def depth(n):\n    if n > 0:\n        return depth(n - 1) + 1\n    return 0\n')
    module = import_file(tmp_path / '_eager_module.py')
    converted = module.depth = ag.to_graph(module.depth)   # as `autograph convert` leaves it
    try:
        assert converted(5) == 5
        assert call.EAGER_PLANS[id(converted)] is converted   # the recursion: no Python call
    finally:
        del sys.modules['_eager_module']


def test_eagerly_static_class_and_super_using_methods_are_answered_once_known(
        tmp_path, monkeypatch, import_file):
    # what a class holds as a staticmethod or classmethod, and a method whose `super()` gives
    # it a closure, lives with its module: its first call keeps the plan, later ones read it
    # (the converted standard library's ipaddress took the slow path at every such call)
    import sys
    (tmp_path / '_methods_module.py').write_text(
        'import autograph as ag\n\n'
        'class Base:\n'
        '    @ag.do_not_convert\n'
        '    def describe(self):\n'
        '        return "base"\n\n'
        'class Shape(Base):\n'
        '    @staticmethod\n'
        '    @ag.do_not_convert\n'
        '    def area(w, h):\n'
        '        return w * h\n\n'
        '    @classmethod\n'
        '    @ag.do_not_convert\n'
        '    def unit(cls):\n'
        '        return cls.area(1, 1)\n\n'
        '    @ag.do_not_convert\n'
        '    def describe(self):\n'
        '        return "shape/" + super().describe()\n\n'
        'def run(shape):\n'
        '    return shape.unit(), shape.describe(), Shape.area(2, 3)\n')
    module = import_file(tmp_path / '_methods_module.py')
    try:
        converted = ag.to_graph(module.run)
        assert converted(module.Shape()) == (1, 'shape/base', 6)
        resolved = []
        resolve = call._resolve
        monkeypatch.setattr(call, '_resolve', lambda f, *a: resolved.append(f) or resolve(f, *a))
        assert converted(module.Shape()) == (1, 'shape/base', 6)
        assert resolved == []
    finally:
        del sys.modules['_methods_module']


def bump_all(counter, n):
    total = 0
    for k in range(n):
        total += counter.bump(k)
    return total


def test_eagerly_a_method_known_to_run_as_it_is_is_called_without_callee(monkeypatch):
    # `counter.bump` is a new bound method at each call; while no graph is being built, user
    # code runs as it is, so the plain form calls the bound method itself (no Python call)
    converted = ag.to_graph(bump_all)
    assert converted(Counter(), 5) == bump_all(Counter(), 5)
    calls = []
    original = ag__.callee
    monkeypatch.setattr(ag__, 'callee', lambda *a: calls.append(a) or original(*a))
    assert converted(Counter(), 5) == bump_all(Counter(), 5)
    assert calls == []
    with rt.Graph().as_default():   # while a graph is built: the method's conversion
        assert converted(Counter(), 5) == bump_all(Counter(), 5)
    assert calls and all(type(f) is type(Counter().bump) for f, *_ in calls)


def test_callables_left_as_they_are_are_answered_without_the_slow_path_once_known(monkeypatch):
    # a C object's method taking its defining class (3.11's `re.Pattern.match`), a class of a
    # metaclass, and a do_not_convert closure (not user code): their calls ran `_resolve`
    # every time (the converted configparser's and json's tests made ~90 000 such calls)
    import abc
    import re

    class Shape(abc.ABC):
        pass

    def make():
        @ag.do_not_convert
        def inner(x):
            return x + 1
        return inner
    inner = make()
    match = re.compile('a+').match
    assert call.callee(inner, None)(1) == 2          # the first call decides
    resolved = []
    resolve = call._resolve
    monkeypatch.setattr(call, '_resolve', lambda f, *a: resolved.append(f) or resolve(f, *a))
    assert call.callee(match, None) is match
    assert call.callee(Shape, None) is Shape
    assert call.callee(inner, None) is inner
    assert resolved == []


def test_instances_of_immutable_c_types_are_called_as_they_are_without_the_slow_path(
        monkeypatch):
    # a ufunc, an itemgetter: no plan can be kept for the instance (not by identity), but
    # every instance of such a type is called as it is (they took the slow path at each call:
    # a loop of np.sqrt calls ran ~7x the original's time converted)
    import operator

    import numpy as np
    second = operator.itemgetter(1)
    assert call.callee(np.sqrt, None) is np.sqrt and call.callee(second, None) is second
    resolved = []
    resolve = call._resolve
    monkeypatch.setattr(call, '_resolve', lambda f, *a: resolved.append(f) or resolve(f, *a))
    assert call.callee(np.exp, None) is np.exp                       # another ufunc
    assert call.callee(operator.itemgetter(0), None)((5, 6)) == 5    # another itemgetter
    assert resolved == []

    class Callable:   # a mutable type: a __call__ may come later, so it is not answered so
        pass
    instance = Callable()
    call.callee(instance, None)
    assert Callable not in call._AS_IS_TYPES


_WORD = re.compile(r'\w+')


def _words(text, pattern=_WORD):
    found = []
    position = 0
    while True:
        match = pattern.search(text, position)
        if not match:
            break
        found.append(match.group())
        position = match.end()
    return found


def test_regular_expression_patterns_and_matches_are_plain_values(monkeypatch):
    # their methods are the C types' own, their truth is Python's: a text-processing loop calls
    # them without `callee`, eagerly and while a graph is built
    converted = ag.to_graph(_words)
    calls = []
    original = ag__.callee
    monkeypatch.setattr(ag__, 'callee', lambda *a: calls.append(a) or original(*a))
    assert converted('a bc  d') == ['a', 'bc', 'd']
    with rt.Graph().as_default():
        assert converted('e fg') == ['e', 'fg']
    assert calls == []
