"""Converted code kept on disk (autograph/compiler/disk_cache.py): a later process loads what
an earlier one converted, and the loaded code is the same converted function."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

MODULE = '''
import warnings


def clip(x, low):
    if x > low:
        y = x
    else:
        y = low
    return y


def warns(x):
    warnings.warn('careful', stacklevel=2)
    return x


def fails(x):
    return x[3]


pair = (lambda x: x + 1, lambda x: x * 10)
'''

# prints, as JSON, what the process converted and what the converted functions did
PROBE = '''
import json, sys, traceback, warnings
import user_module
import autograph as ag
from autograph.compiler import conversion
from autograph.pyct import loader
converted = []
original = conversion.convert_tree
def counting(node, *args, **kwargs):
    converted.append(getattr(node, 'name', '<lambda>'))
    return original(node, *args, **kwargs)
conversion.convert_tree = counting
clip = ag.to_graph(user_module.clip)
first, second = (ag.to_graph(f) for f in user_module.pair)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    ag.to_graph(user_module.warns)(1)
try:
    ag.to_graph(user_module.fails)([1])
except IndexError as e:
    frames = [(f.name, f.lineno) for f in traceback.extract_tb(e.__traceback__)]
result = {'converted': converted, 'clip': [clip(3, 1), clip(0, 1)],
          'lambdas': [first(1), second(1)], 'generated': loader.is_generated(clip),
          'warning': [caught[0].filename, caught[0].lineno], 'frames': frames[-1:]}
if len(sys.argv) > 2:
    result['source'] = ag.to_code(user_module.clip, form='executed')
print(json.dumps(result))
'''


def _run(folder, cache, *extra):
    environment = {**os.environ, 'AUTOGRAPH_CACHE': str(cache),
                   'PYTHONPATH': os.pathsep.join([str(folder), str(ROOT)])}
    done = subprocess.run([sys.executable, '-c', PROBE, str(folder), *extra], check=True,
                          capture_output=True, text=True, env=environment, cwd=folder)
    return json.loads(done.stdout)


@pytest.fixture
def user_module(tmp_path):
    (tmp_path / 'user_module.py').write_text(MODULE)
    return tmp_path


def test_a_later_process_loads_the_conversions_and_runs_the_same_program(user_module, tmp_path):
    cache = tmp_path / 'cache'
    first = _run(user_module, cache)
    assert sorted(first['converted']) == ['<lambda>', '<lambda>', 'clip', 'fails', 'warns']
    assert len(os.listdir(cache)) == 5
    second = _run(user_module, cache)
    assert second['converted'] == []
    for field in ('clip', 'lambdas', 'generated', 'warning', 'frames'):
        assert second[field] == first[field], field
    assert second['clip'] == [3, 1] and second['lambdas'] == [2, 10]
    assert second['generated'] is True
    # warnings and tracebacks name the user's lines, from loaded code as from compiled code
    assert second['warning'][0] == '<string>'    # the probe's call, as stacklevel=2 says
    assert second['frames'] == [['fails', 19]]


def test_to_code_converts_again_from_a_loaded_entry(user_module, tmp_path):
    cache = tmp_path / 'cache'
    first = _run(user_module, cache, 'source')
    second = _run(user_module, cache, 'source')
    assert second['source'] == first['source'] and 'ag__.if_stmt' in second['source']
    assert second['converted'] == ['clip']     # for the text only


def test_an_edited_function_is_converted_again(user_module, tmp_path):
    cache = tmp_path / 'cache'
    _run(user_module, cache)
    source = (user_module / 'user_module.py').read_text()
    (user_module / 'user_module.py').write_text(source.replace('y = low', 'y = low * 2'))
    again = _run(user_module, cache)
    # a lambda's text is its file's (parser.parse_entity), so the lambdas are converted again
    assert sorted(again['converted']) == ['<lambda>', '<lambda>', 'clip']
    assert again['clip'] == [3, 2]


def test_a_damaged_entry_is_converted_again_and_written_over(user_module, tmp_path):
    cache = tmp_path / 'cache'
    _run(user_module, cache)
    for entry in os.listdir(cache):
        (cache / entry).write_bytes(b'\x00not marshal')
    again = _run(user_module, cache)
    assert len(again['converted']) == 5 and again['clip'] == [3, 1]
    assert _run(user_module, cache)['converted'] == []


def test_an_empty_variable_or_an_unwritable_folder_means_no_cache(user_module, tmp_path):
    assert len(_run(user_module, '')['converted']) == 5
    blocked = tmp_path / 'file'
    blocked.write_text('not a folder')
    assert len(_run(user_module, blocked / 'cache')['converted']) == 5
    assert blocked.read_text() == 'not a folder'


def test_a_shadowed_builtin_is_part_of_the_key():
    # `print` shadowed by the module changes the conversion (call_trees: direct builtins)
    from autograph.compiler import disk_cache
    from autograph.converters import call_trees
    assert call_trees.shadowed_builtins({'print', 'x', 'clip'}) == {'print'}
    parts = ('lines', 'file', 1)
    assert disk_cache.key(parts + (('print',),)) != disk_cache.key(parts + ((),))
    assert disk_cache.key(parts) == disk_cache.key(tuple(parts))


def test_the_key_covers_every_compiler_file_subpackages_included():
    from autograph.compiler import disk_cache
    files = disk_cache.compiler_files()
    assert os.path.join('converters', 'speed', 'plain_forms.py') in files
    assert os.path.join('analysis', 'checked_reads.py') in files
    assert os.path.join('pyct', 'templates.py') in files
