"""Two-way interop checked against real TensorFlow, in a side environment (never a dependency).

Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow installed, e.g.
`AUTOGRAPH_RT_TF_PYTHON=/work/tfenv/bin/python python3 -m pytest -q tests/interop`.
The fixture tests in tests/runtime/graph/test_serialization.py cover the TensorFlow -> here
direction without TensorFlow.
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

TF_SCRIPT = '''
import json, sys
import tensorflow as tf
from tensorflow.core.protobuf import saved_model_pb2
saved = saved_model_pb2.SavedModel()
with open(sys.argv[1] + '/saved_model.pb', 'rb') as f:
    saved.ParseFromString(f.read())
meta = saved.meta_graphs[0]
loaded = tf.saved_model.load(sys.argv[1])
serve = loaded.signatures['serving_default']
out = {'tags': list(meta.meta_info_def.tags), 'signatures': sorted(meta.signature_def),
       'library': sorted(f.signature.name for f in meta.graph_def.library.function)}
for name, x, n in [('positive', [1.0, 2.0], 3), ('negative', [-1.0, -2.0], 2)]:
    result = serve(x=tf.constant(x), n=tf.constant(n))
    out[name] = {k: v.numpy().tolist() for k, v in result.items()}
print(json.dumps(out))
'''


@ag.function(input_signature=[rt.TensorSpec([None], rt.float32), rt.TensorSpec([], rt.int32)])
def shifted(x, n):
    if rt.reduce_sum(x) > 0:
        y = x * 2.0
    else:
        y = -x
    i = rt.constant(0)
    while i < n:
        y = y + 1.0
        i += 1
    return y


def test_tensorflow_loads_and_runs_a_saved_function(tmp_path):
    export = str(tmp_path / 'shifted')
    ag.saved_model.save(shifted, export)
    done = subprocess.run([TF_PYTHON, '-c', TF_SCRIPT, export], capture_output=True, text=True,
                          timeout=300, env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got['tags'] == ['serve'] and got['signatures'] == ['serving_default']
    # the If branches, the loop condition and body, the function and its signature wrapper
    assert len(got['library']) == 6
    for name, x, n in [('positive', [1.0, 2.0], 3), ('negative', [-1.0, -2.0], 2)]:
        ours = shifted(rt.constant(x), rt.constant(n)).numpy()
        np.testing.assert_array_equal(got[name]['output_0'], ours)


TF_MODULE_SCRIPT = '''
import json, sys
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
x = tf.constant([[1.0, -1.0, 2.0]])
out = {'scale': loaded.scale.numpy().tolist(), 'offset': float(loaded.inner.offset.numpy()),
       'trainable': loaded.scale.trainable, 'signatures': sorted(loaded.signatures),
       'serve': loaded.signatures['serving_default'](x=x)['output_0'].numpy().tolist(),
       'call': loaded(x).numpy().tolist()}
out['count'] = float(loaded.count.numpy())  # each call added 1
loop = loaded.loop(tf.constant(3))
out['loop'] = {k: v.numpy().tolist() for k, v in loop.items()}
loaded.scale.assign([0.5, 0.5, 0.5])
out['after_assign'] = loaded(x).numpy().tolist()
print(json.dumps(out))
'''


class Counter(rt.Module):
    def __init__(self):
        super().__init__()
        self.count = rt.Variable(0.0)
        self.scale = rt.Variable([1.0, 2.0, 3.0])
        self.inner = rt.Module(name='inner')
        self.inner.offset = rt.Variable(10.0)
        self.shift = rt.constant([0.0, 1.0, 0.0])  # a captured constant

    @ag.function(input_signature=[rt.TensorSpec([None, 3], rt.float32)])
    def __call__(self, x):
        self.count.assign_add(1.0)
        y = x * self.scale + self.shift
        if rt.reduce_sum(y) > 0:
            y = y * 2.0
        return y

    @ag.function
    def loop(self, n):
        i = rt.zeros([], n.dtype)
        total = rt.constant(0.0)
        while i < n:
            total += self.count + self.inner.offset
            i += 1
        return {'total': total, 'steps': i}


def test_tensorflow_restores_a_module_saved_here_with_its_variables(tmp_path):
    module = Counter()
    module.loop(rt.constant(3))
    export = str(tmp_path / 'counter')
    ag.saved_model.save(module, export)
    done = subprocess.run([TF_PYTHON, '-c', TF_MODULE_SCRIPT, export], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    x = rt.constant([[1.0, -1.0, 2.0]])
    assert got['scale'] == [1.0, 2.0, 3.0] and got['offset'] == 10.0 and got['trainable']
    assert got['signatures'] == ['serving_default']
    np.testing.assert_array_equal(got['serve'], module(x).numpy())
    np.testing.assert_array_equal(got['call'], module(x).numpy())
    assert got['count'] == 2.0
    assert got['loop'] == {'total': 36.0, 'steps': 3}
    module.scale.assign([0.5, 0.5, 0.5])
    np.testing.assert_array_equal(got['after_assign'], module(x).numpy())


TF_OUTPUT_NAMES_SCRIPT = '''
import json, sys
from tensorflow.python.framework import op_def_registry
names = {}
for op in json.loads(sys.stdin.read()):
    found = op_def_registry.get(op)
    if found is not None:
        names[op] = [a.name for a in found.output_arg]
print(json.dumps(names))
'''


def test_every_ops_output_arg_names_are_tensorflows():
    # A FunctionDef refers to a node's outputs as `node:<output arg>:<index>`, so the functions
    # saved here load in TensorFlow only when these names are TensorFlow's.
    from runtime.ops.registry import REGISTRY
    ours = {name: [opdef.outputs] if isinstance(opdef.outputs, str) else list(opdef.outputs)
            for name, opdef in REGISTRY.items()}
    done = subprocess.run([TF_PYTHON, '-c', TF_OUTPUT_NAMES_SCRIPT], input=json.dumps(
        sorted(ours)), capture_output=True, text=True, timeout=300,
        env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert done.returncode == 0, done.stderr[-3000:]
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(theirs) > 100
    # Example parsing handles dense features only: ParseExampleV2 declares its dense outputs,
    # as TensorFlow's sparse and ragged output lists are empty here (out of scope).
    assert ours['ParseExampleV2'] == ['dense_values'] and 'dense_values' in theirs.get(
        'ParseExampleV2', ['dense_values'])
    # Known: ParseSequenceExampleV2's outputs are one list here, where TensorFlow names the
    # context and feature-list outputs apart; a saved function that parses sequence examples
    # does not load in TensorFlow yet.
    known = {'ParseExampleV2', 'ParseSequenceExampleV2'}
    assert {op: (ours[op], names) for op, names in theirs.items()
            if ours[op] != names and op not in known} == {}


TF_CUSTOM_GRADIENT = '''
import sys
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
v = tf.Variable(2.0)
with tf.GradientTape() as t:
    output = loaded.call_custom_grad(v * v)
print(float(t.gradient(output, v)))
'''


def test_tensorflow_uses_a_custom_gradient_saved_here(tmp_path):
    @rt.custom_gradient
    def clip_gradients(y):
        def backward(dy):
            return rt.clip_by_norm(dy, 0.5)
        return y, backward

    class Model(rt.Module):
        @ag.function(input_signature=[rt.TensorSpec(None)])
        def call_custom_grad(self, x):
            return clip_gradients(x)
    export = str(tmp_path / 'custom')
    ag.saved_model.save(Model(), export)
    done = subprocess.run([TF_PYTHON, '-c', TF_CUSTOM_GRADIENT, export], capture_output=True,
                          text=True, timeout=300, env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert done.returncode == 0, done.stderr[-3000:]
    assert float(done.stdout.strip().splitlines()[-1]) == 2.0  # the clipped gradient, as here
