"""The `jit_compile=True` table of tools/bench.py: its WORKLOADS timed with native code.

`measure_jit(workloads)` times, for each workload, its hand-written numpy version, the default
executor and `jit_compile=True` in one run, and two first calls, each in a process of its own
after numba's start-up: *cold*, with an empty on-disk cache (nothing of the graph compiled
before: trace, lower, compile), then a *new process* loading what the cold one cached (a quick
run does neither: it times the first call in its own process, from the usual cache), after a
first row timing numba's start-up. Compilation is tiered (docs/jit.md): a first call whose
code is not cached runs the default executor while numba compiles in the background, so each
process also reports the time from the first call's start until native code runs, and the
steady time of its calls then: the process that compiled the graph and one that loaded it run
the same code, and should take the same time. The workloads are tools/workloads.py's; the
peers' versions live in tools/bench_jax.py and tools/bench_torch.py. From the checkout's root:

    python3 -m tools.bench_jit --first-call INDEX                # from the usual cache, ms
    python3 -m tools.bench_jit --first-call INDEX --empty-cache  # cold, ms
    python3 -m tools.bench_jit --first-call INDEX --until-native # + ms until native, steady µs,
                                                                 # CPU ms until native
    python3 -m tools.bench_jit --ops                             # each math op alone, µs

`measure_ops()` (`--ops`) times each float math op alone (exp, log, tanh, sin of float32 and
float64 on 1M elements, a new array each call) compiled and with the default executor,
alternated in one run.
"""
import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import numpy as np

import autograph as ag
import runtime as rt
from autograph.tracing.polymorphic_function import RetracingWarning
from tools.timing import median_time
from tools.workloads import WORKLOADS


def measure_jit(workloads, quick=False):
    """One dict a workload (a tools/workloads.py Workload): µs per call of numpy, the default
    executor and jit, their ratios, and the first calls of jit in ms, each in a new process: cold
    (`jit_first_call_ms`: trace + lower + compile into an empty cache) and from that cache
    (`jit_new_process_ms`), each with the ms from its start until native code runs
    (`jit_cold_native_ms`, `jit_new_process_native_ms`; the process's CPU time over the same
    span, all threads, in `jit_cold_native_cpu_ms` and `jit_new_process_native_cpu_ms`: the
    figure a loaded machine inflates least), after a first row timing numba's
    start-up. Times and ratios are medians over rounds that time the three back to back, with
    native code running (the background compile waited for)."""
    repeat = 3 if quick else 9
    rows = [numba_startup()]
    for workload in workloads:
        args, numpy_args = workload.arguments(), workload.numpy_arguments()
        default = ag.function(workload.program())
        expected = default(*args).numpy()
        expected_next = default(*args).numpy()  # a training step's second step
        # cold then from the cache, each in a process of its own, but for a quick run (the
        # tests'), which times its own first call and may load what an earlier run compiled
        with tempfile.TemporaryDirectory() as folder, \
                contextlib.nullcontext() if quick else cache_in(folder):
            if not quick:
                index = workload_index(workload)  # the subprocess's: in WORKLOADS
                first_call, cold_native, cold_steady, cold_cpu = first_call_in_new_process(
                    index, folder)
                new_process, new_process_native, cache_steady, new_process_cpu = \
                    first_call_in_new_process(index, folder)
            start = time.perf_counter()
            jit = ag.function(workload.program(), jit_compile=True)
            got = jit(*args).numpy()
            if quick:
                first_call = (time.perf_counter() - start) * 1e3
                new_process = cold_native = new_process_native = None
                cold_cpu = new_process_cpu = None
                cold_steady = cache_steady = None
            wait_for_native_code()
            got_native = jit(*args).numpy()
        # atol: float32 transcendental functions differ by an ulp between numba and numpy,
        # which a recurrence's gradient amplifies to ~1e-6 of its scale (docs/jit.md)
        for got, expected in ((got, expected), (got_native, expected_next)):
            if not np.allclose(got, expected, rtol=1e-5, atol=2e-6 * np.abs(expected).max()) \
                    or got.dtype != expected.dtype:
                raise AssertionError(f'{workload.name}: jit gives {got!r}, the default '
                                     f'executor {expected!r}')
        numpy_fn = workload.numpy_program()
        numpy_call = lambda: numpy_fn(*numpy_args)  # noqa: E731
        once = median_time(numpy_call, 1, 3)
        number = 2 if quick else max(1, int(0.01 / max(once, 1e-7)))
        jit_number = number if quick else max(1, int(0.01 / max(once / 20, 1e-7)))
        python = workload.python
        python_call = (lambda: python(*numpy_args)) if python else (lambda: None)
        rounds = []  # timed back to back, so load on the machine hits them alike
        for _ in range(repeat):
            rounds.append((median_time(numpy_call, number, 1),
                           median_time(lambda: default(*args), number, 1),
                           median_time(lambda: jit(*args), jit_number, 1),
                           median_time(python_call, number, 1)))
        hand, default_time, jit_time, python_time = (float(np.median(column))
                                                     for column in zip(*rounds))
        rows.append({
            'workload': workload.name,
            'numpy_us': hand * 1e6,
            'default_us': default_time * 1e6,
            'jit_us': jit_time * 1e6,
            'python_us': python_time * 1e6 if python else None,
            'default_ratio': float(np.median([d / h for h, d, _, _ in rounds])),
            'jit_ratio': float(np.median([j / h for h, _, j, _ in rounds])),
            'jit_default_ratio': float(np.median([j / d for _, d, j, _ in rounds])),
            'jit_python_ratio': float(np.median([j / p for _, _, j, p in rounds]))
            if python else None,
            'jit_first_call_ms': first_call,
            'jit_cold_native_ms': cold_native,
            'jit_cold_native_cpu_ms': cold_cpu,
            'jit_cold_steady_us': cold_steady,
            'jit_new_process_ms': new_process,
            'jit_new_process_native_ms': new_process_native,
            'jit_new_process_native_cpu_ms': new_process_cpu,
            'jit_cache_steady_us': cache_steady,
            'jax_ratio': workload.jax_ratio,
        })
    return rows


