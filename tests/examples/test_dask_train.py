"""examples/dask_train.py: training, sharded reading and batch inference on 2 worker
processes."""
import os

import pytest

pytest.importorskip('dask.distributed')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_three_steps_on_a_local_cluster(monkeypatch):
    # Worker processes start with this process's sys.path (the runtime from the source tree).
    monkeypatch.syspath_prepend(os.path.join(ROOT, 'examples'))
    monkeypatch.syspath_prepend(ROOT)
    import dask_train
    lines = []
    results = dask_train.run(examples=512, batch_size=32, epochs=2, log=lines.append,
                             one_worker=False)
    assert results['loss_difference'] < 1e-5  # the single-process loss curve
    assert 'replicas identical: True' in '\n'.join(lines)
    assert results['lines'] == (512, 512)  # every example once across the shards
    assert results['same_predictions']
    assert results['all_workers']['examples_per_second'] > 0
