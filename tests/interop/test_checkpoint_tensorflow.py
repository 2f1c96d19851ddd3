"""Checkpoints both ways with real TensorFlow: tf.train.Checkpoint restores a Module and Adam's
slots that rt.train.Checkpoint saved, and the reverse (matched by object graph).

Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow installed; the fixture test
in tests/runtime/test_checkpoint.py reads a TensorFlow-made checkpoint without TensorFlow.
"""
import json
import os
import subprocess

import numpy as np
import pytest

import runtime as rt
from tests.runtime.test_checkpoint import Model, step

TF_PYTHON = os.environ.get('AUTOGRAPH_RT_TF_PYTHON')
pytestmark = pytest.mark.skipif(not TF_PYTHON, reason='AUTOGRAPH_RT_TF_PYTHON is not set')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = '''
import json, sys
import tensorflow as tf, keras
from tools.make_tf_checkpoint import Model  # the same Module as tests/runtime/test_checkpoint.py's
def step(m, opt):
  with tf.GradientTape() as t:
    loss = tf.reduce_sum(tf.matmul([[1., 1.]], m.dense.w) + m.dense.b) ** 2
  opt.apply_gradients(zip(t.gradient(loss, [m.dense.w, m.dense.b]), [m.dense.w, m.dense.b]))
def state(m, opt):
  return {'w': m.dense.w.numpy().tolist(), 'b': m.dense.b.numpy().tolist(),
          'count': int(m.extra[0].numpy()), 'iterations': int(opt.iterations.numpy()),
          'm': [v.numpy().tolist() for v in opt._momentums],
          'v': [v.numpy().tolist() for v in opt._velocities]}
m, opt = Model(), keras.optimizers.Adam(0.01)
'''

RESTORE = MODEL + '''
opt.build([m.dense.w, m.dense.b])
status = tf.train.Checkpoint(model=m, optimizer=opt).restore(sys.argv[1])
status.assert_existing_objects_matched()
print(json.dumps(state(m, opt)))
'''

SAVE = MODEL + '''
step(m, opt); step(m, opt); m.extra[0].assign(9)
tf.train.Checkpoint(model=m, optimizer=opt).save(sys.argv[1] + '/ckpt')
saved = state(m, opt)
step(m, opt)
print(json.dumps({'saved': saved, 'next': state(m, opt)}))
'''


def run_tf(script, arg):
    environment = {**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3', 'PYTHONPATH': ROOT}
    done = subprocess.run([TF_PYTHON, '-c', script, arg], capture_output=True, text=True,
                          timeout=300, env=environment)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_tensorflow_restores_a_module_and_adam_slots_saved_here(tmp_path):
    model, opt = Model(), rt.optimizers.Adam(0.01)
    step(model, opt)
    step(model, opt)
    model.extra[0].assign(11)
    path = rt.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / 'ckpt'))
    got = run_tf(RESTORE, path)
    np.testing.assert_allclose(got['w'], model.dense.w.numpy(), rtol=1e-6)
    np.testing.assert_allclose(got['b'], model.dense.b.numpy(), rtol=1e-6)
    assert got['count'] == 11 and got['iterations'] == 2
    for i, v in enumerate([model.dense.w, model.dense.b]):
        np.testing.assert_allclose(got['m'][i], opt.slot(v, 'm').numpy(), rtol=1e-6)
        np.testing.assert_allclose(got['v'][i], opt.slot(v, 'v').numpy(), rtol=1e-6)


def test_a_tensorflow_checkpoint_restores_here_and_training_continues_alike(tmp_path):
    got = run_tf(SAVE, str(tmp_path))
    saved, after = got['saved'], got['next']
    model, opt = Model(), rt.optimizers.Adam(0.01)
    status = rt.train.Checkpoint(model=model, optimizer=opt).restore(
        rt.train.latest_checkpoint(str(tmp_path)))
    np.testing.assert_allclose(model.dense.w.numpy(), saved['w'], rtol=1e-6)
    assert model.extra[0].numpy() == 9 and opt.iterations.numpy() == 2
    step(model, opt)  # the slots are made, and restored, in this step
    status.assert_consumed()
    np.testing.assert_allclose(model.dense.w.numpy(), after['w'], rtol=1e-5)
    np.testing.assert_allclose(opt.slot(model.dense.w, 'm').numpy(), after['m'][0], rtol=1e-5)
    np.testing.assert_allclose(opt.slot(model.dense.b, 'v').numpy(), after['v'][1], rtol=1e-5)
