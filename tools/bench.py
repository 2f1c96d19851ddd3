#!/usr/bin/env python3
"""Benchmark: our graphs and eager ops against hand-written numpy, measured in the same run.

    python3 -m tools.bench [--json] [--quick] [--no-jit] [--peers PYTHON]   # from the root

Each figure is the best of several repeats (timeit), so other load on the machine inflates
both sides of a ratio alike; the workloads (tools/workloads.py) time ours and hand numpy in
many short turns, each side keeping its best. Ratios are what the targets speak of; the
absolute times are printed for reference. With numba installed, a second table times every
workload with `jit_compile=True` (tools/bench_jit.py; medians): its ratios to hand numpy, plain
Python, the default executor, JAX `jit` (tools/bench_jax.py) and `torch.compile`
(tools/bench_torch.py), the peers measured in the same run by this Python or by `--peers`
(a side venv's Python that has them); the time until native code runs and the steady time of a
call, in a process with an empty cache and in a new one loading it. The rt.data rows
(tools/bench_data.py) time one epoch of a pipeline against TensorFlow, run by the Python
AUTOGRAPH_RT_TF_PYTHON names. The converted plain-Python rows (tools/bench_python.py) time
`ag.to_graph` of stdlib-like functions against the functions as written.
"""
import argparse
import itertools
import json
import linecache
import os
import sys
import tempfile
import textwrap
import time
import timeit
import tracemalloc

import numpy as np

import autograph as ag
import runtime as rt
from tools import bench_data, bench_jit, bench_python, timing
from tools.workloads import WORKLOADS, power, power_matrix, power_numpy, range_sum, range_sum_numpy


def best(fn, number, repeat):
    """Seconds per call: the best of `repeat` runs of `number` calls."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def paired(ours, reference, number, repeat):
    """(ours, reference, ratio): seconds per call, each the best of `repeat` runs of `number`
    calls, the two timed in turns so that both sides get the machine's quiet moments; the
    ratio is of the two bests."""
    timer_ours, timer_ref = timeit.Timer(ours), timeit.Timer(reference)
    pairs = [(timer_ours.timeit(number) / number, timer_ref.timeit(number) / number)
             for _ in range(repeat)]
    best_ours, best_ref = min(a for a, _ in pairs), min(b for _, b in pairs)
    return best_ours, best_ref, best_ours / best_ref


# ---- the seed's programs, and their hand-written numpy equivalents ------------------------------

SIMPLE_RELU = textwrap.dedent('''
    def simple_relu(x):
        if rt.greater(x, 0):
            return x
        else:
            return 0
''')


_fresh = itertools.count()


def fresh_simple_relu():
    """A new simple_relu with its own code object, so no conversion cache can answer.

    Its source goes into `linecache` under its own file name, as for a function in a file.
    """
    n = next(_fresh)
    filename = f'<bench simple_relu {n}>'
    source = '\n' * (n % 1000) + SIMPLE_RELU  # also a distinct first line: a distinct code object
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {'rt': rt}
    exec(compile(source, filename, 'exec'), namespace)
    return namespace['simple_relu']


def two_matmuls(a, b, c, d):
    return rt.matmul(a, b) + rt.matmul(c, d)


def two_matmuls_numpy(a, b, c, d):
    return np.matmul(a, b) + np.matmul(c, d)


def chain(x):
    for _ in range(100):
        x = x + 1.0
    return x


def chain_numpy(x):
    one = np.float32(1.0)
    for _ in range(100):
        x = x + one
    return x


def peak_bytes(fn):
    """Peak memory allocated during one call of `fn` (tracemalloc; numpy reports to it)."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ---- one training step (examples/train_classifier.py) and its hand-written numpy twin ------------

