#!/usr/bin/env python3
"""Run TensorFlow's own guides here and with real TensorFlow, cell by cell, and compare.

    python3 tools/guides.py [GUIDE ...] [--tf-python PATH] [--refresh-tf] [--json] [--cells]

The guides' cells are not part of this repository (it holds no text copied from other
projects): DIR/NAME.cells holds the code cells of one guide of tensorflow/docs (site/en/guide/),
one cell after each `# %% CELL_ID` line, in the directory given by --guides-dir, the
AUTOGRAPH_RT_GUIDES environment variable or /work/guides. Make it once from a checkout of
tensorflow/docs (or a directory of its .ipynb notebooks):

    python3 tools/guides.py --extract PATH/TO/docs/site/en/guide [--guides-dir DIR]

which writes DIR/NAME.cells for every NAME.ipynb found there and in its core/ folder.

Each guide runs in a fresh process and a fresh temporary directory, its cells one after another
in one namespace, as a notebook runs them: the last statement of a cell, when it is an
expression, is shown with its repr as a notebook shows it. Here the cells are ported
mechanically first (`import tensorflow as tf` -> `import runtime as rt` + `import autograph as
ag`, `tf.function` -> `ag.function`, `tf.saved_model` -> `ag.saved_model` (the home of
it), `tf.autograph.` -> `ag.`, every other `tf.` -> `rt.`).

Notebook magics and shell lines (`%...`, `!...`) are dropped. A cell is in scope unless it uses
Keras, ragged or sparse tensors, downloads, the profiler, TensorBoard or distribution strategies
(`tf.distribute`), or needs a cell that is not (TensorFlow's own run raises NameError or
ImportError), or makes one without naming it (TensorFlow's output shows a `tf.RaggedTensor` or
`SparseTensor`). matplotlib is replaced by a stand-in that draws nothing, on both sides. Per
guide the report counts the cells in scope, those that run (no exception, or the exception type
TensorFlow raises too), those whose output TensorFlow reproduces (the same in two TensorFlow
runs: unseeded random numbers and timings are not), and among those the cells whose output
equals TensorFlow's (after `tf.` -> `rt.` in TensorFlow's output, the module `tf` in converted
code and TensorFlow's module path of `tf.errors` renamed alike, and with object addresses
removed; an exception compares by its type).

TensorFlow's outputs (the results of running the code: no guide text) are kept in
tools/guides/tf_outputs.json, keyed by a digest of each guide's cells, so the comparison needs
TensorFlow only when a guide changes (or with --refresh-tf); TensorFlow is found through
--tf-python, the AUTOGRAPH_RT_TF_PYTHON environment variable or /work/tfenv/bin/python.
"""
import argparse
import ast
import contextlib
import hashlib
import io
import json
import linecache
import os
import re
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
GUIDES = os.environ.get('AUTOGRAPH_RT_GUIDES', '/work/guides')  # see --extract
REPO = os.path.dirname(HERE)
TF_OUTPUTS = os.path.join(HERE, 'guides', 'tf_outputs.json')
DEFAULT_TF_PYTHON = '/work/tfenv/bin/python'
# Keras, ragged and sparse tensors (not `sparse_softmax_cross_entropy_with_logits`, a dense op),
# downloads, the profiler, TensorBoard and distribution strategies are not this project's
OUT_OF_SCOPE = re.compile(r'keras|ragged|SparseTensor|tf\.sparse\.|get_file|https?://|tf\.profiler|'
                          r'tensorboard|tf\.distribute\.')
# A cell whose result TensorFlow shows as a ragged or sparse tensor uses one without naming it
# (`tf.strings.split` of a vector of strings gives a RaggedTensor)
OUT_OF_SCOPE_OUTPUT = re.compile(r'\btf\.RaggedTensor\b|\bSparseTensor\(')
MAGIC = re.compile(r'^\s*[%!].*$', re.M)  # notebook magics and shell lines: not Python
# TensorFlow's own run failing so means the cell needs an out-of-scope cell before it
NEEDS_EARLIER_CELL = ('NameError', 'ModuleNotFoundError', 'ImportError')
CELL_TIMEOUT_NOTE = 'the guide did not finish'


def read_guide(name, guides_dir=None):
    """[(cell id, source)] of DIR/NAME.cells."""
    path = os.path.join(guides_dir or GUIDES, name + '.cells')
    if not os.path.exists(path):
        raise SystemExit(f'{path}: no such guide; make the guides\' cells once with '
                         f'`python3 tools/guides.py --extract PATH/TO/docs/site/en/guide`.')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    cells = []
    for chunk in re.split(r'^# %% ', text, flags=re.M)[1:]:
        cell_id, _, source = chunk.partition('\n')
        cells.append((cell_id.strip(), MAGIC.sub('', source).strip('\n')))
    return cells


