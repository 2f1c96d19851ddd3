"""tools/guides.py: TensorFlow's guides ported and run cell by cell, compared with TF's output."""
import os
import sys

TOOLS = os.path.join(os.path.dirname(__file__), '..', '..', 'tools')
sys.path.insert(0, TOOLS)

import guides  # noqa: E402


def test_port_renames_tensorflow_to_runtime_and_autograph():
    assert guides.port('import tensorflow as tf\n@tf.function\ndef f(x):\n  return tf.abs(x)') \
        == ('import runtime as rt\nimport autograph as ag\n@ag.function\ndef f(x):\n'
            '  return rt.abs(x)')
    assert guides.port('tf.saved_model.save(m, p)') == 'ag.saved_model.save(m, p)'
    assert guides.port('tf.autograph.to_code(f)') == 'ag.to_code(f)'


def test_scope_leaves_out_keras_and_drops_magics():
    assert not guides.in_scope('m = tf.keras.Sequential()')
    assert not guides.in_scope('')
    assert guides.in_scope('x = tf.constant(1)')
    cells = dict(guides.read_guide('intro_to_modules'))
    assert cells['goZwOXp_xyQj'] == 'import tensorflow as tf\nfrom datetime import datetime'


def test_a_cell_shows_prints_and_its_last_value_as_a_notebook():
    namespace = {}
    assert guides.run_cell('x = 2\nprint("hi")\nx * 3', namespace) == ('hi\n6\n', None)
    assert guides.run_cell('x * 3;', namespace) == ('', None)  # a trailing ; hides the value
    output, error = guides.run_cell('1 / 0', namespace)
    assert error == 'ZeroDivisionError' and output.startswith('ZeroDivisionError')


def test_compare_counts_runs_reproducible_and_equal_cells():
    ours = [{'id': 'a', 'in_scope': True, 'output': 'rt.Tensor(1)\n', 'error': None},
            {'id': 'b', 'in_scope': True, 'output': '0.5\n', 'error': None},
            {'id': 'c', 'in_scope': True, 'output': 'E\n', 'error': 'AttributeError'},
            {'id': 'd', 'in_scope': False},
            {'id': 'e', 'in_scope': True, 'output': '', 'error': 'ValueError'}]
    tf_run = [{'id': 'a', 'in_scope': True, 'output': 'tf.Tensor(1)\n', 'error': None},
              {'id': 'b', 'in_scope': True, 'output': '0.1\n', 'error': None},
              {'id': 'c', 'in_scope': True, 'output': 'x\n', 'error': None},
              {'id': 'd', 'in_scope': False},
              {'id': 'e', 'in_scope': True, 'output': '', 'error': 'NameError'}]
    again = [dict(r) for r in tf_run]
    again[1]['output'] = '0.7\n'  # unseeded random numbers: not reproducible
    rows = guides.compare(ours, [tf_run, again])
    assert guides.summary(rows) == {'cells': 5, 'in_scope': 3, 'run': 2, 'reproducible': 2,
                                    'equal': 1}


def test_a_guide_runs_here_and_compares_with_the_cached_tensorflow_outputs(capsys):
    assert guides.main(['intro_to_modules']) == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].split() == ['guide', 'cells', 'in', 'scope', 'run',
                                             'reproducible', 'equal']
    assert table.splitlines()[1].split()[0] == 'intro_to_modules'
