"""pyct.parser: functions and source text in, gast trees out."""
import textwrap

import gast
import pytest

from autograph.pyct import errors, parser


def decorated(f):
    return f


@decorated
def two_lines(a, b=1):
    return a + b


def lambdas():
    return (lambda x: x + 1), (lambda x, y: x * y)


def test_parse_and_parse_expression():
    module = parser.parse('x = 1\nif x:\n    pass')
    assert [type(s).__name__ for s in module.body] == ['Assign', 'If']
    assert isinstance(parser.parse_expression('a + b'), gast.BinOp)
    with pytest.raises(SyntaxError):
        parser.parse('x = (')


def test_parse_entity_reads_a_function_without_its_decorators():
    entity = parser.parse_entity(two_lines)
    assert isinstance(entity.node, gast.FunctionDef) and entity.node.name == 'two_lines'
    assert entity.node.decorator_list == []
    assert entity.filename == __file__
    assert entity.first_lineno == two_lines.__code__.co_firstlineno  # the decorator's line
    assert entity.lines[0] == '@decorated'


@pytest.mark.parametrize('index, names', [(0, ['x']), (1, ['x', 'y'])])
def test_parse_entity_finds_each_lambda_on_a_shared_line(index, names):
    entity = parser.parse_entity(lambdas()[index])
    assert isinstance(entity.node, gast.Lambda)
    assert [a.id for a in entity.node.args.args] == names


def test_source_that_is_not_available_is_a_clear_error():
    namespace = {}
    exec(textwrap.dedent('''
        def made_by_exec(x):
            return x
    '''), namespace)
    with pytest.raises(errors.SourceUnavailableError, match="cannot convert 'made_by_exec'"):
        parser.parse_entity(namespace['made_by_exec'])
