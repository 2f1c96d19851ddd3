"""Timing shared by the benches: medians of rounds, and the peers' tables (JAX `jit`,
`torch.compile`) measured in this process or, where it lacks the peer, by another Python (a
side venv's) in a subprocess, so that one `tools/bench.py` run has every column.
"""
import importlib
import json
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def median_time(fn, number, repeat):
    """Seconds per call of `fn`: the median of `repeat` runs of `number` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return float(np.median(times))


def measure_versions(versions, finish, quick):
    """{workload: (µs, hand numpy µs, ratio, first call ms)} of a peer's `versions` ((name,
    function, its arguments, hand numpy function, its arguments)); `finish(result)` waits for
    an asynchronous result (JAX's `block_until_ready`)."""
    repeat = 3 if quick else 9
    results = {}
    for name, fn, args, numpy_fn, numpy_args in versions:
        start = time.perf_counter()
        finish(fn(*args))
        first = time.perf_counter() - start
        once = median_time(lambda: finish(fn(*args)), 1, 3)
        number = 2 if quick else max(1, int(0.02 / max(once, 1e-7)))
        ours = median_time(lambda: finish(fn(*args)), number, repeat)
        hand = median_time(lambda: numpy_fn(*numpy_args), 2 if quick else 10, repeat)
        results[name] = (ours * 1e6, hand * 1e6, ours / hand, first * 1e3)
    return results


def peer(module_name, python=None, quick=False):
    """{workload: (µs, its process's hand numpy µs, ratio, first call ms)} of the peer module
    `tools.<module_name>` (its `measure(quick)`): here when this Python has the peer, else
    run by `python` (`--json`), else {}."""
    module = importlib.import_module(f'tools.{module_name}')
    if module.available():
        return module.measure(quick)
    if not python:
        return {}
    done = subprocess.run([python, '-m', f'tools.{module_name}', '--json'] +
                          (['--quick'] if quick else []), capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, 'PYTHONPATH': ROOT})
    if done.returncode != 0:
        print(f'{module_name} with {python} failed:\n{done.stderr}', file=sys.stderr)
        return {}
    return {name: tuple(row) for name, row in json.loads(done.stdout).items()}


def peer_main(module, argv=None):
    """The command line of a peer module: its table, or its JSON (`--json`)."""
    argv = sys.argv[1:] if argv is None else argv
    results = module.measure('--quick' in argv)
    if '--json' in argv:
        print(json.dumps(results))
        return
    for name, (ours, hand, ratio, first) in results.items():
        print(f'{name:<46} {ours:10.2f} µs  numpy {hand:9.1f} µs  ratio {ratio:.3f}  '
              f'first call {first:.0f} ms')
