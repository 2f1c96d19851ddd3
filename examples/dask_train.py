"""Past one machine on Dask: data-parallel training, sharded input pipelines and batch
inference, on a LocalCluster of 2 worker processes or on a running Dask cluster.

    python3 -m pip install '.[dask]'
    python3 examples/dask_train.py                              # a LocalCluster, 2 workers
    python3 examples/dask_train.py --scheduler tcp://host:8786  # a running Dask cluster

1. A small classifier (an rt.Module) is trained data-parallel: every worker runs the same
   traced gradient step on its shard of an rt.data pipeline, the driver averages the
   gradients, every replica applies the same update. The loss curve is compared with training
   in this process on the same global batches, and the throughput of 1 and 2 workers printed.
2. Text files are read one shard per worker (file-level sharding; on a running cluster, whose
   workers may not see this machine's files, element-level sharding of an in-memory pipeline).
3. The trained model is saved as a SavedModel and applied to the blocks of a Dask array, loaded
   once per worker; the predictions are compared with a local run.
The workers need autograph-rt installed, not this file: they receive graphs and tensors.
"""
import argparse
import os
import tempfile
import time

import numpy as np

import autograph as ag
import runtime as rt
from autograph import distribute


class Classifier(rt.Module):
    """Two dense layers with a relu between them."""

    def __init__(self, hidden=32, seed=0):
        super().__init__()
        rng = np.random.RandomState(seed)
        self.w1 = rt.Variable(rng.normal(0, 0.5, (2, hidden)).astype(np.float32))
        self.b1 = rt.Variable(np.zeros(hidden, np.float32))
        self.w2 = rt.Variable(rng.normal(0, 0.5, (hidden, 3)).astype(np.float32))
        self.b2 = rt.Variable(np.zeros(3, np.float32))

    def __call__(self, x):
        return rt.matmul(rt.relu(rt.matmul(x, self.w1) + self.b1), self.w2) + self.b2


def loss_fn(model, x, labels):
    """Mean softmax cross-entropy over the batch (a mean, so averaged gradients are exact)."""
    logits = model(x)
    shifted = logits - rt.stop_gradient(rt.reduce_max(logits, axis=1, keepdims=True))
    log_probs = shifted - rt.log(rt.reduce_sum(rt.exp(shifted), axis=1, keepdims=True))
    return -rt.reduce_mean(rt.reduce_sum(rt.one_hot(labels, 3) * log_probs, axis=1))


def blobs(n, seed):
    """(x float32 [n, 2], labels int32 [n]): three Gaussian blobs."""
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 3, n).astype(np.int32)
    centers = np.array([[0.0, 2.0], [-1.7, -1.0], [1.7, -1.0]], np.float32)
    return (centers[labels] + rng.normal(0, 0.8, (n, 2))).astype(np.float32), labels


def train_here(dataset, global_batch, epochs):
    """The same training in this process: (losses, seconds)."""
    model, optimizer = Classifier(), rt.optimizers.Adam(0.02)

    @ag.function(input_signature=[rt.TensorSpec([None, 2], rt.float32),
                                  rt.TensorSpec([None], rt.int32)])
    def step(x, labels):
        with rt.GradientTape() as tape:
            loss = loss_fn(model, x, labels)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    step.get_concrete_function()  # traced before the clock starts, as the replicas are
    start = time.perf_counter()
    losses = [float(step(x, labels)) for _ in range(epochs)
              for x, labels in dataset.batch(global_batch)]
    return losses, time.perf_counter() - start


def train(client, dataset, batch_size, epochs, num_workers, log, sync_every=1):
    """Data-parallel training on `num_workers` workers: (model, losses, times summary)."""
    model = Classifier()
    with distribute.DataParallel(client, model, loss_fn, rt.optimizers.Adam(0.02), dataset,
                                 batch_size, num_workers=num_workers,
                                 sync_every=sync_every) as trainer:
        losses = trainer.fit(epochs)
        replicas = trainer.replica_weights()
    identical = all(np.array_equal(a, b) for r in replicas[1:] for a, b in zip(replicas[0], r))
    summary = trainer.times.summary()
    log(f'  {num_workers} worker(s): {summary["examples_per_second"]:8.0f} examples/s, '
        f'{summary["ms_per_step"]:.2f} ms per step ({summary["ms_computing"]:.2f} ms computing '
        f'on the slowest worker, {summary["ms_overhead"]:.2f} ms communication and '
        f'serialization); replicas identical: {identical}')
    return model, losses, summary


