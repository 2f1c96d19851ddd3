"""docs/design.md names only paths that exist: the layer map (a tree: indentation nests entries
under the folder above them; names end at two spaces) and every `runtime/...`-style path in
backquotes elsewhere."""
import itertools
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
DESIGN = (ROOT / 'docs' / 'design.md').read_text(encoding='utf-8')
TOP = ('runtime/', 'autograph/', 'tests/', 'tools/', 'docs/', 'examples/')


def expand(name):
    """`ops/{a,b}.py` -> ['ops/a.py', 'ops/b.py']."""
    parts = re.split(r'\{([^}]*)\}', name)
    choices = [[p] if i % 2 == 0 else p.split(',') for i, p in enumerate(parts)]
    return [''.join(c) for c in itertools.product(*choices)]


def layer_map_paths(text):
    block = text.split('```\n', 2)[1]
    parents, found = {}, []
    for line in block.splitlines():
        depth = (len(line) - len(line.lstrip(' '))) // 2
        names = re.split(r' {2,}', line.strip(), maxsplit=1)[0]
        if not line.strip() or depth > 0 and depth - 1 not in parents:
            continue
        if line.startswith(' ' * 30):  # a description continued on its own line
            continue
        base = parents.get(depth - 1, '')
        for name in names.split(' '):
            for path in expand(name):
                found.append(base + path)
        folders = [n for n in names.split(' ') if n.endswith('/')]
        parents = {d: p for d, p in parents.items() if d < depth}
        if len(folders) == 1 and len(names.split(' ')) == 1:
            parents[depth] = base + folders[0]
    return found


def test_the_layer_map_names_paths_that_exist():
    paths = layer_map_paths(DESIGN)
    assert 'runtime/ops/registry.py' in paths and 'autograph/saved_model/' in paths
    assert 'runtime/graph/serialization/graph_io.py' in paths
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_every_path_in_backquotes_exists():
    quoted = {m for m in re.findall(r'`([^`\s]+)`', DESIGN) if m.startswith(TOP)}
    assert 'tests/test_layers.py' in quoted
    missing = [p for p in quoted for q in expand(p.rstrip('.,:'))
               if not list(ROOT.glob(q))]
    assert missing == []


def test_the_path_reader_reads_trees_and_braces():
    text = 'x\n```\nruntime/      r\n  ops/        o\n    a.py b.py  files\n  {c,d}.py    e\n```\n'
    assert layer_map_paths(text) == ['runtime/', 'runtime/ops/', 'runtime/ops/a.py',
                                     'runtime/ops/b.py', 'runtime/c.py', 'runtime/d.py']
