"""The differential harness: standard-library modules converted with `autograph convert`,
swapped in for the originals, run against CPython's own tests from `Lib/test`.

    python3 stdlib_harness.py run SWAP_DIR MODULE OUT.json   (internal: one side of one module)

`MODULES` lists what is tested: each entry names the module (a file or a package of the
standard library), its tests, the C accelerators blocked on both sides (so that the pure
Python code is what runs) and, optionally, the qualified-name prefixes of the functions to
swap (for `collections`, only the pure `OrderedDict`). `compare` converts a module into a
temporary folder, runs its tests once on the original and once converted (each in its own
Python process) and returns both outcomes; tools/stdlib_diff.py prints them as a table.

Both sides load bytecode: the original from the standard library's `__pycache__`, the converted
side from its own, written by one import of the converted module (`warm`, not timed) before
its tests run: the swapped module's `.pyc` and agswap's cache of the converted code objects.
"""
import dataclasses
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
STDLIB = sysconfig.get_paths()['stdlib']


@dataclasses.dataclass(frozen=True)
class Module:
    name: str                  # the module or package, as imported
    tests: str                 # its tests, as `unittest` loads them
    blocked: tuple = ()        # C accelerators, blocked on both sides
    only: tuple = None         # qualified-name prefixes of the functions swapped (None: all)
    quick: bool = False        # in the default test run


MODULES = (
    Module('heapq', 'test.test_heapq', ('_heapq',), quick=True),
    Module('bisect', 'test.test_bisect', ('_bisect',), quick=True),
    Module('textwrap', 'test.test_textwrap', quick=True),
    Module('colorsys', 'test.test_colorsys'),   # run by tests/tools/test_stdlib_diff.py
    Module('copy', 'test.test_copy', quick=True),
    Module('shlex', 'test.test_shlex', quick=True),
    Module('difflib', 'test.test_difflib'),
    Module('pprint', 'test.test_pprint'),
    Module('json', 'test.test_json', ('_json',)),
    Module('functools', 'test.test_functools', ('_functools',)),
    Module('dataclasses', 'test.test_dataclasses'),
    Module('collections', 'test.test_ordered_dict', only=('OrderedDict.', '_OrderedDict')),
    Module('statistics', 'test.test_statistics', ('_statistics',)),
    Module('fractions', 'test.test_fractions'),
    Module('ipaddress', 'test.test_ipaddress'),
    Module('calendar', 'test.test_calendar'),
    Module('string', 'test.test_string'),
    Module('base64', 'test.test_base64'),
    Module('tomllib', 'test.test_tomllib'),
    Module('plistlib', 'test.test_plistlib'),
    Module('configparser', 'test.test_configparser'),
    Module('optparse', 'test.test_optparse'),
    Module('graphlib', 'test.test_graphlib'),
)
# tested when named (`stdlib_diff.py zipfile`), not by default: slower or newer to the set
MORE_MODULES = (
    Module('zipfile', 'test.test_zipfile'),
    Module('html.parser', 'test.test_htmlparser'),
)
BY_NAME = {m.name: m for m in MODULES + MORE_MODULES}


def lib_test_available():
    try:
        import test.support  # noqa: F401
    except ImportError:
        return False
    return True


def _sources(module):
    """(path relative to the standard library, absolute path) of the module's files."""
    name = module.name.replace('.', os.sep)   # a module of a package: html.parser
    package = os.path.join(STDLIB, name)
    if os.path.isdir(package):
        for entry in sorted(os.listdir(package)):
            if entry.endswith('.py'):
                yield os.path.join(name, entry), os.path.join(package, entry)
    else:
        yield name + '.py', os.path.join(STDLIB, name + '.py')