def extract(notebooks_dir, guides_dir):
    """Writes guides_dir/NAME.cells from the code cells of each notebooks_dir/[core/]NAME.ipynb;
    returns the names written."""
    os.makedirs(guides_dir, exist_ok=True)
    written = []
    for folder in (notebooks_dir, os.path.join(notebooks_dir, 'core')):
        if not os.path.isdir(folder):
            continue
        for file in sorted(os.listdir(folder)):
            if not file.endswith('.ipynb'):
                continue
            with open(os.path.join(folder, file), encoding='utf-8') as f:
                notebook = json.load(f)
            lines = []
            for n, cell in enumerate(notebook.get('cells', [])):
                if cell.get('cell_type') != 'code':
                    continue
                source = cell.get('source', '')
                source = ''.join(source) if isinstance(source, list) else source
                cell_id = cell.get('metadata', {}).get('id') or cell.get('id') or f'cell{n}'
                lines.append(f'# %% {cell_id}\n{source.rstrip()}\n')
            name = file[:-len('.ipynb')]
            if name in written:
                raise SystemExit(f'{folder}/{file}: a second guide named {name}')
            with open(os.path.join(guides_dir, name + '.cells'), 'w', encoding='utf-8') as f:
                f.write(''.join(lines))
            written.append(name)
    return written


def digest(cells):
    """What identifies a version of a guide in the cache of TensorFlow's outputs."""
    return hashlib.sha256(json.dumps(cells).encode('utf-8')).hexdigest()


def in_scope(source):
    return bool(source.strip()) and OUT_OF_SCOPE.search(source) is None


def port(source):
    """The cell as a user of this project writes it: `tf.` becomes `rt.`."""
    source = re.sub(r'^(\s*)import tensorflow as tf\b',
                    r'\1import runtime as rt\n\1import autograph as ag', source, flags=re.M)
    source = re.sub(r'\btf\.(function|saved_model)\b', r'ag.\1', source)
    source = re.sub(r'\btf\.autograph\.', 'ag.', source)
    return re.sub(r'\btf\.', 'rt.', source)


# TensorFlow's output as the port renames it: `tf.` names read as `rt.`, the module `tf` in the
# code `to_code` prints (`ag__.ld(tf)`) as `rt`, and the module path TensorFlow's exception
# classes print with (`<class 'tensorflow.python.framework.errors_impl.InvalidArgumentError'>`,
# the class users write `tf.errors.InvalidArgumentError`) as rt.errors' own.
_TF_NAMES = ((re.compile(r'\btf\.'), 'rt.'), (re.compile(r'\bag__\.ld\(tf\)'), 'ag__.ld(rt)'),
             (re.compile(r'\btensorflow\.python\.framework\.errors_impl\.'),
              'runtime.core.errors.'))


def normalize(text, ported):
    """Output as compared: TensorFlow's names read as the port renames them, addresses
    removed."""
    if not ported:
        for pattern, ours in _TF_NAMES:
            text = pattern.sub(ours, text)
    return re.sub(r' at 0x[0-9a-f]+', '', text)


# ---- the worker: runs one guide in this process ------------------------------------------------

class _Anything(types.ModuleType):
    """matplotlib's stand-in: every attribute, call and item gives another stand-in, and item
    assignment (`matplotlib.rcParams['figure.figsize'] = [9, 6]`) is taken and dropped."""

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _Anything(name)

    def __call__(self, *args, **kwargs):
        return _Anything('result')

    def __iter__(self):
        return iter(())

    def __getitem__(self, key):
        return _Anything('item')

    def __setitem__(self, key, value):
        pass  # a setting of a plotting library that draws nothing


MATPLOTLIB_MODULES = ('matplotlib', 'matplotlib.pyplot', 'matplotlib.ticker', 'matplotlib.colors',
                      'matplotlib.image', 'seaborn')


def _install_matplotlib_stand_in():
    for name in MATPLOTLIB_MODULES:
        sys.modules[name] = _Anything(name)
    for name in MATPLOTLIB_MODULES:
        package, _, child = name.rpartition('.')
        if package:  # `from matplotlib import pyplot`, `import matplotlib.image`
            setattr(sys.modules[package], child, sys.modules[name])


def run_cell(source, namespace, filename='<cell>'):
    """(output text, exception type name or None) of one cell run in `namespace`.

    The output is what the cell prints, TensorFlow's C++ `tf.print` (file descriptor 2)
    included, in order, and the repr of its last expression; what Python writes to stderr
    (tracebacks, warnings) is left out. The source is registered with linecache under
    `filename`, as a notebook does, so that AutoGraph can read the functions it defines.
    """
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    error = None
    with tempfile.TemporaryFile(mode='w+b') as captured:
        sys.stdout.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(captured.fileno(), 1)
        os.dup2(captured.fileno(), 2)
        out = io.TextIOWrapper(os.fdopen(os.dup(1), 'wb', buffering=0), write_through=True)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                try:
                    error = _execute(source, namespace, filename)
                except Exception as e:  # a cell's failure is what is measured
                    error = type(e).__name__
                    print(f'{error}: {e}')
        finally:
            out.flush()
            out.close()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        captured.seek(0)
        return captured.read().decode('utf-8', 'replace'), error


