"""tools/guides.py: TensorFlow's guides ported and run cell by cell, compared with TF's output.

The guides' own cells live outside the repository; these tests use small guides of their own."""
import json
import os
import sys

from tools import guides


def test_port_renames_tensorflow_to_runtime_and_autograph():
    assert guides.port('import tensorflow as tf\n@tf.function\ndef f(x):\n  return tf.abs(x)') \
        == ('import runtime as rt\nimport autograph as ag\n@ag.function\ndef f(x):\n'
            '  return rt.abs(x)')
    assert guides.port('tf.saved_model.save(m, p)') == 'ag.saved_model.save(m, p)'
    assert guides.port('tf.autograph.to_code(f)') == 'ag.to_code(f)'


def test_tensorflow_names_in_its_output_read_as_the_port_renames_them():
    theirs = ("<class 'tensorflow.python.framework.errors_impl.InvalidArgumentError'> "
              "ag__.converted_call(ag__.ld(tf).print, ...) <tf.Tensor: shape=()> at 0x7f00")
    assert guides.normalize(theirs, False) == (
        "<class 'runtime.core.errors.InvalidArgumentError'> "
        "ag__.converted_call(ag__.ld(rt).print, ...) <rt.Tensor: shape=()>")
    assert guides.normalize('ag__.ld(tf) tf.x', True) == 'ag__.ld(tf) tf.x'  # ours: as printed


def test_scope_leaves_out_keras_and_drops_magics():
    assert not guides.in_scope('m = tf.keras.Sequential()')
    assert not guides.in_scope('')
    assert guides.in_scope('x = tf.constant(1)')
    assert not guides.in_scope('s = tf.sparse.SparseTensor([[0]], [1], [2])')
    assert not guides.in_scope('strategy = tf.distribute.MirroredStrategy()')
    # a dense op whose name says sparse stays in scope
    assert guides.in_scope('tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=p)')


SMALL_GUIDE = {'cells': [
    {'cell_type': 'markdown', 'source': ['# A guide\n'], 'metadata': {'id': 'm1'}},
    {'cell_type': 'code', 'metadata': {'id': 'c1'},
     'source': ['!pip install something\n', 'import tensorflow as tf\n', 'x = tf.constant(3)']},
    {'cell_type': 'code', 'metadata': {'id': 'c2'}, 'source': 'print(int(x) * 2)\nx + 1\n'},
    {'cell_type': 'code', 'metadata': {'id': 'c3'}, 'source': 'y = tf.keras.layers.Dense(2)'},
]}


def _notebooks(tmp_path):
    notebooks = tmp_path / 'guide'
    (notebooks / 'core').mkdir(parents=True)
    (notebooks / 'small.ipynb').write_text(json.dumps(SMALL_GUIDE))
    other = {'cells': SMALL_GUIDE['cells'][1:3]}
    (notebooks / 'core' / 'other.ipynb').write_text(json.dumps(other))
    return notebooks


def test_extract_writes_the_code_cells_of_each_notebook_and_its_core_folder(tmp_path):
    cells_dir = tmp_path / 'cells'
    notebooks = str(_notebooks(tmp_path))
    assert guides.main(['--extract', notebooks, '--guides-dir', str(cells_dir)]) == 0
    assert sorted(os.listdir(cells_dir)) == ['other.cells', 'small.cells']
    assert guides.read_guide('small', str(cells_dir)) == [
        ('c1', 'import tensorflow as tf\nx = tf.constant(3)'),  # the shell line is dropped
        ('c2', 'print(int(x) * 2)\nx + 1'), ('c3', 'y = tf.keras.layers.Dense(2)')]


def test_a_missing_guides_directory_names_the_step_that_makes_it(tmp_path):
    try:
        guides.main(['--guides-dir', str(tmp_path / 'none')])
    except SystemExit as e:
        assert '--extract' in str(e)
    else:
        raise AssertionError('no error for a missing guides directory')


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


