"""A graph restored from the on-disk cache in a new process runs the same native code as the
process that compiled it (docs/jit.md, *Compile cost and caching*).

Two processes run the same workloads one after the other with one initially empty cache, as a
user's first and second runs do: the first compiles, the second finds each graph in the
cache's index and loads its code without lowering it. Their steady calls are
compared by what they run, not by a clock: the native plan's record (`NativePlan.compiled`: the
generated source, numba's compiled variants, the `nogil` flag, the loops shared with the
helper thread), the Python calls one steady call makes (a default-executor fallback, a
kernel called in one process only or a variant compiled at call time would show there), and
the page faults of steady calls (none: memory a call frees is reused by the next).
"""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip('numba')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

SCRIPT = '''
import collections, dataclasses, json, resource, sys
import numpy as np
import autograph as ag
import runtime as rt
from runtime.executor import native
from tools import workloads


def accumulate(x):
    # four dynamic-size TensorArrays of 64 rows of 64x64 float32 (1 MiB each) at every call:
    # more than twice its largest block, which is all glibc's own thresholds adapt to
    lists = [rt.TensorArray(rt.float32, size=0, dynamic_size=True) for _ in range(4)]
    for i in rt.range(64):
        x = rt.tanh(x) * 0.5
        lists = [rows.write(i, x + k) for k, rows in enumerate(lists)]
    return rt.add_n([rt.reduce_sum(rows.stack()) for rows in lists])


WORKLOADS = [(w.name, w.program, w.arguments) for w in workloads.WORKLOADS] + [
    ('large lists', lambda: accumulate, lambda: (rt.constant(np.ones((64, 64), np.float32)),))]

report = {}
for index in map(int, sys.argv[1:]):
    name, program, arguments = WORKLOADS[index]
    args = arguments()
    function = ag.function(program(), jit_compile=True)
    function(*args)
    native.wait()
    for _ in range(3):
        function(*args)
    run = function.get_concrete_function(*args)._run
    plan = getattr(run, 'func', run)  # a partial holding the captures' values
    calls = collections.Counter()

    def count(frame, event, arg):
        if event == 'call':
            calls[frame.f_code.co_qualname] += 1
        elif event == 'c_call':
            calls[getattr(arg, '__qualname__', type(arg).__name__)] += 1

    sys.setprofile(count)
    for _ in range(5):
        function(*args)
    sys.setprofile(None)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        function(*args)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    report[name] = {'native': plan.native, 'compiled': list(dataclasses.astuple(plan.compiled)),
                    'calls': dict(calls), 'faults': faults / 10}
print(json.dumps(report))
'''

# the training step (variables written back, BLAS, no kernel call), the elementwise chain (a
# loop shared with the helper thread: a nogil function and a worker) and large lists (below)
WORKLOADS = (9, 7, 5)


def run_in_new_process(folder):
    """The report of SCRIPT run by a new process with the on-disk cache in `folder`."""
    script = folder / 'restored.py'  # a file: AutoGraph converts functions from their source
    script.write_text(SCRIPT)
    environment = {**os.environ, 'AUTOGRAPH_RT_JIT_CACHE': str(folder / 'jit'),
                   'AUTOGRAPH_RT_JIT_TIERED': '1', 'PYTHONPATH': ROOT}
    done = subprocess.run([sys.executable, str(script), *map(str, WORKLOADS)],
                          capture_output=True, text=True, env=environment, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_graph_restored_from_the_cache_runs_the_code_the_first_process_compiled(tmp_path):
    first, second = run_in_new_process(tmp_path), run_in_new_process(tmp_path)
    assert first.keys() == second.keys() and len(first) == len(WORKLOADS)
    for name, compiled in first.items():
        restored = second[name]
        assert compiled['native'] and restored['native'], name
        *code, was_indexed, was_restored = compiled['compiled']
        *restored_code, is_indexed, is_restored = restored['compiled']
        assert (was_restored, is_restored) == (False, True), name  # compiled, then loaded
        # found in the cache's index, not lowered again
        assert (was_indexed, is_indexed) == (False, True), name
        assert restored_code == code, name  # source, variants, nogil, shared loops
        assert restored['calls'] == compiled['calls'], name  # the same path at each call
        # memory freed by one call is reused by the next, in either process: glibc gives
        # large blocks back to the system unless told otherwise (or an earlier free happened
        # to raise its thresholds), and the next call faults their pages in again (~600 a
        # call for an RNN gradient's lists, 2.5x slower; 1,248 for these lists, 4x slower)
        assert compiled['faults'] < 100 and restored['faults'] < 100, (name, compiled, restored)
    chain = first['elementwise chain on 1M float32']['compiled']
    assert chain[2] is True and chain[3], 'the chain shares its loop with the helper thread'