def load_train_classifier():
    import importlib.util  # noqa: E402 - only this section loads the example
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples',
                        'train_classifier.py')
    spec = importlib.util.spec_from_file_location('train_classifier', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class NumpyMLP:
    """The example's model and Adam step, forward and backward written by hand in numpy."""

    def __init__(self, params, learning_rate=0.01, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
        self.params = [p.copy() for p in params]
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.lr, self.b1, self.b2, self.eps = learning_rate, beta_1, beta_2, epsilon
        self.t = 0

    def step(self, x, one_hot):
        w1, b1, w2, b2, w3, b3 = self.params
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        logits = h2 @ w3 + b3
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        s = e.sum(axis=1, keepdims=True)
        loss = -np.mean(np.sum(one_hot * (shifted - np.log(s)), axis=1))
        d = (e / s - one_hot) / len(x)
        grads = [None] * 6
        grads[4], grads[5] = h2.T @ d, d.sum(axis=0)
        d = (d @ w3.T) * (h2 > 0)
        grads[2], grads[3] = h1.T @ d, d.sum(axis=0)
        d = (d @ w2.T) * (h1 > 0)
        grads[0], grads[1] = x.T @ d, d.sum(axis=0)
        self.t += 1
        alpha = self.lr * np.sqrt(1 - self.b2 ** self.t) / (1 - self.b1 ** self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m += (g - m) * (1 - self.b1)
            v += (g * g - v) * (1 - self.b2)
            p -= alpha * m / (np.sqrt(v) + self.eps)
        return loss


def cpu_best(fn, number):
    """Process CPU seconds per call of `number` calls."""
    return timeit.timeit(fn, number=number, timer=time.process_time) / number


def training_rows(n, rep):
    """One Adam step of the example's MLP (2-64-64-3, batch 60): graph and eager against the
    hand-written numpy forward+backward+update."""
    example = load_train_classifier()
    x, labels = example.spirals(200)
    x, one_hot = x[:60], np.eye(3, dtype=np.float32)[labels[:60]]
    xt, yt = rt.constant(x), rt.constant(one_hot)
    model = example.MLP([2, 64, 64, 3])
    hand = NumpyMLP([v.numpy() for v in model.variables])
    step = example.make_train_step(model, rt.optimizers.Adam(0.01))
    step(xt, yt)

    def eager_step():
        rt.config.run_functions_eagerly(True)
        try:
            step(xt, yt)
        finally:
            rt.config.run_functions_eagerly(False)

    # Many short interleaved rounds timed in process CPU time, so that other load on the
    # machine hits the three alike (all three run on this thread).
    times = {'hand': [], 'graph': [], 'eager': []}
    for _ in range(4 * rep):
        times['hand'].append(cpu_best(lambda: hand.step(x, one_hot), n(25)))
        times['graph'].append(cpu_best(lambda: step(xt, yt), n(25)))
        times['eager'].append(cpu_best(eager_step, n(10)))
    reference, graph, eager = (min(times[k]) for k in ('hand', 'graph', 'eager'))
    return [('MLP train step (tape + Adam) graph / hand numpy', graph, reference, '<= 1.5'),
            ('MLP train step (tape + Adam) eager / hand numpy', eager, reference, '<= 3.0')]


def summary_rows(n, rep):
    """rt.summary.scalar in a traced step: what each call adds to the step (its WriteSummary op
    queues the value), and what the writer's flush costs per event (encode, checksum, write:
    on the writer's thread or at `flush()`, not in the step)."""
    writer = rt.summary.create_file_writer(tempfile.mkdtemp(), max_queue=10 ** 9,
                                           flush_millis=10 ** 9)
    counter = rt.Variable(0, dtype=rt.int64)
    calls = 10

    def traced(summaries):
        @ag.function
        def step(x):
            y = x * 2.0
            for _ in range(summaries):
                rt.summary.scalar('loss', y, step=counter)
            return y
        return step

    x = rt.constant(1.0)
    with writer.as_default():
        plain, logged = traced(0), traced(calls)
        plain(x), logged(x)
        number = n(2000)
        with_summaries, without, flushes = [], [], []
        for _ in range(rep):
            without.append(timeit.timeit(lambda: plain(x), number=number) / number)
            with_summaries.append(timeit.timeit(lambda: logged(x), number=number) / number)
            start = time.perf_counter()
            writer.flush()
            flushes.append((time.perf_counter() - start) / (number * calls))
    writer.close()
    per_call = (min(with_summaries) - min(without)) / calls
    return [('rt.summary.scalar in a traced step: added time per call', per_call,
             min(without), '<= 5 us', 'the step without it', False),
            ('rt.summary scalar event written by flush (encode, CRC32C, disk)', min(flushes),
             min(without), '(off the step)', 'the step without it', False)]


def measure(quick):
    scale = 0.2 if quick else 1.0
    rep = 3 if quick else 7
    n = lambda k: max(1, int(k * scale))  # noqa: E731
    rows = []

    def row(name, ours, reference, target, unit_ref='hand numpy', ratio=True):
        rows.append({'figure': name, 'ours_us': ours * 1e6, 'reference_us': reference * 1e6,
                     'reference': unit_ref, 'ratio': ours / reference if ratio else None,
                     'target': target})

    x = power_matrix()
    xv = x.numpy()
    power_graph = ag.function(power)
    power_graph(x, 100)
    hand = best(lambda: power_numpy(xv, 100), n(300), rep)
    row('power(x,100) graph / hand numpy', best(lambda: power_graph(x, 100), n(300), rep),
        hand, '<= 1.10')
    row('power(x,100) eager / hand numpy', best(lambda: power(x, 100), n(300), rep), hand,
        '<= 2.0')

    range_graph = ag.function(range_sum)
    limit = rt.constant(1000)
    range_graph(limit)
    row('rt.range(1000) sum loop graph / Python loop on numpy scalars',
        best(lambda: range_graph(limit), n(100), rep),
        best(lambda: range_sum_numpy(1000), n(100), rep), '<= 1.5', 'Python loop')

    relu = ag.function(fresh_simple_relu())
    scalar = rt.constant(1)
    relu(scalar)
    bare = best(lambda: np.maximum(1, 0), n(100000), rep)
    row('steady call of simple_relu on a scalar', best(lambda: relu(scalar), n(50000), rep),
        bare, '<= 5 us (~8x np.maximum)', 'bare np.maximum')

    def first_call():
        ag.function(fresh_simple_relu())(scalar)
    row('first call (convert + trace) of simple_relu', best(first_call, n(20), rep), bare,
        '<= 5000 us', 'bare np.maximum', ratio=False)

    def convert():
        ag.to_code(fresh_simple_relu())
    row('to_code(simple_relu)', best(convert, n(50), rep), bare, '<= 2000 us',
        'bare np.maximum', ratio=False)

    chain_graph = ag.function(chain, autograph=False)
    small = rt.constant(np.arange(10, dtype=np.float32))
    chain_graph(small)
    row('chain of 100 adds on 10 floats, graph / numpy loop (per op: µs / 100)',
        best(lambda: chain_graph(small), n(5000), rep),
        best(lambda: chain_numpy(small.numpy()), n(5000), rep), 'close to 1')

    big = [rt.random.uniform([200, 200], maxval=10, dtype=rt.int32) for _ in range(4)]
    big_np = [t.numpy() for t in big]
    parallel = ag.function(two_matmuls)
    parallel(*big)
    row('two independent 200x200 int32 matmuls, graph / hand numpy (thread pool)',
        best(lambda: parallel(*big), n(50), rep),
        best(lambda: two_matmuls_numpy(*big_np), n(50), rep), '< 1.0 on 2+ cores')

    for name, ours, reference, target in training_rows(n, rep):
        row(name, ours, reference, target)
    for name, ours, reference, target, unit_ref in bench_data.measure_data(quick):
        row(name, ours, reference, target, unit_ref)  # rt.data
    for name, ours, reference, target, unit, ratio in summary_rows(n, rep):
        row(name, ours, reference, target, unit, ratio)
    for name, ours, reference, target in bench_python.measure_python(paired, n, rep):
        row(name, ours, reference, target, 'the original')  # converted plain Python
    for workload in WORKLOADS:
        if not workload.seed:
            rows.extend(measure_workload(workload, n, rep))
    return rows


# The executors each workload runs on: column name -> `ag.function` options. A backend adds
# itself here (e.g. 'jit_compile=True': {'jit_compile': True}) and gets its own rows.
EXECUTORS = {'graph': {}}


def measure_workload(workload, n, rep):
    """Rows for one workload: each executor and plain Python, as ratios to hand numpy."""
    args, numpy_args = workload.arguments(), workload.numpy_arguments()
    numpy_fn = workload.numpy_program()
    expected = workload.numpy_program()(*numpy_args)
    rows = []

    def row(label, fn, target):
        ours, hand, ratio = paired(fn, lambda: numpy_fn(*numpy_args),
                                   max(1, n(workload.number) // 5), 5 * rep)
        rows.append({'figure': f'{workload.name}, {label} / hand numpy', 'ours_us': ours * 1e6,
                     'reference_us': hand * 1e6, 'reference': 'hand numpy', 'ratio': ratio,
                     'target': target})

    for label, options in EXECUTORS.items():
        compiled = ag.function(workload.program(), **options)
        np.testing.assert_allclose(np.asarray(compiled(*args)), expected, rtol=1e-5)
        row(label, lambda: compiled(*args), workload.target)
        if workload.memory:
            ours, theirs = (peak_bytes(lambda: compiled(*args)),
                            peak_bytes(lambda: numpy_fn(*numpy_args)))
            rows.append({'figure': f'{workload.name}, {label} peak memory (MB) / numpy\'s',
                         'ours_us': ours / 1e6, 'reference_us': theirs / 1e6,
                         'reference': 'hand numpy', 'ratio': ours / theirs, 'target': '<= 1.2'})
    if workload.python is not None:
        row('plain Python', lambda: workload.python(*numpy_args), '(reference)')
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--json', action='store_true', help='print the figures as JSON')
    parser.add_argument('--quick', action='store_true', help='fewer repeats (for tests)')
    parser.add_argument('--no-jit', action='store_true', help='skip the jit_compile=True table')
    parser.add_argument('--peers', default=os.environ.get('AUTOGRAPH_RT_BENCH_PEERS'),
                        help='a Python with JAX and PyTorch (a side venv) that times their '
                             'versions when this one has neither (default: '
                             '$AUTOGRAPH_RT_BENCH_PEERS)')
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as conversions:
        # the first calls below convert into an empty on-disk cache of converted code, as a
        # program's first run does (each fresh_simple_relu is a new function: no entry hits)
        own = 'AUTOGRAPH_CACHE' not in os.environ
        if own:
            os.environ['AUTOGRAPH_CACHE'] = conversions
        rows = measure(args.quick)
        jit_rows = [] if args.no_jit else measure_jit(args.quick, args.peers)
        if own:
            del os.environ['AUTOGRAPH_CACHE']
    if args.json:
        json.dump({'numpy': np.__version__, 'python': sys.version.split()[0], 'figures': rows,
                   'jit': jit_rows}, sys.stdout, indent=2)
        print()
        return
    print(f'numpy {np.__version__}, Python {sys.version.split()[0]}')
    print(f'{"figure":<72} {"ours µs":>10} {"ref µs":>10} {"ratio":>7}  target')
    for r in rows:
        ratio = f'{r["ratio"]:.2f}' if r['ratio'] is not None else '-'
        print(f'{r["figure"]:<72} {r["ours_us"]:>10.1f} {r["reference_us"]:>10.2f} {ratio:>7}  '
              f'{r["target"]}')
    if jit_rows:
        print_jit(jit_rows)


PEERS = (('jax', 'bench_jax'), ('torch', 'bench_torch'))  # column, tools module


def measure_jit(quick, peers_python=None):
    """The jit_compile=True table's rows (none without numba), with JAX's and torch.compile's
    columns measured in the same run: here, or by `peers_python` (a side venv's Python)."""
    try:
        import numba  # noqa: F401 - deferred: the jit table needs the [jit] extra
    except ImportError:
        return []
    rows = bench_jit.measure_jit(WORKLOADS, quick)
    for column, module in PEERS:
        figures = timing.peer(module, peers_python, quick)
        for row in rows[1:]:
            measured = figures.get(row['workload'])
            row[f'{column}_measured'] = measured is not None
            if measured is not None:
                # our ratios divide by this process's hand numpy; the peer's own numpy (another
                # build, in a side venv) is in `{column}_numpy_us`
                row[f'{column}_us'], row[f'{column}_numpy_us'], _, \
                    row[f'{column}_first_call_ms'] = measured
                row[f'{column}_ratio'] = row[f'{column}_us'] / row['numpy_us']
                row[f'jit_{column}_ratio'] = row['jit_us'] / row[f'{column}_us']
            elif column != 'jax':
                row[f'{column}_ratio'] = None
    return rows


def milliseconds(row, key):
    """A first call's ms ('-' when not measured: a quick run's new process)."""
    ms = row.get(key)
    return '-' if ms is None else f'{ms:.0f}'


def ratio(row, key, digits=3):
    value = row.get(key)
    return '-' if value is None else f'{value:.{digits}f}'


def microseconds(row, key):
    value = row.get(key)
    return '-' if value is None else f'{value:.1f}'


def print_jit(rows):
    print()
    print('jit_compile=True (numba): µs are medians; its ratios to hand numpy, plain Python, '
          'the default executor, JAX jit and torch.compile (measured in this run; JAX\'s from '
          'an earlier run when marked *); native after: ms from the first call until native '
          'code runs, in a process with an empty cache, then in a new one loading it, and the '
          'CPU ms of that process (all threads) over the same time; steady: µs a call in those '
          'two processes')
    print(f'{"workload":<46} {"jit µs":>8} {"/numpy":>7} {"/python":>7} {"/default":>8} '
          f'{"/JAX":>7} {"/torch":>7} {"JAX µs":>8} {"torch µs":>9} {"native after":>13} '
          f'{"CPU ms":>11} {"steady µs":>17}')
    startup, rows = rows[0], rows[1:]
    for r in rows:
        jax = ratio(r, 'jit_jax_ratio') if r.get('jax_measured') else \
            ('-' if r['jax_ratio'] is None else f'{r["jit_ratio"] / r["jax_ratio"]:.3f}*')
        native = f'{milliseconds(r, "jit_cold_native_ms")}/' \
                 f'{milliseconds(r, "jit_new_process_native_ms")}'
        native_cpu = f'{milliseconds(r, "jit_cold_native_cpu_ms")}/' \
                     f'{milliseconds(r, "jit_new_process_native_cpu_ms")}'
        steady = f'{microseconds(r, "jit_cold_steady_us")}/' \
                 f'{microseconds(r, "jit_cache_steady_us")}'
        print(f'{r["workload"]:<46} {r["jit_us"]:>8.2f} {r["jit_ratio"]:>7.3f} '
              f'{ratio(r, "jit_python_ratio"):>7} {r["jit_default_ratio"]:>8.3f} {jax:>7} '
              f'{ratio(r, "jit_torch_ratio"):>7} {microseconds(r, "jax_us"):>8} '
              f'{microseconds(r, "torch_us"):>9} {native:>13} {native_cpu:>11} {steady:>17}')
    print(f'{startup["workload"]}: {startup["jit_first_call_ms"]:.0f} ms')


if __name__ == '__main__':
    main()