def _execute(source, namespace, filename):
    tree = ast.parse(source, filename)
    shown = not source.rstrip().endswith(';')  # a notebook hides a value ending in ;
    last = tree.body[-1] if shown and tree.body and isinstance(tree.body[-1], ast.Expr) else None
    if last is not None:
        tree.body.pop()
    exec(compile(tree, filename, 'exec'), namespace)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), filename, 'eval'), namespace)
        if value is not None:
            print(repr(value))
    return None


def work(name, ported, out_path, guides_dir):
    _install_matplotlib_stand_in()
    if not ported:  # TensorFlow's start-up log lines are not the first cell's output
        import tensorflow  # noqa: F401
    namespace = {'__name__': '__main__'}
    with open(out_path, 'w', encoding='utf-8') as out:
        for n, (cell_id, source) in enumerate(read_guide(name, guides_dir)):
            if not in_scope(source):
                record = {'id': cell_id, 'in_scope': False}
            else:
                output, error = run_cell(port(source) if ported else source, namespace,
                                         f'<{name} cell {n}>')
                record = {'id': cell_id, 'in_scope': True, 'output': output, 'error': error}
            out.write(json.dumps(record) + '\n')
            out.flush()


# ---- the driver --------------------------------------------------------------------------------

def run_guide(name, python, ported, timeout=600, repo=REPO, guides_dir=None):
    """The cells' results of guide `name` run by `python` (with the project at `repo`) in a
    fresh directory."""
    env = dict(os.environ, PYTHONPATH=repo if ported else '', TF_CPP_MIN_LOG_LEVEL='3',
               PYTHONHASHSEED='0')
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, 'cells.jsonl')
        cmd = [python, os.path.abspath(__file__), '--worker', name, '--out', out_path,
               '--guides-dir', os.path.abspath(guides_dir or GUIDES)]
        if ported:
            cmd.append('--ported')
        try:
            subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            pass  # the cells done so far count; the rest did not finish
        with open(out_path, encoding='utf-8') if os.path.exists(out_path) else \
                io.StringIO() as f:
            done = {r['id']: r for r in map(json.loads, f)}
    results = []
    for cell_id, source in read_guide(name, guides_dir):
        if not in_scope(source):
            results.append({'id': cell_id, 'in_scope': False})
        else:
            results.append(done.get(cell_id, {'id': cell_id, 'in_scope': True, 'output': '',
                                              'error': CELL_TIMEOUT_NOTE}))
    return results


def tf_outputs(names, tf_python, refresh, guides_dir=None, path=TF_OUTPUTS):
    """{guide: {'digest': of its cells, 'runs': [results of two TensorFlow runs]}}, cached in
    `path`."""
    cache = {}
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            cache = json.load(f)
    changed = False
    for name in names:
        cells = [list(cell) for cell in read_guide(name, guides_dir)]  # as JSON keeps them
        if not refresh and cache.get(name, {}).get('digest') == digest(cells):
            continue
        if not tf_python or not os.path.exists(tf_python):
            raise SystemExit(f'{name}: TensorFlow\'s outputs are not cached for this version of '
                             f'the guide; pass --tf-python PATH (a Python with tensorflow).')
        cache[name] = {'digest': digest(cells),
                       'runs': [run_guide(name, tf_python, False, guides_dir=guides_dir)
                                for _ in range(2)]}
        changed = True
    if changed:
        with open(path, 'w', encoding='utf-8') as f:
            json.dump(cache, f, indent=1, sort_keys=True)
            f.write('\n')
    return cache


def compare(ours, theirs):
    """Per cell: in scope, runs, reproducible by TensorFlow, equal to TensorFlow's output."""
    first, second = theirs
    rows = []
    for mine, a, b in zip(ours, first, second):
        if not mine['in_scope'] or a.get('error') in NEEDS_EARLIER_CELL or \
                OUT_OF_SCOPE_OUTPUT.search(a.get('output') or ''):
            rows.append({'id': mine['id'], 'in_scope': False})
            continue
        tf_error = a.get('error')
        runs = mine['error'] is None or (mine['error'] == tf_error and tf_error is not None)
        reproducible = a.get('output') == b.get('output') and tf_error == b.get('error')
        if tf_error is not None:
            equal = runs
        else:
            equal = runs and normalize(mine['output'], True) == normalize(a['output'], False)
        rows.append({'id': mine['id'], 'in_scope': True, 'runs': runs,
                     'reproducible': reproducible, 'equal': reproducible and equal,
                     'ours': mine['output'], 'tf': a.get('output', ''),
                     'error': mine['error'], 'tf_error': tf_error})
    return rows