OPS = ('exp', 'log', 'tanh', 'sin')
OPS_SIZE = 1_000_000


def measure_ops(quick=False, size=OPS_SIZE):
    """One dict an op of OPS and a float dtype: µs per call of `rt.math.<op>` on `size`
    elements (in (0.01, 4), log's domain) with the default executor and compiled, best and
    median of rounds timing the two back to back, and the median of their ratios."""
    repeat, number = (2, 1) if quick else (15, 5)
    values = np.random.default_rng(0).uniform(0.01, 4.0, size)
    functions = {name: (ag.function(getattr(rt.math, name)),
                        ag.function(getattr(rt.math, name), jit_compile=True)) for name in OPS}
    rows = []
    with warnings.catch_warnings():  # rt.math's ops share one code object: not a retrace
        warnings.simplefilter('ignore', RetracingWarning)
        for dtype in ('float32', 'float64'):
            x = rt.constant(values.astype(dtype))
            for name, (default, jit) in functions.items():
                expected = default(x).numpy()
                jit(x)
                wait_for_native_code()
                got = jit(x).numpy()
                if not np.allclose(got, expected, rtol=1e-6, atol=0) or \
                        got.dtype != expected.dtype:
                    raise AssertionError(f'{name} {dtype}: jit gives {got!r}, the default '
                                         f'executor {expected!r}')
                rounds = [(median_time(lambda: default(x), number, 1),
                           median_time(lambda: jit(x), number, 1)) for _ in range(repeat)]
                defaults, jits = (np.array(column) * 1e6 for column in zip(*rounds))
                rows.append({'op': f'{name} {dtype}', 'default_us': float(np.median(defaults)),
                             'jit_us': float(np.median(jits)),
                             'default_best_us': float(defaults.min()),
                             'jit_best_us': float(jits.min()),
                             'ratio': float(np.median(jits / defaults))})
    return rows


def print_ops(rows):
    print(f'each op alone on {OPS_SIZE:,} elements, µs (median, best), jit / default (median)')
    print(f'{"op":<16} {"default":>16} {"jit":>16} {"jit/default":>11}')
    for r in rows:
        print(f'{r["op"]:<16} {r["default_us"]:>8.0f} {r["default_best_us"]:>7.0f} '
              f'{r["jit_us"]:>8.0f} {r["jit_best_us"]:>7.0f} {r["ratio"]:>11.2f}')


def workload_index(workload):
    """The index of `workload` in WORKLOADS, which `--first-call` takes (not its
    position in the list `measure_jit` was given, which may be a part of it)."""
    names = [w.name for w in WORKLOADS]
    if workload.name not in names:
        raise ValueError(f'{workload.name!r} is not one of WORKLOADS, which a new process '
                         f'runs by index')
    return names.index(workload.name)


def wait_for_native_code():
    """Until the background compiles the first calls started are done."""
    # deferred: the first call imports the native backend, and its time counts
    from runtime.executor import native
    native.wait()


