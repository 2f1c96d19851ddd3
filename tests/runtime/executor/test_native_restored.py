"""A graph restored from the on-disk cache in a new process runs the same native code as the
process that compiled it (docs/jit.md, *Compile cost and caching*).

Two processes run the same workloads one after the other with one initially empty cache, as a
user's first and second runs do: the first compiles, the second loads. Their steady calls are
compared by what they run, not by a clock: the native plan's record (`NativePlan.compiled`: the
generated source, numba's compiled variants, the `nogil` flag, the loops shared with the
helper thread) and the Python calls one steady call makes (a default-executor fallback, a
kernel called in one process only or a variant compiled at call time would show there).
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
import collections, dataclasses, json, sys
import autograph as ag
from runtime.executor import native
from tools import workloads

report = {}
for index in map(int, sys.argv[1:]):
    workload = workloads.WORKLOADS[index]
    args = workload.arguments()
    function = ag.function(workload.program(), jit_compile=True)
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
    report[workload.name] = {'native': plan.native,
                             'compiled': list(dataclasses.astuple(plan.compiled)),
                             'calls': dict(calls)}
print(json.dumps(report))
'''

# the training step (variables written back, BLAS, kernels none) and the elementwise chain
# (a loop shared with the helper thread: a nogil function and a worker)
WORKLOADS = (7, 5)


def run_in_new_process(cache):
    environment = {**os.environ, 'AUTOGRAPH_RT_JIT_CACHE': str(cache),
                   'AUTOGRAPH_RT_JIT_TIERED': '1', 'PYTHONPATH': ROOT}
    out = subprocess.run([sys.executable, '-c', SCRIPT, *map(str, WORKLOADS)], check=True,
                         capture_output=True, text=True, env=environment, cwd=ROOT).stdout
    return json.loads(out.splitlines()[-1])


def test_a_graph_restored_from_the_cache_runs_the_code_the_first_process_compiled(tmp_path):
    first, second = run_in_new_process(tmp_path), run_in_new_process(tmp_path)
    assert first.keys() == second.keys() and len(first) == len(WORKLOADS)
    for name, compiled in first.items():
        restored = second[name]
        assert compiled['native'] and restored['native'], name
        *code, was_restored = compiled['compiled']
        *restored_code, is_restored = restored['compiled']
        assert (was_restored, is_restored) == (False, True), name  # compiled, then loaded
        assert restored_code == code, name  # source, variants, nogil, shared loops
        assert restored['calls'] == compiled['calls'], name  # the same path at each call
    chain = first['elementwise chain on 1M float32']['compiled']
    assert chain[2] is True and chain[3], 'the chain shares its loop with the helper thread'