def convert(module, folder):
    """Converts the module's files with the CLI into `folder`/converted and writes the
    swapped module into `folder`/swap; returns the CLI's notes (its stderr)."""
    notes = []
    for relative, path in _sources(module):
        converted = os.path.join(folder, 'converted', relative)
        swapped = os.path.join(folder, 'swap', relative)
        os.makedirs(os.path.dirname(converted), exist_ok=True)
        os.makedirs(os.path.dirname(swapped), exist_ok=True)
        done = subprocess.run(
            [sys.executable, '-m', 'autograph', 'convert', path, '--output', converted,
             '--form', 'executed'],
            capture_output=True, text=True, env=_environment(), cwd=ROOT)
        if done.returncode != 0:
            raise RuntimeError(f'autograph convert {path} failed:\n{done.stderr}')
        notes += done.stderr.splitlines()
        with open(path, encoding='utf-8') as f:
            source = f.read()
        footer = (f'\nimport agswap as _agswap\n'
                  f'_agswap.install(globals(), {converted!r}, {module.only!r})\n'
                  f'del _agswap\n')
        with open(swapped, 'w', encoding='utf-8') as f:
            f.write(source + ('' if source.endswith('\n') else '\n') + footer)
    return notes


def _environment():
    environment = dict(os.environ)
    # numpy's BLAS starts a thread of its own per core, which spins for ~0.5 s after the
    # import (autograph's, untimed, on both sides): on a machine of two cores it took the
    # CPU from the timed run (~60 ms of CPU over a run of 10-50 ms). One thread: none
    environment.update(OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
    environment['PYTHONPATH'] = os.pathsep.join(
        [ROOT, HERE] + [p for p in environment.get('PYTHONPATH', '').split(os.pathsep) if p])
    return environment


class _Outcomes(unittest.TestResult):
    """Each test id's outcome: pass, fail, error, skip, xfail or xpass."""

    def __init__(self):
        super().__init__()
        self.outcomes = {}

    def _set(self, test, outcome):
        key = test.id()
        if self.outcomes.get(key) in ('fail', 'error'):
            return
        self.outcomes[key] = outcome

    def addSuccess(self, test):
        self._set(test, 'pass')

    def addFailure(self, test, err):
        self._set(test, 'fail')

    def addError(self, test, err):
        self._set(test, 'error')

    def addSkip(self, test, reason):
        self._set(test, 'skip')

    def addExpectedFailure(self, test, err):
        self._set(test, 'xfail')

    def addUnexpectedSuccess(self, test):
        self._set(test, 'xpass')

    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._set(test, 'fail')


class _SwapFinder(importlib.abc.MetaPathFinder):
    """Finds top-level modules in the swap folder first: placed just before the path finder,
    it shadows the standard library's files as the folder first on sys.path would, and
    leaves built-in and frozen modules (found before it) and submodules (found through
    their package's __path__) alone."""

    def __init__(self, folder):
        self.folder = folder

    def find_spec(self, name, path=None, target=None):
        if path is not None:
            return None
        return importlib.machinery.PathFinder.find_spec(name, [self.folder], target)


def _prepare(swap_folder, module):
    for blocked in module.blocked:
        sys.modules[blocked] = None
    # loaded on both sides, untimed, so that both run with the same objects in the process:
    # each gc.collect() a test calls scans autograph's, runtime's and numpy's some 20,000
    # objects on either side (test_ordered_dict calls it 90 times: 40 ms each with them, 5
    # without), and the times compare the converted code alone. Converted, it is loaded
    # before the swap shadows any module
    import autograph.operators  # noqa: F401
    if swap_folder:
        import agswap  # noqa: F401  (imported in the swapped module, where it would collect)

        parent = module.name.rpartition('.')[0]
        if parent:  # a module of a package (html.parser): its package looks in the swap first
            # (imported before the swap finder, which would find the swap's folder of the
            # same name as a namespace package)
            package = importlib.import_module(parent)
            package.__path__.insert(0, os.path.join(swap_folder, *parent.split('.')))
        sys.meta_path.insert(sys.meta_path.index(importlib.machinery.PathFinder),
                             _SwapFinder(swap_folder))
    # either side imports the module in its timed run, from its bytecode: the original too,
    # which autograph (`string`, `json`, `copy`, ...) or unittest may have imported already
    for loaded in [m for m in sys.modules if m == module.name
                   or m.startswith(module.name + '.')]:
        del sys.modules[loaded]


def _warm(swap_folder, name):
    """In the child process: imports the converted module once, writing its bytecode caches."""
    _prepare(swap_folder, BY_NAME[name])
    importlib.import_module(name)


def _run_side(swap_folder, name, out_path):
    """In the child process: runs the module's tests (converted when `swap_folder`)."""
    module = BY_NAME[name]
    _prepare(swap_folder, module)
    start, cpu_start = time.perf_counter(), time.process_time()
    result = _Outcomes()
    try:
        importlib.import_module(name)
        swapped = [f'{m}:{f}' for m, module_object in sorted(sys.modules.items())
                   if (m == name or m.startswith(name + '.')) and module_object is not None
                   for f in module_object.__dict__.get('__ag_swapped__', ())]
        suite = unittest.defaultTestLoader.loadTestsFromName(module.tests)
        tests_start = time.perf_counter()
        suite.run(result)
        tests_seconds = time.perf_counter() - tests_start
        error = None
    except Exception as e:  # the module does not import: every test counts as failed
        error = f'{type(e).__name__}: {e}'
        swapped, tests_seconds = [], 0.0
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    with open(out_path, 'w') as f:
        json.dump({'outcomes': result.outcomes, 'error': error, 'swapped': swapped,
                   'seconds': seconds, 'tests_seconds': tests_seconds,
                   'cpu_seconds': cpu_seconds}, f)


def run_side(folder, module, converted, timeout=600):
    out = os.path.join(folder, f'{module.name}.{"converted" if converted else "original"}.json')
    swap = os.path.join(folder, 'swap') if converted else ''
    if converted:   # the bytecode caches of the converted side, as the original has its own
        subprocess.run([sys.executable, os.path.join(HERE, 'stdlib_harness.py'), 'warm', swap,
                        module.name], capture_output=True, cwd=folder, timeout=timeout,
                       env={k: v for k, v in _environment().items()
                            if k != 'PYTHONDONTWRITEBYTECODE'})
    # functions converted while the tests run (a test's subclass overriding a converted
    # method) go to a conversion cache of the comparison's own: the first run converts them,
    # a repeated run loads them, as a program's second run does (compiler/disk_cache.py)
    environment = {**_environment(), 'AUTOGRAPH_CACHE': os.path.join(folder, 'conversions')}
    done = subprocess.run([sys.executable, os.path.join(HERE, 'stdlib_harness.py'), 'run', swap,
                           module.name, out], capture_output=True, text=True,
                          env=environment, cwd=folder, timeout=timeout)
    if not os.path.exists(out):
        return {'outcomes': {}, 'error': f'the test process died:\n{done.stderr[-3000:]}',
                'swapped': [], 'seconds': 0.0, 'tests_seconds': 0.0, 'cpu_seconds': 0.0}
    with open(out) as f:
        return json.load(f)


@dataclasses.dataclass
class Comparison:
    module: Module
    original: dict
    converted: dict
    notes: list

    @property
    def passed_original(self):
        return sorted(t for t, o in self.original['outcomes'].items() if o == 'pass')

    @property
    def passed_converted(self):
        return sorted(t for t, o in self.converted['outcomes'].items() if o == 'pass')

    @property
    def regressions(self):
        """Tests that pass on the original and not converted."""
        converted = self.converted['outcomes']
        return [t for t in self.passed_original if converted.get(t) != 'pass']


def compare(module, folder, repeat=1):
    """Converts `module` and runs its tests on both sides; with `repeat` > 1, the sides run
    that many times, alternated, and each side's times are its fastest run's (the outcomes
    are the first run's: the machine's load only ever adds time)."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    notes = convert(module, folder)
    original, converted = run_side(folder, module, False), run_side(folder, module, True)
    for _ in range(repeat - 1):
        for first, again in ((original, run_side(folder, module, False)),
                             (converted, run_side(folder, module, True))):
            for key in ('seconds', 'tests_seconds', 'cpu_seconds'):
                first[key] = min(first[key], again[key])
    return Comparison(module, original, converted, notes)


if __name__ == '__main__':
    if sys.argv[1] == 'run':
        _run_side(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == 'warm':
        _warm(sys.argv[2], sys.argv[3])
