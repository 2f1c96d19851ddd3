"""Stateful functions saved here run in TensorFlow with the same results, every time.

TensorFlow's executor runs the ops of a function that do not depend on each other in any order,
so an exported function that reads and writes variables is right only with the automatic control
dependencies TensorFlow gives its own functions (operations on one resource in program order).
Each test runs the saved model in several fresh TensorFlow processes and compares every call's
results with this project's, on the saved module and on its reloaded copy.

Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow installed (as
tests/interop/test_tensorflow.py).
"""
import json
import os
import subprocess

import numpy as np
import pytest

import autograph as ag
import runtime as rt

TF_PYTHON = os.environ.get('AUTOGRAPH_RT_TF_PYTHON')
pytestmark = pytest.mark.skipif(not TF_PYTHON, reason='AUTOGRAPH_RT_TF_PYTHON is not set')

RUNS = 3      # fresh TensorFlow processes
REPEATS = 10  # each process runs the whole sequence of calls this many times on a fresh load

# (method, argument) in call order; each result is recorded
CALLS = [('update', 1.0), ('update', 2.0), ('reads_and_writes', 0.5), ('branch', 1.0),
         ('branch', -1.0), ('loop', 4), ('update', -3.0), ('swap', 0.0), ('reads_and_writes', 2.0),
         ('loop', 0), ('branch', 3.0)]

TF_SCRIPT = '''
import json, sys
import tensorflow as tf
calls = json.loads(sys.argv[2])
runs = []
for _ in range(int(sys.argv[3])):
    loaded = tf.saved_model.load(sys.argv[1])
    results = []
    for name, arg in calls:
        out = getattr(loaded, name)(tf.constant(arg, tf.int32 if isinstance(arg, int) else
                                                tf.float32))
        results.append(tf.nest.map_structure(lambda t: t.numpy().tolist(), out))
    results.append([loaded.count.numpy().tolist(), loaded.other.numpy().tolist()])
    runs.append(results)
print(json.dumps(runs))
'''


class Stateful(rt.Module):
    def __init__(self):
        super().__init__()
        self.count = rt.Variable(1.0)
        self.other = rt.Variable([1.0, 2.0])

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def update(self, n):
        self.count.assign(self.count + n)
        return self.count

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def reads_and_writes(self, n):
        before = self.count.read_value()
        self.count.assign_add(n)
        middle = self.count.read_value()
        self.count.assign_sub(2.0 * n)
        self.other.assign_add(rt.stack([n, -n]))
        after = self.count + 0.0
        self.other.assign(self.other * 2.0)
        return before, middle, after, self.other.read_value()

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def branch(self, x):
        if x > 0:
            self.count.assign(self.count * 2.0)
        else:
            self.count.assign_sub(1.0)
            self.other.assign_add([1.0, 1.0])
        return self.count.read_value() + rt.reduce_sum(self.other)

    @ag.function(input_signature=[rt.TensorSpec([], rt.int32)])
    def loop(self, n):
        for i in rt.range(n):
            self.count.assign_add(rt.cast(i, rt.float32))
            self.other.assign(self.other[::-1])
        return {'count': self.count.read_value(), 'other': self.other.read_value()}

    @ag.function(input_signature=[rt.TensorSpec([], rt.float32)])
    def swap(self, unused):
        first = self.other[0]
        self.other.assign(rt.stack([self.other[1], first]))
        self.count.assign(first)
        return self.other.read_value()


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return np.asarray(value).tolist()


def _run_here(obj):
    results = []
    for name, arg in CALLS:
        out = getattr(obj, name)(rt.constant(arg, rt.int32 if isinstance(arg, int) else
                                             rt.float32))
        results.append(_plain(out))
    results.append([_plain(obj.count.numpy()), _plain(obj.other.numpy())])
    return results


def test_stateful_functions_saved_here_give_the_same_results_in_tensorflow_every_time(tmp_path):
    export = str(tmp_path / 'stateful')
    ag.saved_model.save(Stateful(), export)
    expected = _run_here(Stateful())
    assert _run_here(ag.saved_model.load(export)) == expected
    for _ in range(RUNS):
        done = subprocess.run([TF_PYTHON, '-c', TF_SCRIPT, export, json.dumps(CALLS),
                               str(REPEATS)], capture_output=True, text=True, timeout=600,
                              env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
        assert done.returncode == 0, done.stderr[-3000:]
        for got in json.loads(done.stdout.strip().splitlines()[-1]):
            assert got == expected

