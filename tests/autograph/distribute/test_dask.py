"""autograph.distribute on a LocalCluster of 2 worker processes: data-parallel training keeps
identical replicas and the single-process loss curve, sharded pipelines read every example
once (also when a worker dies mid-shard), batch inference equals a local run."""
import concurrent.futures
import os
import signal
import sys

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from autograph import distribute

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
TF_SAVED_MODEL = os.path.join(ROOT, 'tests', 'runtime', 'fixtures', 'tf2_saved_model')


def test_without_dask_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, 'distributed', None)
    with pytest.raises(ImportError, match=r"autograph-rt\[dask\]"):
        with distribute.connect():
            pass


@pytest.fixture(scope='module')
def client():
    pytest.importorskip('dask.distributed')
    # The workers are spawned with this process's sys.path (the repository root, from pytest's
    # `pythonpath`, and this test's folder), so they import the runtime from the source tree,
    # and this module's functions and the example's (examples.dask_train) by name.
    with distribute.connect(n_workers=2) as client:
        yield client


# ---- data-parallel training -------------------------------------------------------------------

class Classifier(rt.Module):
    def __init__(self, seed=0):
        super().__init__()
        rng = np.random.RandomState(seed)
        self.hidden = rt.Variable(rng.normal(0, 0.5, (4, 16)).astype(np.float32))
        self.hidden_bias = rt.Variable(np.zeros(16, np.float32))
        self.out = rt.Variable(rng.normal(0, 0.5, (16, 3)).astype(np.float32))

    def __call__(self, x):
        return rt.matmul(rt.relu(rt.matmul(x, self.hidden) + self.hidden_bias), self.out)


def cross_entropy(model, x, labels):
    logits = model(x)
    shifted = logits - rt.reduce_max(logits, axis=1, keepdims=True)
    log_probs = shifted - rt.log(rt.reduce_sum(rt.exp(shifted), axis=1, keepdims=True))
    return -rt.reduce_mean(rt.reduce_sum(rt.one_hot(labels, 3) * log_probs, axis=1))


def examples(n=148, seed=1):
    rng = np.random.RandomState(seed)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    return x, (np.argmax(x[:, :3], axis=1) + (x[:, 3] > 1)).astype(np.int32) % 3


def train_in_one_process(dataset, global_batch, epochs):
    model, optimizer = Classifier(), rt.optimizers.Adam(0.05)

    @ag.function
    def step(x, labels):
        with rt.GradientTape() as tape:
            loss = cross_entropy(model, x, labels)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = [float(step(x, labels)) for _ in range(epochs)
              for x, labels in dataset.batch(global_batch)]
    return losses, [v.numpy() for v in model.trainable_variables]


