"""TensorFlow reads rt.summary's event files as it reads its own: `summary_iterator` and
`tf.data.TFRecordDataset` give back our records byte for byte, and the summaries equal those
TensorFlow writes for the same calls (tags, steps, tensors, plugin metadata; PNGs compared as
pixels). Runs only when AUTOGRAPH_RT_TF_PYTHON names a Python with tensorflow, e.g.
`AUTOGRAPH_RT_TF_PYTHON=/work/tfenv/bin/python python3 -m pytest -q tests/interop`."""
import base64
import glob
import importlib.util
import json
import os
import subprocess

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.summary.records import read_records

TF_PYTHON = os.environ.get('AUTOGRAPH_RT_TF_PYTHON')
pytestmark = pytest.mark.skipif(not TF_PYTHON, reason='AUTOGRAPH_RT_TF_PYTHON is not set')

# The same program for both: `rt` is runtime or tensorflow, `function` ag.function or tf.function.
PROGRAM = '''
def log_everything(rt, function, logdir):
    import numpy as np
    writer = rt.summary.create_file_writer(logdir)

    @function
    def step_fn(x, step):
        rt.summary.scalar('loss', x * 2.0, step=step)
        rt.summary.histogram('spread', rt.stack([x, x + 1.0, x * 3.0]), step=step)
        return x

    with writer.as_default():
        for i in range(3):
            step_fn(rt.constant(0.5 + i), rt.constant(i, rt.int64))
        rt.summary.scalar('eager/nan', float('nan'), step=3)
        rt.summary.scalar('eager/inf', float('-inf'), step=3, description='minus infinity')
        rt.summary.histogram('eager/ints', np.arange(12), step=4, buckets=5)
        rt.summary.histogram('eager/one', [2.5], step=4)
        rt.summary.text('eager/text', ['a', 'b**c**'], step=5)
        pictures = np.linspace(0.0, 1.0, 2 * 3 * 4 * 3).reshape(2, 3, 4, 3)
        rt.summary.image('eager/pictures', pictures, step=6, max_outputs=1)
    writer.close()
'''

TF_SCRIPT = PROGRAM + '''
import json, sys, base64, glob
import tensorflow as tf
from google.protobuf import json_format
from tensorflow.core.util import event_pb2

def events(logdir):
    (path,) = glob.glob(logdir + '/events.out.tfevents.*')
    via_iterator = [e.SerializeToString() for e in tf.compat.v1.train.summary_iterator(path)]
    via_dataset = [r.numpy() for r in tf.data.TFRecordDataset(path)]
    shown = []
    for record in via_dataset:
        event = event_pb2.Event.FromString(record)
        for value in event.summary.value:
            if value.metadata.plugin_data.plugin_name == 'images':
                pngs = value.tensor.string_val[2:]
                pixels = [tf.io.decode_png(p).numpy().tolist() for p in pngs]
                del value.tensor.string_val[2:]
                value.tensor.string_val.append(json.dumps(pixels).encode())
        event.wall_time = 0
        event.ClearField('source_metadata')
        shown.append(json_format.MessageToDict(event))
    return {'records': [base64.b64encode(r).decode() for r in via_dataset],
            'iterator_matches': [e == event_pb2.Event.FromString(r).SerializeToString()
                                 for e, r in zip(via_iterator, via_dataset)],
            'count': [len(via_iterator), len(via_dataset)],
            'events': shown}

ours = events(sys.argv[1])
log_everything(tf, tf.function, sys.argv[2])
print(json.dumps({'ours': ours, 'theirs': events(sys.argv[2])}))
'''


def _tf(*args):
    done = subprocess.run([TF_PYTHON, '-c', TF_SCRIPT, *args], capture_output=True, text=True,
                          timeout=600, env={**os.environ, 'TF_CPP_MIN_LOG_LEVEL': '3'})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _close(a, b):
    """Events equal, numbers within float rounding (histogram edges come from linspace)."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert sorted(a) == sorted(b), (a, b)
        for key in a:
            _close(a[key], b[key])
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
    else:
        assert a == b, (a, b)


def test_tensorflow_reads_our_event_files_back_identically(tmp_path):
    program = tmp_path / 'program.py'  # a file, so that ag.function can read the source
    program.write_text(PROGRAM)
    spec = importlib.util.spec_from_file_location('summary_program', program)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ours = str(tmp_path / 'ours')
    module.log_everything(rt, ag.function, ours)
    got = _tf(ours, str(tmp_path / 'theirs'))
    (path,) = glob.glob(ours + '/events.out.tfevents.*')
    records = [base64.b64encode(r).decode() for r in read_records(path)]
    assert got['ours']['records'] == records  # the bytes we wrote, as TensorFlow reads them
    assert got['ours']['count'] == [len(records)] * 2
    assert all(got['ours']['iterator_matches'])
    mine, theirs = got['ours']['events'], got['theirs']['events']
    assert mine[0] == theirs[0] == {'fileVersion': 'brain.Event:2'}
    assert len(mine) == len(theirs)
    for a, b in zip(mine[1:], theirs[1:]):
        a_value, b_value = a['summary']['value'][0], b['summary']['value'][0]
        assert (a.get('step'), a_value['tag'], a_value['metadata']) == \
               (b.get('step'), b_value['tag'], b_value['metadata'])
        a_tensor, b_tensor = a_value['tensor'], b_value['tensor']
        if 'tensorContent' in b_tensor:  # numbers: compare the values
            dtype = {'DT_FLOAT': np.float32, 'DT_DOUBLE': np.float64}[b_tensor['dtype']]
            values = [np.frombuffer(base64.b64decode(t['tensorContent']), dtype)
                      for t in (a_tensor, b_tensor)]
            np.testing.assert_allclose(values[0], values[1], rtol=1e-12, equal_nan=True)
            a_tensor = dict(a_tensor, tensorContent=None)
            b_tensor = dict(b_tensor, tensorContent=None)
        _close(a_tensor, b_tensor)
