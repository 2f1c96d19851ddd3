"""CPython's own tests of standard-library modules, run on the modules converted with
`autograph convert`: no test that passes on the original may fail converted.

The default run tests the modules marked `quick` in stdlib_harness.MODULES; set
AUTOGRAPH_STDLIB_ALL=1 to test all of them (a few minutes). `tools/stdlib_diff.py` prints the
figures per module.
"""
import os

import pytest

from tests.autograph.stdlib import agswap
from tests.autograph.stdlib import stdlib_harness as harness

_ALL = os.environ.get('AUTOGRAPH_STDLIB_ALL') == '1'
_MODULES = [m for m in harness.MODULES if _ALL or m.quick]

pytestmark = pytest.mark.skipif(not harness.lib_test_available(),
                                reason="CPython's Lib/test is not installed")


@pytest.mark.parametrize('module', _MODULES, ids=[m.name for m in _MODULES])
def test_converted_module_passes_what_the_original_passes(module, tmp_path):
    result = harness.compare(module, str(tmp_path / module.name))
    assert result.converted['error'] is None, result.converted['error']
    assert result.passed_original, 'the original ran no test'
    assert result.converted['swapped'], 'no function was swapped for its conversion'
    assert result.regressions == []


def test_the_swap_pairs_each_converted_function_with_its_original():
    original = ('class A:\n'
                '    @property\n    def x(self):\n        return 1\n'
                '    @x.setter\n    def x(self, value):\n        pass\n'
                'def f(a, b=2):\n    return a\n')
    converted = ('def tf__x(self):\n    return 1\n'
                 'def tf__x(self, value):\n    pass\n'
                 'def tf__f(a, b=None):\n    return a\n')
    pairs = [(name, o.lineno, c.lineno) for name, o, c in agswap.pairs(original,
                                                                                converted)]
    assert pairs == [('A.x', 3, 1), ('A.x', 6, 3), ('f', 8, 5)]


def test_the_swap_loads_converted_code_from_its_cache(tmp_path, monkeypatch):
    source = 'def f(a):\n    return a + 1\n'
    original, converted = tmp_path / 'm.py', tmp_path / 'm.converted.py'
    original.write_text(source)
    converted.write_text('def tf__f(a):\n    return a + 2\n')

    def module():
        namespace = {'__file__': str(original), '__name__': 'm'}
        exec(compile(source, str(original), 'exec'), namespace)
        return namespace
    first = module()
    assert agswap.install(first, str(converted)) == ['f'] and first['f'](1) == 3
    assert (tmp_path / 'm.converted.py.agswap-cache').exists()

    def no_parse(*args):
        raise AssertionError('the cached swap parsed the sources again')
    monkeypatch.setattr(agswap, 'pairs', no_parse)
    second = module()
    assert agswap.install(second, str(converted)) == ['f'] and second['f'](1) == 3


_DECORATED = ('import functools\n'
              'class A:\n'
              '    @property\n    def x(self):\n        return 1\n'
              '    @staticmethod\n    def s():\n        return 1\n'
              '    @functools.lru_cache\n    def c(self):\n        return 1\n'
              'def w(f):\n'
              '    @functools.wraps(f)\n    def wrapper():\n        return f()\n'
              '    return wrapper\n'
              '@w\ndef g():\n    return 1\n'
              '{hidden}')
_DECORATED_CONVERTED = ('def tf__x(self):\n    return 2\n'
                        'def tf__s():\n    return 2\n'
                        'def tf__c(self):\n    return 2\n'
                        'def tf__g():\n    return 2\n')


def _swap_twice(tmp_path, source, monkeypatch):
    """Installs the converted code in two fresh copies of the module `source`: the first
    writes the cache, the second loads it; returns (the second module, whether it walked all
    the objects of the process)."""
    original, converted = tmp_path / 'm.py', tmp_path / 'm.converted.py'
    original.write_text(source)
    converted.write_text(_DECORATED_CONVERTED)

    def module():
        namespace = {'__file__': str(original), '__name__': 'm'}
        exec(compile(source, str(original), 'exec'), namespace)
        return namespace
    agswap.install(module(), str(converted))
    scanned = []
    all_functions = agswap._all_functions
    monkeypatch.setattr(agswap, '_all_functions',
                        lambda g: scanned.append(True) or all_functions(g))
    second = module()
    assert agswap.install(second, str(converted)) == ['A.x', 'A.s', 'A.c', 'g']
    return second, bool(scanned)


def test_the_cached_swap_walks_the_module_when_that_finds_every_function(tmp_path,
                                                                        monkeypatch):
    m, scanned = _swap_twice(tmp_path, _DECORATED.format(hidden=''), monkeypatch)
    assert not scanned, 'the swap looked at every object of the process'
    a = m['A']()
    assert (a.x, m['A'].s(), a.c(), m['g']()) == (2, 2, 2, 2)


def test_the_cached_swap_scans_all_objects_when_the_walk_misses_a_function(tmp_path,
                                                                          monkeypatch):
    # `g`'s original is held only in a list: the walk from the globals does not enter lists
    hidden = 'KEPT = [g.__wrapped__]\ndel g\n'
    m, scanned = _swap_twice(tmp_path, _DECORATED.format(hidden=hidden), monkeypatch)
    assert scanned
    assert m['KEPT'][0]() == 2


def test_a_repeated_comparison_keeps_each_sides_fastest_times(tmp_path, monkeypatch):
    times = iter([3.0, 9.0, 1.0, 7.0, 2.0, 8.0])   # original, converted, alternated
    runs = []

    def run_side(folder, module, converted):
        runs.append(converted)
        seconds = next(times)
        return {'outcomes': {'t': 'pass'}, 'error': None, 'swapped': ['f'],
                'seconds': seconds, 'tests_seconds': seconds / 2, 'cpu_seconds': seconds / 4}
    monkeypatch.setattr(harness, 'run_side', run_side)
    monkeypatch.setattr(harness, 'convert', lambda module, folder: [])
    result = harness.compare(harness.BY_NAME['colorsys'], str(tmp_path / 'c'), repeat=3)
    assert runs == [False, True] * 3
    assert (result.original['seconds'], result.converted['seconds']) == (1.0, 7.0)
    assert (result.original['tests_seconds'], result.converted['tests_seconds']) == (0.5, 3.5)
    assert (result.original['cpu_seconds'], result.converted['cpu_seconds']) == (0.25, 1.75)