@pytest.mark.parametrize('sync_every', [1, 2])
def test_two_replicas_train_as_one_process_on_the_same_global_batches(client, sync_every):
    x, labels = examples()
    dataset = rt.data.Dataset.from_tensor_slices((x, labels)).shuffle(148, seed=3)
    model = Classifier()
    with distribute.DataParallel(client, model, cross_entropy, rt.optimizers.Adam(0.05),
                                 dataset, batch_size=8, sync_every=sync_every) as trainer:
        assert trainer.num_replicas == 2
        losses = trainer.fit(epochs=2)
        replicas = trainer.replica_weights()
    # 148 examples in global batches of 2 workers * 8 * sync_every, the last one short
    expected_losses, expected_weights = train_in_one_process(dataset, 16 * sync_every, 2)
    assert len(losses) == len(expected_losses) == 2 * -(-148 // (16 * sync_every))
    np.testing.assert_allclose(losses, expected_losses, rtol=2e-5, atol=2e-6)
    assert losses[-1] < 0.6 * losses[0]
    for first, second in zip(*replicas):
        np.testing.assert_array_equal(first, second)  # every replica applied the same updates
    for mine, local, expected in zip(model.trainable_variables, replicas[0], expected_weights):
        np.testing.assert_array_equal(mine.numpy(), local)  # the client's model has them
        np.testing.assert_allclose(local, expected, rtol=1e-4, atol=1e-5)
    summary = trainer.times.summary()
    assert summary['examples_per_second'] > 0 and summary['ms_overhead'] >= 0


def test_asking_for_more_workers_than_the_cluster_has_is_a_value_error(client):
    dataset = rt.data.Dataset.from_tensor_slices(examples(8))
    with pytest.raises(ValueError, match='Asked for 3 workers, but the cluster has 2'):
        distribute.DataParallel(client, Classifier(), cross_entropy, rt.optimizers.SGD(0.1),
                                dataset, batch_size=4, num_workers=3)


# ---- sharded input pipelines ------------------------------------------------------------------

def label_counts(shard):
    """What a worker computes from its shard: how many examples of each label it read."""
    return np.bincount(np.array([int(label) for _, label in shard.as_numpy_iterator()]),
                       minlength=3).tolist()


def test_each_worker_reads_its_shard_in_order_and_every_example_once(client):
    x, labels = examples()
    dataset = rt.data.Dataset.from_tensor_slices((x, labels)).map(
        lambda features, label: (rt.reduce_sum(features), label))
    shards = distribute.map_shards(client, rt.data.Dataset.range(50).map(lambda v: v * v))
    assert [[int(v) for v in shard] for shard in shards] == \
        [[v * v for v in range(i, 50, 2)] for i in range(2)]
    counts = distribute.map_shards(client, dataset, label_counts, num_shards=3)
    assert np.sum(counts, axis=0).tolist() == np.bincount(labels, minlength=3).tolist()


def test_file_sharding_gives_each_worker_whole_files(client, tmp_path):
    names = []
    for k in range(5):
        names.append(str(tmp_path / f'part-{k}.txt'))
        with open(names[-1], 'w') as f:
            f.write(''.join(f'{k}:{j}\n' for j in range(k + 1)))
    dataset = rt.data.TextLineDataset(names).map(lambda line: rt.strings.join([line, b'!']))
    shards = distribute.map_shards(client, dataset, policy='file')
    assert shards == [[f'{k}:{j}!'.encode() for k in range(i, 5, 2) for j in range(k + 1)]
                      for i in range(2)]
    with pytest.raises(ValueError, match="policy='data'"):
        distribute.map_shards(client, rt.data.Dataset.range(4), policy='file')
    with pytest.raises(ValueError, match="Unknown sharding policy 'files'"):
        distribute.map_shards(client, dataset, policy='files')


# ---- batch inference --------------------------------------------------------------------------

def test_a_tensorflow_saved_model_predicts_dask_array_blocks_as_a_local_run(client):
    import dask.array as da
    x = np.random.RandomState(2).normal(size=(1000, 2)).astype(np.float32)
    predicted = distribute.predict(client, TF_SAVED_MODEL, da.from_array(x, chunks=(125, 2)))
    assert predicted.numblocks == (8, 1)
    local = ag.saved_model.load(TF_SAVED_MODEL).signatures['serving_default'](x=x)['output_0']
    np.testing.assert_array_equal(predicted.compute(), local.numpy())
    # loaded once per worker process, for all the blocks it ran
    assert set(client.run(distribute.inference.loads_in_this_process).values()) <= {1}


def test_our_saved_model_predicts_with_a_named_output(client, tmp_path):
    model = Classifier()

    @ag.function(input_signature=[rt.TensorSpec([None, 4], rt.float32)])
    def predict(x):
        logits = model(x)
        return {'logits': logits, 'label': rt.argmax(logits, axis=1)}

    model.predict = predict
    ag.saved_model.save(model, str(tmp_path), signatures={'serving_default': model.predict})
    x, _ = examples(300)
    labels = distribute.predict(client, str(tmp_path), x, output='label').compute()
    assert labels.shape == (300,)
    np.testing.assert_array_equal(labels, np.argmax(model(x).numpy(), axis=1))
    with pytest.raises(ValueError, match="name the one to keep"):
        distribute.predict(client, str(tmp_path), x)


# ---- examples/dask_train.py, on this cluster ---------------------------------------------------

def test_the_example_runs_its_three_steps_on_a_running_cluster(client):
    from examples import dask_train
    lines = []
    results = dask_train.run(client.scheduler.address, examples=512, batch_size=32, epochs=2,
                             log=lines.append, one_worker=False)
    assert results['loss_difference'] < 1e-5  # the single-process loss curve
    assert 'replicas identical: True' in '\n'.join(lines)
    assert results['lines'] == (512, 512)  # every example once across the shards
    assert results['same_predictions']
    assert results['all_workers']['examples_per_second'] > 0


# ---- last, as it restarts a worker ---------------------------------------------------------

def read_and_die_once(shard, marker):
    """Read the shard; the first attempt at shard 0 kills its worker process halfway."""
    seen = []
    for i, value in enumerate(shard.as_numpy_iterator()):
        seen.append(int(value))
        if i == 10 and not os.path.exists(marker):
            with open(marker, 'w') as f:
                f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid(), seen


class DieOnce:
    def __init__(self, marker):
        self.marker = marker

    def __call__(self, shard):
        return read_and_die_once(shard, self.marker)


def test_a_worker_killed_mid_shard_is_replaced_and_its_shard_read_again(client, tmp_path):
    marker = str(tmp_path / 'killed')
    results = distribute.map_shards(client, rt.data.Dataset.range(100), DieOnce(marker))
    killed = int(open(marker).read())
    assert killed not in [pid for pid, _ in results]  # the shard was read again elsewhere
    read = [v for _, seen in results for v in seen]
    assert sorted(read) == list(range(100))  # every example exactly once
    client.wait_for_workers(2, timeout=60)  # the nanny started a new worker process
    assert killed not in client.run(os.getpid).values()


class CancellingClient:
    """A stand-in for a Dask client whose scheduler cancels shard 1's task the first time (its
    scattered dataset lost with the workers holding it), as a loaded machine's can."""

    def __init__(self):
        self.submitted = []

    def nthreads(self):
        return {'a': 1, 'b': 1}

    def scatter(self, data, broadcast, hash):
        return data

    def submit(self, function, *args, pure):
        self.submitted.append(args[2])
        cancelled = args[2] == 1 and self.submitted.count(1) == 1
        return Done(None if cancelled else function(*args))


class Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        if self.value is None:
            raise concurrent.futures.CancelledError('already forgotten')
        return self.value


def test_a_task_the_scheduler_cancels_is_submitted_again():
    client = CancellingClient()
    shards = distribute.map_shards(client, rt.data.Dataset.range(6))
    assert sorted(int(v) for shard in shards for v in shard) == list(range(6))
    assert client.submitted == [0, 1, 1]  # shard 1 again, shard 0 not
