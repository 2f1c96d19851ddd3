"""`ag.to_code` shows the readable staged form: TensorFlow's shape, pinned by the golden files
in golden/ (one per function of readable_programs.py). After a deliberate change of the
readable form, write a golden file again from the command line:

    python3 -m autograph convert tests/autograph/compiler/readable_programs.py \
        --function sum_until --output tests/autograph/compiler/golden/sum_until.py

The readable form also runs: exec'd with the `ag__` operators it gives what the code that
runs gives, eagerly and in a graph."""
import ast
import os
import subprocess
import sys

import numpy as np
import pytest
import readable_programs as programs

import autograph as ag
import runtime as rt
from autograph import operators

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
PROGRAMS = os.path.join(HERE, 'readable_programs.py')
# what the readable form may read from `ag__`: the staged operators and their constants
# (docs/protocol.md); none of the executed form's fast paths (plans, type tests, ...)
STAGED_PROTOCOL = frozenset({
    'if_stmt', 'for_stmt', 'while_stmt', 'if_exp', 'and_', 'or_', 'not_', 'compare_chain',
    'converted_call', 'ld', 'ldu', 'Undefined', 'new_scope', 'STD', 'STD_REQUESTED',
    'UNDEFINED_RETURN', 'UNDEFINED_RETURN_ON_EVERY_PATH', 'STAGED_LISTS', 'list_append',
    'assert_stmt', 'check_list_mutation', 'python_only'})
EVERY_PROGRAM = programs.GOLDEN + (programs.clipped_sum, programs.evens, programs.scaled)


def _golden(function):
    with open(os.path.join(HERE, 'golden', function.__name__ + '.py'), encoding='utf-8') as f:
        return f.read()


@pytest.mark.parametrize('function', programs.GOLDEN, ids=lambda f: f.__name__)
def test_to_code_prints_the_golden_readable_form(function):
    assert ag.to_code(function) == _golden(function)


def test_the_guide_shows_what_to_code_prints():
    with open(os.path.join(ROOT, 'docs', 'guide.md'), encoding='utf-8') as f:
        guide = f.read()
    assert '```python\n' + _golden(programs.simple_relu) + '```' in guide


def test_the_command_line_prints_the_same_readable_form():
    result = subprocess.run(
        [sys.executable, '-m', 'autograph', 'convert', PROGRAMS]
        + [arg for f in programs.GOLDEN for arg in ('--function', f.__name__)],
        env=dict(os.environ, PYTHONPATH=ROOT), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == '\n'.join(_golden(f) for f in programs.GOLDEN)


@pytest.mark.parametrize('function', EVERY_PROGRAM, ids=lambda f: f.__name__)
def test_the_readable_form_reads_only_the_staged_protocol_in_short_lines(function):
    code = ag.to_code(function)
    assert max(len(line) for line in code.splitlines()) < 100
    tree = ast.parse(code)
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == 'ag__'}
    assert read <= STAGED_PROTOCOL, read - STAGED_PROTOCOL
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.NamedExpr)]
    # the one `try` left is TensorFlow's around a `return` in a block function
    assert all(ast.unparse(node.body[0]) == 'do_return = True'
               for node in ast.walk(tree) if isinstance(node, ast.Try))


def test_the_golden_loops_are_about_as_long_as_tensorflows():
    """TensorFlow prints `simple_relu` in 31 lines; the executed form takes 46 (two forms)."""
    lines = {f.__name__: len(ag.to_code(f).splitlines()) for f in programs.GOLDEN}
    assert lines['simple_relu'] <= 32 and lines['my_relu'] == 3
    assert lines['sum_until'] <= 40 and lines['collatz_steps'] <= 36
    executed = len(ag.to_code(programs.collatz_steps, form='executed').splitlines())
    assert executed > 2 * lines['collatz_steps']


def _readable_function(function):
    """The readable form of `function`, exec'd in its module with the `ag__` operators."""
    namespace = dict(vars(sys.modules[function.__module__]), ag__=operators)
    exec(compile(ag.to_code(function), f'<readable {function.__name__}>', 'exec'), namespace)
    return namespace['tf__' + function.__name__]


def _value(result):
    if isinstance(result, (list, tuple)):
        return [_value(r) for r in result]
    return None if result is None else np.asarray(getattr(result, 'numpy', lambda: result)())


ARGUMENTS = [
    (programs.simple_relu, (rt.constant(3),)),
    (programs.simple_relu, (rt.constant(-2),)),
    (programs.my_relu, (rt.constant([-1.5, 2.0]),)),
    (programs.power, (rt.constant(np.arange(100).reshape(10, 10) % 3, rt.int32),
                      rt.constant(3))),
    (programs.train, (rt.constant(4),)),
    (programs.get_MSE, (rt.constant([1.0, 2.0]), rt.constant([0.5, 4.0]))),
    (programs.sum_until, (rt.constant(10), rt.constant(12))),
    (programs.sum_until, (8, 100)),
    (programs.collatz_steps, (rt.constant(27),)),
    (programs.collatz_steps, (6,)),
    (programs.first_above, (rt.constant([1, 5, 9]), rt.constant(4))),
    (programs.first_above, ([1, 2], 4)),
    (programs.clipped_sum, (rt.constant([-2.0, 0.5, 3.0, 7.0]), rt.constant(0.0),
                            rt.constant(5.0))),
    (programs.evens, (rt.constant(9),)),
    (programs.evens, (9,)),
    (programs.scaled, (rt.constant([1.0, 2.0]), 3.0)),
]


@pytest.mark.parametrize('function, args', ARGUMENTS,
                         ids=[f'{f.__name__}-{i}' for i, (f, _) in enumerate(ARGUMENTS)])
def test_the_readable_form_computes_what_the_executed_form_computes(function, args, capsys):
    readable = _readable_function(function)
    executed = ag.to_graph(function)
    np.testing.assert_equal(_value(readable(*args)), _value(executed(*args)))
    # in a graph: the staged operators build the same graph ops
    in_graph = ag.function(readable, autograph=False)
    np.testing.assert_equal(_value(in_graph(*args)), _value(ag.function(function)(*args)))


def test_to_code_refuses_an_unknown_form():
    with pytest.raises(ValueError, match="form must be one of staged, executed, got 'plain'"):
        ag.to_code(programs.simple_relu, form='plain')
