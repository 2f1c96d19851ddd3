"""Valid Python the compiler must convert (or refuse by name), never crash on."""
import pytest

import autograph as ag
from autograph.pyct import errors

_cache = None


def lazily_built(flag):
    if not flag:
        return 0
    else:
        global _cache  # a declaration inside a block holds for the whole function
        if _cache is None:
            _cache = 42
        return _cache


def test_a_global_declared_inside_a_block_converts_and_runs():
    source = ag.to_code(lazily_built)
    compile(source, '<converted>', 'exec')
    assert 'nonlocal _cache' not in source
    assert ag.to_graph(lazily_built)(True) == 42 and _cache == 42


def matching(value):
    match value:
        case [x, y]:
            return x + y
        case _:
            return 0


def test_match_statements_are_refused_by_name_and_line():
    line = matching.__code__.co_firstlineno + 1
    with pytest.raises(errors.ConversionError, match=rf'test_conversion_edge_cases.py:{line}: '
                                                     r'AutoGraph does not support `match`'):
        ag.to_code(matching)


def test_to_graph_of_other_callables_calls_through_converted_call():
    import functools

    class Scale:
        def __call__(self, x):
            if x > 0:
                return x * 2
            return 0

    assert ag.to_graph(Scale())(3) == 6
    assert ag.to_graph(functools.partial(max, 4))(7) == 7
    assert ag.to_graph(len)([1, 2]) == 2
    with pytest.raises(TypeError, match='needs a function or another callable'):
        ag.to_graph(3)


def test_each_of_several_lambdas_on_one_line_converts_to_itself():
    import runtime as rt
    if True:  # indented: the columns of the lambdas' code differ from the dedented source's
        branches = [lambda x: x + 1.0, lambda x: x * 10.0, lambda x: -x]

    @ag.function
    def pick(i, x):
        return rt.switch_case(i, [lambda b=b: b(x) for b in branches])

    def first_of(x):
        return [lambda b=b: b(x) for b in branches][1]()  # a lambda of converted code, called

    assert [float(pick(rt.constant(i), rt.constant(2.0))) for i in range(3)] == [3.0, 20.0, -2.0]
    assert float(ag.function(first_of)(rt.constant(2.0))) == 20.0
