"""Conversions are cached per function, never shared between files."""
import importlib.util
import re

import pytest

import autograph as ag

SOURCE = '''
def set_in_one_branch(x):
    if x > 0:
        y = x
    return y
'''


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.set_in_one_branch


def test_identical_functions_in_two_files_each_name_their_own_file(tmp_path):
    first, second = tmp_path / 'first.py', tmp_path / 'second.py'
    first.write_text(SOURCE)
    second.write_text(SOURCE)
    f, g = _load(first), _load(second)
    assert f.__code__ == g.__code__   # code objects do not compare their file names
    for function, path in ((f, first), (g, second)):
        with pytest.raises(UnboundLocalError, match=re.escape(f'{path}:')):
            ag.to_graph(function)(0)


def test_to_code_of_the_same_function_twice_is_one_conversion():
    def f(x):
        return x + 1

    assert ag.to_code(f, form='executed') is ag.to_code(f, form='executed')
