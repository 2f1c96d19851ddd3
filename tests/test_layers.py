"""The layering rules, checked on the source: runtime never imports autograph; the compiler half
of autograph imports neither numpy nor runtime; the op modules never import the gradients;
runtime/, autograph/ and tools/ have no import cycles.

Imports inside functions count as any other: no comment makes a cycle legal. An import inside a
function is allowed only for an optional dependency or a start-up cost, named by a comment on
its line or the line above: `# deferred: optional dependency numba (...)` or
`# deferred: start-up cost (...)`.
"""
import ast
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The halves of autograph, by folder. The runtime half runs converted code on tensors; the
# compiler half (parsing, analysis, the converters, `autograph.compiler` with to_code, the CLI's
# front and its convert command, and the package's own light top level) is everything else.
# `autograph graph` traces functions, so the CLI's graph command is the runtime half's.
RUNTIME_HALF = ('autograph.operators', 'autograph.tracing', 'autograph.saved_model',
                'autograph.distribute', 'autograph.cli.graph')
# The library's packages: runtime, autograph and the TensorFlow-shaped namespace above both.
LIBRARY = ('runtime', 'autograph', 'autograph_rt')
# What a comment on an import inside a function must name: why it is deferred.
# Folders of scripts, which also import each other by bare module names (their folder is on
# their path when run): `import bench` there is `tools.bench`.
SCRIPT_FOLDERS = ('tools', 'scripts')
DEFERRED = re.compile(r'#\s*deferred\b.*(optional dependency \w|start-up cost)')


def module_files(root, package):
    """{module name: path} for every .py file of `package` under `root`."""
    files = {}
    for path in sorted((root / package).rglob('*.py')):
        parts = list(path.relative_to(root).with_suffix('').parts)
        if parts[-1] == '__init__':
            parts.pop()
        files['.'.join(parts)] = path
    return files


def imports_of(name, path, known):
    """[(imported module, line, deferred)] for every import statement in the module, at any
    depth. `deferred`: inside a function (None at the top level); True when a comment on its line
    or the line above names why (`DEFERRED`), else False."""
    source = path.read_text(encoding='utf-8')
    lines = source.splitlines()
    tree = ast.parse(source, str(path))
    package = name if path.name == '__init__.py' else name.rpartition('.')[0]
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                       ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                comment = ' '.join(lines[max(child.lineno - 2, 0):child.lineno]).lower()
                deferred = bool(DEFERRED.search(comment)) if in_function else None
                for target in _targets(child, package, known):
                    found.append((target, child.lineno, deferred))
            visit(child, nested)

    visit(tree, False)
    return found


def _targets(node, package, known):
    if isinstance(node, ast.Import):
        # a script's folder is on its path: `import bench_jit` in tools/ is tools.bench_jit
        top = package.split('.')[0]
        sibling = (lambda name: f'{top}.{name}' if f'{top}.{name}' in known else name) \
            if top in SCRIPT_FOLDERS else (lambda name: name)
        return [sibling(alias.name) for alias in node.names]
    base = node.module or ''
    if node.level:
        anchor = package.split('.')
        anchor = anchor[:len(anchor) - (node.level - 1)]
        base = '.'.join(anchor + ([base] if base else []))
    out = []
    for alias in node.names:  # `from pkg import mod` imports the module pkg.mod
        candidate = f'{base}.{alias.name}'
        out.append(candidate if candidate in known else base)
    return out


def import_graph(root, packages):
    known = {}
    for package in packages:
        known.update(module_files(root, package))
    return {name: imports_of(name, path, known) for name, path in known.items()}, known