def count_lines(shard):
    """What each worker computes from its shard: (lines, sum of the first column)."""
    rows = [line.split(b',') for line in shard.as_numpy_iterator()]
    return len(rows), float(sum(float(r[0]) for r in rows))


def read_shards(client, x, local, log):
    """Every example read once across the workers' shards: (lines read, expected)."""
    if local:
        directory = tempfile.mkdtemp(prefix='dask-train-')
        names = []
        for k, part in enumerate(np.array_split(x, 6)):
            names.append(os.path.join(directory, f'part-{k}.csv'))
            np.savetxt(names[-1], part, fmt='%.6f', delimiter=',')
        dataset, policy = rt.data.TextLineDataset(names), 'file'
    else:
        dataset = rt.data.Dataset.from_tensor_slices(x).map(
            lambda row: rt.strings.format('{},{}', [row[0], row[1]]))
        dataset, policy = dataset, 'data'
    results = distribute.map_shards(client, dataset, count_lines, policy=policy)
    log(f'  {policy}-level shards: {[n for n, _ in results]} lines per worker, '
        f'{sum(n for n, _ in results)} in all')
    return sum(n for n, _ in results), len(x)


def predict(client, model, x, log):
    """Batch inference with the trained model: (predictions on the cluster, local ones)."""
    import dask.array as da  # deferred: optional dependency dask (this example needs it)

    @ag.function(input_signature=[rt.TensorSpec([None, 2], rt.float32)])
    def classify(x):
        return {'label': rt.argmax(model(x), axis=1)}

    model.classify = classify
    export_dir = tempfile.mkdtemp(prefix='dask-train-model-')
    ag.saved_model.save(model, export_dir, signatures={'serving_default': classify})
    blocks = da.from_array(x, chunks=(len(x) // 8, 2))
    distributed = distribute.predict(client, export_dir, blocks).compute()
    local = ag.saved_model.load(export_dir).signatures['serving_default'](x=x)['label'].numpy()
    log(f'  {len(x)} rows in {blocks.numblocks[0]} blocks')
    return distributed, local


def run(address=None, n_workers=2, examples=4096, batch_size=64, epochs=3, log=print,
        one_worker=True):
    """All three on a LocalCluster (or the cluster at `address`); returns a dict of results.
    `one_worker`: also train on one worker, to compare the throughputs."""
    x, labels = blobs(examples, seed=0)

    def pipeline():  # a new one per run: a dataset's reshuffles count its passes
        return rt.data.Dataset.from_tensor_slices((x, labels)).shuffle(examples, seed=1)

    results = {}
    with distribute.connect(address, n_workers=n_workers) as client:
        workers = len(distribute.worker_addresses(client))
        log(f'data-parallel training, {examples} examples, {epochs} epochs, batches of '
            f'{batch_size} per worker:')
        losses_here, seconds = train_here(pipeline(), batch_size * workers, epochs)
        log(f'  this process ({batch_size * workers} per step): '
            f'{examples * epochs / seconds:8.0f} examples/s')
        if workers > 1 and one_worker:
            results['one_worker'] = train(client, pipeline(), batch_size * workers, epochs, 1,
                                          log)[2]
        model, losses, results['all_workers'] = train(client, pipeline(), batch_size, epochs,
                                                      workers, log)
        results['loss_difference'] = float(np.max(np.abs(np.subtract(losses, losses_here))))
        log(f'  loss {losses[0]:.4f} -> {losses[-1]:.4f} over {len(losses)} steps; largest '
            f'difference from this process: {results["loss_difference"]:.2e}')
        log('sharded input pipeline:')
        results['lines'] = read_shards(client, x, address is None, log)
        log('batch inference:')
        test_x, test_labels = blobs(2000, seed=2)
        distributed, local = predict(client, model, test_x, log)
        results['same_predictions'] = bool(np.array_equal(distributed, local))
        log(f'  same as in this process: {results["same_predictions"]}; test accuracy '
            f'{np.mean(distributed == test_labels):.3f}')
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--scheduler', metavar='ADDRESS',
                        help='a Dask scheduler address (default: a LocalCluster)')
    parser.add_argument('--workers', type=int, default=2, help='LocalCluster worker processes')
    parser.add_argument('--examples', type=int, default=4096)
    parser.add_argument('--batch-size', type=int, default=64, help='per worker')
    parser.add_argument('--epochs', type=int, default=3)
    args = parser.parse_args()
    run(args.scheduler, args.workers, args.examples, args.batch_size, args.epochs)


if __name__ == '__main__':
    main()