def wait_until_native(jit, args):
    """Until calls of `jit` on `args` run native code (its plan's `when_native`; a shared
    loop's worker for the helper thread may still be compiling then)."""
    run = jit.get_concrete_function(*args)._run
    plan = getattr(run, 'func', run)  # a graph with captures: partial(plan, captured values)
    ready = threading.Event()
    plan.when_native(lambda _: ready.set())
    # deferred: the first call imports the native backend, and its time counts
    from runtime.executor import native
    deadline = time.perf_counter() + 600
    while not ready.wait(timeout=0.05):
        if native.wait(timeout=0) and not ready.is_set():
            jit(*args)  # no compile under way: a failed one raises here, else this starts one
        if time.perf_counter() > deadline:
            raise TimeoutError('native code was not ready after 10 minutes')


def numba_startup():
    """Once per process: importing numba and its first compile, which no cache saves."""
    start = time.perf_counter()
    import numba  # deferred: measured here
    numba.njit(lambda n: n + 1)(1)
    return {'workload': 'numba import + first compile (once a process)',
            'jit_first_call_ms': (time.perf_counter() - start) * 1e3}


def cache_environment(folder):
    """The variables that put both on-disk caches in `folder`: jit_compile=True's native code
    and the converted code (autograph/compiler/disk_cache.py), so that a cold first call
    converts as well as compiles."""
    return {'AUTOGRAPH_RT_JIT_CACHE': folder,
            'AUTOGRAPH_CACHE': os.path.join(folder, 'conversions')}


@contextlib.contextmanager
def cache_in(folder):
    """Both on-disk caches in `folder` for the block."""
    variables = cache_environment(folder)
    before = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def first_call_in_new_process(index, folder):
    """(ms of the first call of WORKLOADS[index] in a new process whose cache is `folder`, ms
    from its start until native code runs, µs of a steady call there then, CPU ms of the
    process (all threads) from the first call's start until native code runs)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # Python's bytecode caches in the folder too, written whatever the environment says: the
    # later process imports the modules a first call imports as an installed package does
    environment = {**os.environ, **cache_environment(folder), 'PYTHONPATH': root,
                   'PYTHONPYCACHEPREFIX': os.path.join(folder, 'bytecode')}
    environment.pop('PYTHONDONTWRITEBYTECODE', None)
    out = subprocess.run([sys.executable, '-m', 'tools.bench_jit', '--first-call', str(index),
                          '--until-native'],
                         check=True, capture_output=True, text=True, env=environment).stdout
    first, until_native, steady, cpu = map(float, out.split()[-4:])
    return first, until_native, steady, cpu


def main(argv=None):
    parser = argparse.ArgumentParser(description='the first call of one bench workload')
    parser.add_argument('--first-call', type=int, help='index in WORKLOADS')
    parser.add_argument('--ops', action='store_true', help='time each math op alone (µs)')
    parser.add_argument('--empty-cache', action='store_true',
                        help='cold: compile into an empty on-disk cache (a temp dir)')
    parser.add_argument('--until-native', action='store_true',
                        help='also print the ms from the first call until native code runs, '
                             'the µs of a steady call then, and the CPU ms of the process '
                             'until native code runs')
    options = parser.parse_args(argv)
    if options.ops:
        print_ops(measure_ops())
        return
    if options.first_call is None:
        parser.error('give --first-call INDEX or --ops')
    numba_startup()
    workload = WORKLOADS[options.first_call]
    args = workload.arguments()
    with tempfile.TemporaryDirectory() as folder, \
            cache_in(folder) if options.empty_cache else contextlib.nullcontext():
        # created before the clock starts, as a decorator is when its module is imported (the
        # first `ag.function` imports autograph's tracing modules: ~40 ms of CPU here)
        jit = ag.function(workload.program(), jit_compile=True)
        start, start_cpu = time.perf_counter(), time.process_time()
        jit(*args)
        first_call = (time.perf_counter() - start) * 1e3
        wait_until_native(jit, args)
        jit(*args)
        until_native = (time.perf_counter() - start) * 1e3
        until_native_cpu = (time.process_time() - start_cpu) * 1e3
        wait_for_native_code()  # what the background thread still does (a helper's workers)
        if not options.until_native:
            print(f'{first_call:.1f}')
            return
        once = median_time(lambda: jit(*args), 1, 3)
        steady = median_time(lambda: jit(*args), max(1, int(0.01 / max(once, 1e-7))), 9)
        print(f'{first_call:.1f} {until_native:.1f} {steady * 1e6:.3f} {until_native_cpu:.1f}')


if __name__ == '__main__':
    main()