def cycles(graph, known, prefix):
    """The import cycles among modules named `prefix...`, each as a list of module names; every
    import counts, at the top level or inside a function, whatever its comment says."""
    edges = {name: sorted({t for t, _, _ in imports
                           if t in known and t.startswith(prefix) and t != name})
             for name, imports in graph.items() if name.startswith(prefix)}
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def strongconnect(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            strongconnect(v)
    return found


def _in(name, packages):
    return any(name == p or name.startswith(p + '.') for p in packages)


@pytest.fixture(scope='module')
def project():
    return import_graph(ROOT, LIBRARY + ('tools',))


def test_runtime_never_imports_autograph(project):
    graph, _ = project
    bad = [f'{name}:{line} imports {target}' for name, imports in graph.items()
           if _in(name, ['runtime']) for target, line, _ in imports if _in(target, ['autograph'])]
    assert bad == []


def test_the_namespace_sits_above_runtime_and_autograph(project):
    graph, _ = project
    bad = [f'{name}:{line} imports {target}' for name, imports in graph.items()
           if _in(name, ['runtime', 'autograph']) for target, line, _ in imports
           if _in(target, ['autograph_rt'])]
    assert bad == []


def test_the_compiler_half_imports_neither_numpy_nor_runtime(project):
    graph, known = project
    compiler = [name for name in graph
                if _in(name, ['autograph']) and not _in(name, RUNTIME_HALF)]
    assert {'autograph.compiler.conversion', 'autograph.pyct.parser', 'autograph.cli'} <= set(
        compiler)
    seen, todo, bad = set(), list(compiler), []
    while todo:  # everything importing the compiler half loads, at any depth
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for target, line, _ in graph[name]:
            if _in(target, ['numpy', 'runtime']):
                bad.append(f'{name}:{line} imports {target}')
            elif target in known:
                todo.append(target)
    assert bad == []


def test_to_code_and_the_cli_load_neither_numpy_nor_runtime(tmp_path):
    source = tmp_path / 'sample.py'
    source.write_text('def f(x):\n    while x > 0:\n        x -= 1\n    return x\n')
    probe = tmp_path / 'probe.py'
    probe.write_text(textwrap.dedent(f'''
        import sys
        import autograph as ag
        from autograph import cli

        def g(x):
            if x > 0:
                return x
            return -x

        assert 'ag__.if_stmt' in ag.to_code(g)
        cli.main(['convert', {str(source)!r}, '--output', {str(tmp_path / 'out.py')!r}])
        print(sorted(m for m in ('numpy', 'runtime') if m in sys.modules))
    '''))
    result = subprocess.run([sys.executable, str(probe)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60, env={**os.environ, 'PYTHONPATH': str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '[]'
    assert 'ag__.while_stmt' in (tmp_path / 'out.py').read_text()


def test_the_op_modules_never_import_the_gradients(project):
    """Gradients are a layer above the ops: runtime/gradients/rules/ attaches them to the
    OpDefs, so no op module needs them."""
    graph, _ = project
    bad = [f'{name}:{line} imports {target}' for name, imports in graph.items()
           if _in(name, ['runtime.ops']) for target, line, _ in imports
           if _in(target, ['runtime.gradients'])]
    assert bad == []


def _undeclared_deferrals(graph, package):
    return [f'{name}:{line} imports {target} inside a function' for name, imports in graph.items()
            if _in(name, [package]) for target, line, deferred in imports if deferred is False]


@pytest.mark.parametrize('package', LIBRARY + ('tools',))
def test_no_import_cycles(project, package):
    graph, known = project
    assert cycles(graph, known, package) == []


@pytest.mark.parametrize('package', LIBRARY)
def test_imports_inside_functions_name_an_optional_dependency_or_a_start_up_cost(project,
                                                                                 package):
    graph, _ = project
    assert _undeclared_deferrals(graph, package) == [], (
        'An import inside a function needs a comment on its line or the line above saying why: '
        '"# deferred: optional dependency <name>" or "# deferred: start-up cost"; an import that '
        'would close a cycle is a layering problem to fix, not to defer.')


def test_the_cycle_check_counts_every_import_and_the_deferral_check_reads_comments(tmp_path):
    pkg = tmp_path / 'pkg'
    pkg.mkdir()
    (pkg / '__init__.py').write_text('')
    (pkg / 'a.py').write_text('from pkg import b\n')
    (pkg / 'b.py').write_text('def f():\n    from pkg import a\n    return a\n')
    (pkg / 'c.py').write_text('from pkg.d import x\n')
    (pkg / 'd.py').write_text('x = 1\n\n\ndef f():\n    # pkg.c imports this module: the cycle\n'
                              '    from pkg import c\n    return c\n')
    (pkg / 'e.py').write_text('def f():\n    import numba  # deferred: optional dependency numba\n'
                              '    return numba\n\n\ndef g():\n    # Deferred for start-up cost\n'
                              '    from pkg import a\n    return a\n')
    graph, known = import_graph(tmp_path, ('pkg',))
    assert cycles(graph, known, 'pkg') == [['pkg.a', 'pkg.b'], ['pkg.c', 'pkg.d']]
    assert _undeclared_deferrals(graph, 'pkg') == [
        'pkg.b:2 imports pkg.a inside a function', 'pkg.d:6 imports pkg.c inside a function']
    # scripts of one folder importing each other by their bare names, as tools/ may
    scripts = tmp_path / 'scripts'
    scripts.mkdir()
    (scripts / 'f.py').write_text('import g\n')
    (scripts / 'g.py').write_text('import numpy\n\nimport f\n')
    graph, known = import_graph(tmp_path, ('scripts',))
    assert cycles(graph, known, 'scripts') == [['scripts.f', 'scripts.g']]


def test_no_library_or_tool_file_is_over_600_lines():
    long = {str(path.relative_to(ROOT)) for package in LIBRARY + ('tools',)
            for path in (ROOT / package).rglob('*.py')
            if len(path.read_text(encoding='utf-8').splitlines()) > 600}
    assert long == set(), f'Split these by theme: {sorted(long)}'


# ---- no `_private` name crosses a module boundary ----------------------------------------------
# The namedtuple API is public despite its underscores.
NAMEDTUPLE_API = {'_fields', '_field_defaults', '_replace', '_asdict', '_make'}


def _private(name):
    return (name.startswith('_') and not (name.startswith('__') and name.endswith('__'))
            and name not in NAMEDTUPLE_API)


def _defined_attributes(tree):
    """The attribute names a module gives its classes and objects: methods and class-level names,
    `__slots__` entries, and `x.name = ...` assignments."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(item.name)
                targets = (item.targets if isinstance(item, ast.Assign) else
                           [item.target] if isinstance(item, ast.AnnAssign) else [])
                for target in targets:
                    if isinstance(target, ast.Name):
                        names.add(target.id)
                        if target.id == '__slots__':
                            names.update(c.value for c in ast.walk(item.value) if
                                         isinstance(c, ast.Constant) and isinstance(c.value, str))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return names


def private_crossings(root, packages):
    """Every place a module of `packages` uses another module's `_private` name:
    `from m import _x`, `m._x` of an imported project module, and `obj._x` (obj not self or
    cls) of an attribute this module never defines but another module's class does. A private
    submodule import, `import m as _m` and `self._x` are fine."""
    known = {}
    for package in packages:
        known.update(module_files(root, package))
    trees = {name: ast.parse(path.read_text(encoding='utf-8'), str(path))
             for name, path in known.items()}
    defined = {name: _defined_attributes(tree) for name, tree in trees.items()}
    owners = {}
    for name, attributes in defined.items():
        for attribute in attributes:
            owners.setdefault(attribute, []).append(name)
    found = []
    for name, tree in trees.items():
        package = name if known[name].name == '__init__.py' else name.rpartition('.')[0]
        modules = {}  # local name -> the project module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known:
                        local = alias.asname or alias.name.split('.')[0]
                        modules[local] = alias.name if alias.asname else local
            elif isinstance(node, ast.ImportFrom):
                base = _targets(ast.ImportFrom(module=node.module, names=[ast.alias('')],
                                               level=node.level), package, {})[0]
                for alias in node.names:
                    full = f'{base}.{alias.name}'
                    if full in known:
                        modules[alias.asname or alias.name] = full
                    elif base in known and _private(alias.name):
                        found.append(f'{name}:{node.lineno} imports {alias.name} from {base}')
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ('getattr', 'hasattr', 'setattr') and len(node.args) > 1
                    and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str) and _private(node.args[1].value)
                    and node.args[1].value not in defined[name]
                    and node.args[1].value in owners):
                found.append(f'{name}:{node.lineno} asks {node.func.id} for '
                             f'{node.args[1].value}, an attribute of '
                             f'{", ".join(sorted(owners[node.args[1].value]))}')
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            value = node.value
            dotted = ast.unparse(value)
            if isinstance(value, ast.Name) and value.id in modules:
                found.append(f'{name}:{node.lineno} reads {node.attr} of {modules[value.id]}')
            elif dotted in known and dotted.split('.')[0] in modules:
                found.append(f'{name}:{node.lineno} reads {node.attr} of {dotted}')
            elif (dotted not in ('self', 'cls') and node.attr not in defined[name]
                  and node.attr in owners):
                found.append(f'{name}:{node.lineno} reads {dotted}.{node.attr}, an attribute '
                             f'of {", ".join(sorted(owners[node.attr]))}')
    return sorted(found, key=lambda f: (f.split(':')[0], int(f.split(':')[1].split()[0]), f))


def test_no_private_name_crosses_a_module_boundary():
    assert private_crossings(ROOT, LIBRARY) == [], (
        'A name another module uses is public: drop its underscore (and document it), or move '
        'the code that needs it into the module that owns it.')


def test_the_private_name_check_sees_imports_module_reads_and_foreign_attributes(tmp_path):
    pkg = tmp_path / 'pkg'
    pkg.mkdir()
    (pkg / '__init__.py').write_text('')
    (pkg / 'a.py').write_text(textwrap.dedent('''
        _table = {}


        class Box:
            __slots__ = ('_slot',)

            def __init__(self):
                self._value = 1
                self._slot = 2

            def _check(self):
                return self._value + self.__class__.__name__.__len__()

            def same(self, other):
                return other._value == self._value
    '''))
    (pkg / '_hidden.py').write_text('x = 1\n')
    (pkg / 'b.py').write_text(textwrap.dedent('''
        import collections
        import pkg.a
        import pkg.a as _a
        from pkg import _hidden, a
        from pkg.a import _table, Box


        def f(box, point):
            point._replace(x=1)._asdict()
            collections.namedtuple('P', 'x')._fields
            return (a._table, _a._table, pkg.a._table, box._check(), box._slot,
                    Box()._value, _hidden.x, box._unknown, hasattr(box, '_check'))
    '''))
    assert private_crossings(tmp_path, ('pkg',)) == [
        'pkg.b:6 imports _table from pkg.a',
        'pkg.b:12 reads _table of pkg.a',
        'pkg.b:12 reads _table of pkg.a',
        'pkg.b:12 reads _table of pkg.a',
        'pkg.b:12 reads box._check, an attribute of pkg.a',
        'pkg.b:12 reads box._slot, an attribute of pkg.a',
        'pkg.b:13 asks hasattr for _check, an attribute of pkg.a',
        'pkg.b:13 reads Box()._value, an attribute of pkg.a']


# ---- records are dataclasses -------------------------------------------------------------------
# NamedTuples kept on purpose: cache keys (documented as keys in autograph/tracing/keys.py) and
# the namedtuples TensorFlow itself returns.
NAMEDTUPLES = {
    'autograph.tracing.keys': {'TensorKey', 'VariableKey', 'LiteralKey', 'ContainerKey',
                               'ObjectKey', 'DatasetKey', 'HashableKey'},
    'runtime.ops.linalg': {'QrResult'},  # tf.linalg.qr returns a namedtuple
    'runtime.ops.decompositions': {'LogMatrixDeterminant'},  # so does tf.linalg.slogdet
    'runtime.ops.scan': {'TopKResult'},  # tf.math.top_k returns a namedtuple
}


def _plain_value(node):
    """A value a record's field takes as it is: a parameter, a constant, an empty container."""
    return (isinstance(node, (ast.Name, ast.Constant)) or
            isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not node.elts or
            isinstance(node, ast.Dict) and not node.keys)


def plain_records(root, packages):
    """Classes written out as records: NamedTuples outside `NAMEDTUPLES`, and classes (not
    dataclasses, no bases) whose only methods are `__init__`, which sets attributes of self to
    parameters, constants or empty containers, and maybe `__repr__`."""
    found = []
    for package in packages:
        for name, path in module_files(root, package).items():
            for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'), str(path))):
                if not isinstance(node, ast.ClassDef):
                    continue
                bases = [ast.unparse(b) for b in node.bases]
                if any(b.endswith('NamedTuple') for b in bases):
                    if node.name not in NAMEDTUPLES.get(name, ()):
                        found.append(f'{name}:{node.lineno} {node.name} is a NamedTuple')
                    continue
                decorators = [ast.unparse(d) for d in node.decorator_list]
                if bases or any('dataclass' in d for d in decorators):
                    continue
                methods = {item.name: item for item in node.body
                           if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
                init = methods.get('__init__')
                if init is None or set(methods) - {'__init__', '__repr__'}:
                    continue
                body = [s for s in init.body if not (isinstance(s, ast.Expr) and
                                                     isinstance(s.value, ast.Constant))]
                if body and all(
                        isinstance(s, ast.Assign) and _plain_value(s.value) and all(
                            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                            and t.value.id == 'self' for t in s.targets) for s in body):
                    found.append(f'{name}:{node.lineno} {node.name} only sets attributes')
    return found


def test_records_are_dataclasses():
    assert plain_records(ROOT, LIBRARY) == [], (
        'Write these records as @dataclass (eq=False keeps identity comparison and hashing).')


def test_the_record_check_sees_namedtuples_and_init_only_classes(tmp_path):
    pkg = tmp_path / 'pkg'
    pkg.mkdir()
    (pkg / '__init__.py').write_text(textwrap.dedent('''
        import dataclasses
        from typing import NamedTuple


        class Pair(NamedTuple):
            a: int


        class Point:
            def __init__(self, x, y=0):
                """Doc."""
                self.x = x
                self.y = y
                self.seen = []


        @dataclasses.dataclass
        class Done:
            x: int


        class Computes:
            def __init__(self, x):
                self.twice = x * 2


        class Acts:
            def __init__(self, x):
                self.x = x

            def run(self):
                return self.x
    '''))
    assert plain_records(tmp_path, ('pkg',)) == ['pkg:6 Pair is a NamedTuple',
                                                 'pkg:10 Point only sets attributes']


# ---- tests import what they need as packages ---------------------------------------------------
# Tests reach the project, tools/, examples/ and each other's modules by package name (pytest
# runs with the repository root on its path: `from tools import fuzz`, `from tests.parity import
# harness`), and a child process gets its path from PYTHONPATH: no file under tests/ edits
# sys.path, in its own code or in the code it hands a child process. Deliberate exceptions:
SYS_PATH_EXCEPTIONS = {
    'tests/test_layers.py': "the examples of this check's own test, in strings",
}
SYS_PATH_MUTATORS = {'insert', 'append', 'extend', 'remove', 'pop', 'clear'}


def _is_sys_path(node):
    return (isinstance(node, ast.Attribute) and node.attr == 'path'
            and isinstance(node.value, ast.Name) and node.value.id == 'sys')


def sys_path_edits(source, filename='<string>'):
    """[(line, what)] for every statement that assigns or mutates sys.path (`sys.path.insert(...)`
    and the other mutating methods, `sys.path[...] = `, `sys.path = `, `sys.path += `,
    `del sys.path[...]`, pytest's `monkeypatch.syspath_prepend`), also inside string constants
    that parse as Python (the code a test runs in a child process)."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if _is_sys_path(node.func.value) and node.func.attr in SYS_PATH_MUTATORS:
                found.append((node.lineno, f'sys.path.{node.func.attr}()'))
            elif node.func.attr == 'syspath_prepend':
                found.append((node.lineno, 'syspath_prepend()'))
        targets = (node.targets if isinstance(node, (ast.Assign, ast.Delete))
                   else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
        for target in targets:
            if _is_sys_path(target) or (isinstance(target, ast.Subscript)
                                        and _is_sys_path(target.value)):
                found.append((node.lineno, f'{type(node).__name__.lower()} to sys.path'))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and 'sys.path' in node.value:
            try:
                inner = sys_path_edits(textwrap.dedent(node.value), filename)
            except SyntaxError:
                continue
            found += [(node.lineno + line - 1, f'{what} in a string of code')
                      for line, what in inner]
    return sorted(found)


def test_no_test_edits_sys_path():
    edits = [f'{path.relative_to(ROOT)}:{line} {what}'
             for path in sorted((ROOT / 'tests').rglob('*.py'))
             if str(path.relative_to(ROOT)) not in SYS_PATH_EXCEPTIONS
             for line, what in sys_path_edits(path.read_text(encoding='utf-8'), str(path))]
    assert edits == [], ('Import these as packages (tools.X, tests.X.Y), or give a child '
                         f'process PYTHONPATH: {edits}')


def test_the_sys_path_check_sees_calls_assignments_and_child_process_code():
    source = textwrap.dedent('''
        import sys
        sys.path.insert(0, 'a')
        sys.path[:0] = ['b']
        sys.path = ['c']
        sys.path += ['d']
        del sys.path[0]
        monkeypatch.syspath_prepend('e')
        print(sys.path, sys.path.index('a'), sys.path[0])
        CHILD = """
        import sys
        sys.path.append(sys.argv[1])
        """
        NOT_CODE = "sys.path.insert( is how not to import"
    ''')
    assert sys_path_edits(source) == [
        (3, 'sys.path.insert()'), (4, 'assign to sys.path'), (5, 'assign to sys.path'),
        (6, 'augassign to sys.path'), (7, 'delete to sys.path'), (8, 'syspath_prepend()'),
        (12, 'sys.path.append() in a string of code')]
