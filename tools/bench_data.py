#!/usr/bin/env python3
"""The rt.data figures of tools/bench.py: one epoch of

    from_tensor_slices((X[60000, 784] float32, y int64)).shuffle(10000, seed=1)
        .map(lambda x, y: ((x - 0.5) * 2.0, y)).batch(128)

against TensorFlow (run in the same bench run by the Python that AUTOGRAPH_RT_TF_PYTHON names,
a side venv with tensorflow; else the issue's figure) and a hand-written numpy generator doing
the same work; the same map after batching; and the peak RSS of epochs over a 500 MB array (in
a fresh process).

    PYTHONPATH=. python3 tools/bench_data.py [--quick]
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

ROWS, FEATURES, BATCH, BUFFER = 60000, 784, 128, 10000
TF_EPOCH_RECORDED = 2.5  # seconds, TensorFlow 2.21 on 2 cores (measured once), used without TF here



def pipeline(data, x, y, map_first=True):
    """The issue's pipeline with `data` = rt.data or tf.data (or the map after batching)."""
    ds = data.Dataset.from_tensor_slices((x, y)).shuffle(BUFFER, seed=1)

    def scale(x, y):
        return (x - 0.5) * 2.0, y
    return ds.map(scale).batch(BATCH) if map_first else ds.batch(BATCH).map(scale)


def epoch(ds):
    start = time.perf_counter()
    for _ in ds:
        pass
    return time.perf_counter() - start


def best_epoch(ds, repeat):
    return min(epoch(ds) for _ in range(repeat))


def arrays(rows):
    rng = np.random.default_rng(0)
    return (rng.random((rows, FEATURES), dtype=np.float32),
            rng.integers(0, 10, rows).astype(np.int64))


# Run by TensorFlow's Python: this file needs only numpy at import.
TF_SCRIPT = '''
import json, sys
import tensorflow as tf
from tools import bench_data
x, y = bench_data.arrays(bench_data.ROWS)
print(json.dumps(bench_data.best_epoch(bench_data.pipeline(tf.data, x, y), int(sys.argv[1]))))
'''

RSS_SCRIPT = '''
import resource, sys
import numpy as np
import runtime as rt
rows = int(sys.argv[1])
x = np.ones((rows, 784), np.float32)
y = np.zeros(rows, np.int64)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ds = rt.data.Dataset.from_tensor_slices((x, y)).shuffle(10000, seed=1).batch(128).prefetch(2)
for _ in range(2):
    for _ in ds:
        pass
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(x.nbytes, before * 1024, after * 1024)
'''


def numpy_epoch(x, y, seed=1):
    """The hand-written generator: a shuffled order, then batches gathered and scaled."""
    order = np.random.default_rng(seed).permutation(len(x))
    for start in range(0, len(x), BATCH):
        index = order[start:start + BATCH]
        yield (x[index] - 0.5) * 2.0, y[index]


def tensorflow_epoch(repeat):
    """TensorFlow's best epoch in seconds, run by AUTOGRAPH_RT_TF_PYTHON; None without it."""
    python = os.environ.get('AUTOGRAPH_RT_TF_PYTHON')
    if not python:
        return None
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL='3', PYTHONPATH=root)
    done = subprocess.run([python, '-c', TF_SCRIPT, str(repeat)], capture_output=True,
                          text=True, env=env, timeout=600)
    if done.returncode != 0:
        print(f'TensorFlow epoch failed: {done.stderr[-500:]}', file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def peak_rss(rows):
    """(array bytes, max RSS before the epochs, max RSS after two epochs), in a fresh process."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    done = subprocess.run([sys.executable, '-c', RSS_SCRIPT, str(rows)], capture_output=True,
                          text=True, env=env, timeout=600, check=True)
    return [int(v) for v in done.stdout.split()]


def measure_data(quick=False):
    """The rows tools/bench.py prints: (figure, ours s, reference s, target, reference name)."""
    import runtime as rt
    repeat = 2 if quick else 3
    x, y = arrays(ROWS // 10 if quick else ROWS)
    ours = best_epoch(pipeline(rt.data, x, y), repeat)
    after = best_epoch(pipeline(rt.data, x, y, map_first=False), repeat)
    hand = min(epoch(numpy_epoch(x, y)) for _ in range(repeat))
    tf_epoch = None if quick else tensorflow_epoch(repeat)
    tf_label = 'TensorFlow (this run)' if tf_epoch is not None else 'TensorFlow (recorded)'
    rows = [('rt.data epoch: slices/shuffle/map/batch(128) / TensorFlow', ours,
             tf_epoch if tf_epoch is not None else TF_EPOCH_RECORDED, '<= 0.5', tf_label),
            ('rt.data epoch / hand numpy generator', ours, hand, 'for reference', 'hand numpy'),
            ('rt.data epoch, map before batch / map after batch', ours, after, '<= 3',
             'map after batch')]
    if quick:
        return rows
    nbytes, before, peak = peak_rss(170000)  # 170000 x 784 float32: 533 MB
    rows.append((f'peak RSS, 2 epochs over a {nbytes / 1e6:.0f} MB array / RSS with the array '
                 f'(MB in the µs columns)', peak / 1e12, before / 1e12, '<= 1.2 (no copy)',
                 'array loaded'))
    return rows


if __name__ == '__main__':
    for figure, ours_s, ref_s, target, name in measure_data('--quick' in sys.argv):
        print(f'{figure:<80} {ours_s * 1e6:>12.1f} {ref_s * 1e6:>12.1f} '
              f'{ours_s / ref_s:>6.2f}  {target} (vs {name})')
