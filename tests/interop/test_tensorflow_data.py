"""Our GraphDefs of dataset pipelines, imported and run by real TensorFlow (a side environment,
never a dependency): the same op types, attrs, inputs and library functions, the same values.

Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow installed.
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
D = rt.data.Dataset

TF_SCRIPT = '''
import json, sys
import numpy as np
import tensorflow as tf
from google.protobuf import text_format
cases = json.load(open(sys.argv[1]))
out = {}
for name, case in cases.items():
    graph_def = text_format.Parse(case['graph_def'], tf.compat.v1.GraphDef())
    g = tf.Graph()
    with g.as_default():
        tf.graph_util.import_graph_def(graph_def, name='')
    feeds = {k + ':0': np.asarray(v, dtype=case['dtypes'][k]) for k, v in case['feeds'].items()}
    with tf.compat.v1.Session(graph=g) as session:
        values = session.run([t + ':0' for t in case['outputs']], feeds)
    out[name] = [np.asarray(v).tolist() for v in values]
print(json.dumps(out))
'''


def total_of_a_pipeline(n):
    ds = D.range(n).map(lambda x: x * 2).filter(lambda x: x > 2).batch(2).shuffle(3, seed=1)
    return ds.reduce(rt.constant(0, rt.int64), lambda s, x: s + rt.reduce_sum(x))


def slices_padded_and_repeated(x):
    ds = D.from_tensor_slices(x).map(lambda v: rt.fill([rt.cast(v, rt.int32)], v))
    ds = ds.padded_batch(2).unbatch().repeat(2).skip(1).take(5)
    return ds.reduce(rt.constant(0.0), lambda s, v: s + rt.reduce_sum(v))


def zipped_enumerated_concatenated(n):
    ds = D.zip((D.range(n), D.range(n).map(lambda x: x * x))).enumerate(3)
    ds = ds.map(lambda i, pair: i * 100 + pair[0] + pair[1])
    ds = ds.concatenate(D.range(2))
    return ds.reduce(rt.constant(0, rt.int64), lambda s, x: s * 2 + x)


def scanned_and_flat_mapped(n):
    ds = D.range(n).scan(rt.constant(0, rt.int64), lambda s, x: (s + x, s))
    ds = ds.flat_map(lambda x: D.from_tensors(x).repeat(2)).take_while(lambda x: x < 10)
    return ds.reduce(rt.constant(0, rt.int64), lambda s, x: s * 3 + x)


def interleaved_and_iterated(n):
    ds = D.range(1, n).interleave(lambda x: D.range(x * 10, x * 10 + x), cycle_length=2,
                                  block_length=2).prefetch(2)
    it = iter(ds)
    first = it.get_next()
    return first, it.get_next(), ds.cardinality()


def loop_with_break_and_continue(n):
    total = rt.constant(0, rt.int64)
    for x in D.range(n).map(lambda v: v + 1):
        if x % 3 == 0:
            continue
        if total > 20:
            break
        total += x
    return total


CASES = {
    'loop_with_break_and_continue': (loop_with_break_and_continue, [np.int64(20)]),
    'total_of_a_pipeline': (total_of_a_pipeline, [np.int64(7)]),
    'slices_padded_and_repeated': (slices_padded_and_repeated,
                                   [np.array([1.0, 3.0, 2.0], np.float32)]),
    'zipped_enumerated_concatenated': (zipped_enumerated_concatenated, [np.int64(4)]),
    'scanned_and_flat_mapped': (scanned_and_flat_mapped, [np.int64(6)]),
    'interleaved_and_iterated': (interleaved_and_iterated, [np.int64(4)]),
}


def test_tensorflow_imports_and_runs_our_dataset_graphs(tmp_path):
    cases, ours = {}, {}
    for name, (fn, args) in CASES.items():
        function = ag.function(fn)
        concrete = function.get_concrete_function(*args)
        graph = concrete.graph
        names = concrete.parameter_names
        cases[name] = {
            'graph_def': str(graph.as_graph_def()),
            'feeds': {p: a.tolist() for p, a in zip(names, args)},
            'dtypes': {p: str(a.dtype) for p, a in zip(names, args)},
            'outputs': [t.name.rsplit(':', 1)[0] for t in graph.outputs]}
        result = function(*args)
        ours[name] = [np.asarray(v).tolist() for v in rt.nest.flatten(result)]
    path = tmp_path / 'cases.json'
    path.write_text(json.dumps(cases))
    done = subprocess.run([TF_PYTHON, '-c', TF_SCRIPT, str(path)], capture_output=True,
                          text=True, timeout=600, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3'))
    assert done.returncode == 0, done.stderr[-3000:]
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    assert theirs == ours
