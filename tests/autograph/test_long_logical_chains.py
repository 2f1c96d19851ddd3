"""Long `and`/`or` chains are written flat (converters/logical_expressions.py): each operand
once in each form, so that the converted code grows linearly with the chain, and both forms
keep Python's values, evaluation order and short circuit, and the staged operators."""
import linecache

import gast
import pytest

import autograph as ag
import runtime as rt
from autograph.pyct import parser


def _chain_function(op, n, name):
    """A function `name(xs)` returning `xs[0] op xs[1] op ... op xs[n - 1]` (a real file in
    linecache, so that it converts)."""
    source = f'def {name}(xs):\n    return ' + f' {op} '.join(f'xs[{i}]' for i in range(n)) + '\n'
    filename = f'<long chain {name}>'
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, 'exec'), namespace)
    return namespace[name]


def _calls(code, attribute):
    return sum(1 for node in gast.walk(parser.parse(code))
               if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute)
               and node.func.attr == attribute)


def _subscripts(code):
    return sum(1 for node in gast.walk(parser.parse(code)) if isinstance(node, gast.Subscript))


@pytest.mark.parametrize('op, operator, operands', [('and', 'and_', 1000), ('or', 'or_', 300)])
def test_a_long_chain_converts_to_code_linear_in_its_length(op, operator, operands):
    function = _chain_function(op, operands, f'long_{op}')
    executed = ag.to_code(function, form='executed')
    # each operand in the plain chain, and each after the first in the one staged call
    assert _subscripts(executed) == 2 * operands - 1
    assert _calls(executed, operator + 'from') == 1
    assert _calls(executed, 'StagedOperand') == operands - 1
    assert _calls(executed, 'is_staged') == operands - 1
    # the readable form: TensorFlow's one call over a lambda per operand
    readable = ag.to_code(function)
    assert _subscripts(readable) == operands and _calls(readable, operator) == 1


@pytest.mark.parametrize('op', ['and', 'or'])
def test_a_long_chain_gives_pythons_value_and_evaluates_as_python(op):
    function = _chain_function(op, 7, f'seven_{op}')
    converted = ag.to_graph(function)
    values = [1, 'a', [2], 0, 3, '', 5] if op == 'and' else [0, '', [], None, 4, 0, 5]
    for prefix in range(len(values) + 1):
        xs = values[prefix:] + values[:prefix]
        log, logged = [], []
        assert converted(_Logged(xs, log)) == function(_Logged(xs, logged))
        assert log == logged     # the same operands read, in the same order


class _Logged:
    def __init__(self, values, log):
        self.values, self.log = values, log

    def __getitem__(self, index):
        self.log.append(index)
        return self.values[index]


def test_a_symbolic_operand_stages_the_rest_of_the_chain():
    function = ag.function(_chain_function('and', 6, 'six_and'))
    # Python values first: the first tensor and every operand after it become graph ops
    xs = [1, True, rt.constant(True), rt.constant(False), True, rt.constant(True)]
    graph = function.get_concrete_function(
        [1, True] + [rt.TensorSpec([], rt.bool)] * 2 + [True, rt.TensorSpec([], rt.bool)]).graph
    assert [op.type for op in graph.get_operations()].count('LogicalAnd') == 3
    assert bool(function(xs)) is False
    xs[3] = rt.constant(True)
    assert bool(function(xs)) is True
    # a false Python value before any tensor stops the chain, as in Python
    assert function([1, 0, rt.constant(True), 1, 1, 1]) == 0
    either = ag.function(_chain_function('or', 5, 'five_or'))
    assert bool(either([0, '', rt.constant(False), rt.constant(True), False])) is True
    assert either([0, 7, rt.constant(False), 0, 0]) == 7
