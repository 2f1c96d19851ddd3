"""Two-way interop checked against real TensorFlow, in a side environment (never a dependency).

Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow installed, e.g.
`AUTOGRAPH_RT_TF_PYTHON=/work/tfenv/bin/python python3 -m pytest -q tests/interop`.
The fixture tests in tests/runtime/test_serialization.py cover the TensorFlow -> here direction
without TensorFlow.
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
    assert len(got['library']) == 4  # the If branches, the loop condition and body
    for name, x, n in [('positive', [1.0, 2.0], 3), ('negative', [-1.0, -2.0], 2)]:
        ours = shifted(rt.constant(x), rt.constant(n)).numpy()
        np.testing.assert_array_equal(got[name]['output_0'], ours)