def summary(rows):
    scoped = [r for r in rows if r['in_scope']]
    return {'cells': len(rows), 'in_scope': len(scoped),
            'run': sum(r['runs'] for r in scoped),
            'reproducible': sum(r['reproducible'] for r in scoped),
            'equal': sum(r['equal'] for r in scoped)}


def missing_modules(report):
    """A note for each module a guide imports that this Python lacks and TensorFlow's has (a
    tool-side package such as pandas: the cells after it fail here for want of it)."""
    notes = {}
    for name, r in report.items():
        for row in r['cells']:
            found = re.match(r"ModuleNotFoundError: No module named '([\w.]+)'",
                             row.get('ours', ''))
            if found and row.get('tf_error') not in NEEDS_EARLIER_CELL:
                module = found.group(1).partition('.')[0]
                notes.setdefault(module, []).append(f'{name} {row["id"]}')
    return [f'note: {", ".join(cells)}: this Python has no module {module!r}, which '
            f'TensorFlow\'s side has; install it to run these cells (`python3 -m pip install '
            f'{module}`: a tool-side package, not a dependency of the project)'
            for module, cells in notes.items()]


def all_guides(guides_dir=None):
    guides_dir = guides_dir or GUIDES
    if not os.path.isdir(guides_dir):
        read_guide('', guides_dir)  # names the step that makes the directory
    return sorted(f[:-6] for f in os.listdir(guides_dir) if f.endswith('.cells'))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('guides', nargs='*')
    parser.add_argument('--tf-python', default=os.environ.get('AUTOGRAPH_RT_TF_PYTHON',
                                                               DEFAULT_TF_PYTHON))
    parser.add_argument('--refresh-tf', action='store_true')
    parser.add_argument('--json', action='store_true')
    parser.add_argument('--repo', default=REPO,
                        help='the checkout of this project to run (default: this one)')
    parser.add_argument('--cells', action='store_true', help='show each differing cell')
    parser.add_argument('--guides-dir', default=GUIDES,
                        help='the directory of the guides\' .cells files (default: '
                             '$AUTOGRAPH_RT_GUIDES or /work/guides)')
    parser.add_argument('--tf-outputs', default=TF_OUTPUTS,
                        help='the cache of TensorFlow\'s outputs (default: %(default)s)')
    parser.add_argument('--extract', metavar='NOTEBOOKS_DIR',
                        help='write the .cells files from tensorflow/docs\' site/en/guide')
    parser.add_argument('--worker', help=argparse.SUPPRESS)
    parser.add_argument('--ported', action='store_true', help=argparse.SUPPRESS)
    parser.add_argument('--out', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        work(args.worker, args.ported, args.out, args.guides_dir)
        return 0
    if args.extract:
        names = extract(args.extract, args.guides_dir)
        print(f'{args.guides_dir}: {len(names)} guides ({", ".join(names)})')
        return 0
    names = args.guides or all_guides(args.guides_dir)
    cache = tf_outputs(names, args.tf_python, args.refresh_tf, args.guides_dir, args.tf_outputs)
    report = {}
    for name in names:
        rows = compare(run_guide(name, sys.executable, True, repo=os.path.abspath(args.repo),
                                 guides_dir=args.guides_dir),
                       cache[name]['runs'])
        report[name] = {'summary': summary(rows), 'cells': rows}
    totals = {k: sum(r['summary'][k] for r in report.values())
              for k in ('cells', 'in_scope', 'run', 'reproducible', 'equal')}
    if args.json:
        print(json.dumps({'guides': report, 'total': totals}, indent=1))
        return 0
    print(f'{"guide":28} {"cells":>5} {"in scope":>8} {"run":>5} {"reproducible":>12} '
          f'{"equal":>5}')
    for name, r in list(report.items()) + [('total', {'summary': totals})]:
        s = r['summary']
        print(f'{name:28} {s["cells"]:5} {s["in_scope"]:8} {s["run"]:5} {s["reproducible"]:12} '
              f'{s["equal"]:5}')
    for note in missing_modules(report):
        print(note)
    if args.cells:
        for name, r in report.items():
            for row in r['cells']:
                if row['in_scope'] and not (row['runs'] and
                                            (row['equal'] or not row['reproducible'])):
                    print(f'\n--- {name} {row["id"]} runs={row["runs"]} '
                          f'reproducible={row["reproducible"]}\n[ours]\n{row["ours"]}'
                          f'[tf]\n{row["tf"]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