def test_a_cell_whose_tensorflow_result_is_ragged_or_sparse_is_out_of_scope():
    ours = [{'id': 'a', 'in_scope': True, 'output': 'ValueError: ragged\n', 'error': 'ValueError'},
            {'id': 'b', 'in_scope': True, 'output': 'ValueError: sparse\n', 'error': 'ValueError'},
            {'id': 'c', 'in_scope': True, 'output': 'rt.Tensor(1)\n', 'error': None}]
    tf_run = [{'id': 'a', 'in_scope': True, 'error': None,
               'output': "<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Lazy']]>\n"},
              {'id': 'b', 'in_scope': True, 'error': None,
               'output': 'SparseTensor(indices=tf.Tensor([[0]], shape=(1, 1), dtype=int64))\n'},
              {'id': 'c', 'in_scope': True, 'output': 'tf.Tensor(1)\n', 'error': None}]
    rows = guides.compare(ours, [tf_run, [dict(r) for r in tf_run]])
    assert [r['in_scope'] for r in rows] == [False, False, True]
    assert guides.summary(rows) == {'cells': 3, 'in_scope': 1, 'run': 1, 'reproducible': 1,
                                    'equal': 1}


def test_a_guide_runs_here_and_compares_with_the_cached_tensorflow_outputs(tmp_path, capsys):
    cells_dir = str(tmp_path / 'cells')
    guides.extract(str(_notebooks(tmp_path)), cells_dir)
    cells = [list(cell) for cell in guides.read_guide('small', cells_dir)]
    # TensorFlow's outputs of the small guide, as two TensorFlow runs print them
    run = [{'id': 'c1', 'in_scope': True, 'output': '', 'error': None},
           {'id': 'c2', 'in_scope': True, 'output': '6\n<tf.Tensor: shape=(), dtype=int32, '
                                                    'numpy=4>\n', 'error': None},
           {'id': 'c3', 'in_scope': False}]
    cache = tmp_path / 'tf_outputs.json'
    cache.write_text(json.dumps({'small': {'digest': guides.digest(cells), 'runs': [run, run]}}))
    assert guides.main(['small', '--guides-dir', cells_dir, '--tf-outputs', str(cache),
                        '--tf-python', str(tmp_path / 'no-tensorflow')]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ['guide', 'cells', 'in', 'scope', 'run', 'reproducible', 'equal']
    assert table[1].split() == ['small', '3', '2', '2', '2', '2']


def test_the_matplotlib_stand_in_takes_settings_items_and_submodules():
    saved = {name: sys.modules.get(name) for name in guides.MATPLOTLIB_MODULES}
    try:
        guides._install_matplotlib_stand_in()
        namespace = {}
        output, error = guides.run_cell(
            'import matplotlib\nfrom matplotlib import pyplot as plt\n'
            'from matplotlib.image import imread\n'
            "matplotlib.rcParams['figure.figsize'] = [9, 6]\n"
            "plt.figure(figsize=matplotlib.rcParams['figure.figsize'])\n"
            'for line in plt.plot([1, 2]):\n    print(line)\nprint("drawn")', namespace)
        assert (output, error) == ('drawn\n', None)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def test_a_module_missing_here_but_not_on_tensorflows_side_is_named_with_the_fix():
    rows = [{'id': 'a', 'in_scope': True, 'ours': "ModuleNotFoundError: No module named "
                                                  "'pandas'\n", 'tf_error': None},
            {'id': 'b', 'in_scope': True, 'ours': "ModuleNotFoundError: No module named "
                                                  "'tfds'\n", 'tf_error': 'ModuleNotFoundError'},
            {'id': 'c', 'in_scope': True, 'ours': '1\n', 'tf_error': None}]
    notes = guides.missing_modules({'core': {'cells': rows}})
    assert len(notes) == 1 and 'core a' in notes[0] and "'pandas'" in notes[0]
    assert 'pip install pandas' in notes[0]
