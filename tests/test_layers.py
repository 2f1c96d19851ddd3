"""The layering rules, checked on the source: runtime never imports autograph; the compiler half
of autograph imports neither numpy nor runtime; runtime/ and autograph/ have no import cycles.

Imports inside functions count; one is allowed to close a cycle only when a comment on its line
or the line above names the cycle it breaks.
"""
import ast
import os
import pathlib
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
                'autograph.cli.graph')


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
    """[(imported module, line, allowed)] for every import statement in the module, at any
    depth. `allowed`: inside a function, with a comment naming the cycle it breaks."""
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
                allowed = in_function and 'cycle' in comment and '#' in comment
                for target in _targets(child, package, known):
                    found.append((target, child.lineno, allowed))
            visit(child, nested)

    visit(tree, False)
    return found


def _targets(node, package, known):
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
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
    """The import cycles among modules named `prefix...`, each as a list of module names."""
    edges = {name: sorted({t for t, _, allowed in imports
                           if not allowed and t in known and t.startswith(prefix) and t != name})
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
    return import_graph(ROOT, ('runtime', 'autograph'))


def test_runtime_never_imports_autograph(project):
    graph, _ = project
    bad = [f'{name}:{line} imports {target}' for name, imports in graph.items()
           if _in(name, ['runtime']) for target, line, _ in imports if _in(target, ['autograph'])]
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


def test_runtime_and_autograph_have_no_import_cycles(project):
    graph, known = project
    assert cycles(graph, known, 'runtime') == []
    assert cycles(graph, known, 'autograph') == []


def test_the_cycle_check_finds_cycles_and_honours_commented_deferred_imports(tmp_path):
    pkg = tmp_path / 'pkg'
    pkg.mkdir()
    (pkg / '__init__.py').write_text('')
    (pkg / 'a.py').write_text('from pkg import b\n')
    (pkg / 'b.py').write_text('def f():\n    from pkg import a\n    return a\n')
    (pkg / 'c.py').write_text('from pkg.d import x\n')
    (pkg / 'd.py').write_text('x = 1\n\n\ndef f():\n    # pkg.c imports this module: the cycle\n'
                              '    from pkg import c\n    return c\n')
    graph, known = import_graph(tmp_path, ('pkg',))
    assert cycles(graph, known, 'pkg') == [['pkg.a', 'pkg.b']]
