"""Data-parallel training on Dask workers: `DataParallel(client, model, loss_fn, optimizer,
dataset, batch_size)`.

On the client, the model, the loss and the optimizer are traced into two graphs held by one
`rt.Module` (a replica): `gradients(batch) -> (loss, grads)` and `apply(grads)` (the optimizer's
update, its slot variables made while tracing). The replica is saved as a SavedModel and its
files travel to each worker as bytes; each worker loads it in a Dask actor. So the workers get
graphs and variable values (a checkpoint), never the model's Python objects, and they need
only the runtime installed, not the user's source.

Each worker reads its shard of the dataset itself (`shard(num_workers, index)` then
`batch(batch_size)`), so the union of the workers' batches at a step is one batch of
`num_workers * batch_size` consecutive elements of the dataset: the global batch a
single-process run on `dataset.batch(num_workers * batch_size)` takes. A step: the driver
sends the previous step's averaged gradients to every actor; each applies them with its own
copy of the optimizer (the same update on every replica, so the weights stay identical), reads
its next batch and returns its loss and gradients, weighted by its example count; the driver
averages them. With a loss that is a mean over the batch's examples, the average is the
gradient of the global batch's mean loss, so the loss curve is the single-process one.
`sync_every=k` accumulates k batches on each worker before averaging (k times less traffic; the
same as a single process on batches of `k * num_workers * batch_size`).
"""
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

import runtime as rt
from autograph.distribute.cluster import Shipped, worker_addresses
from autograph.distribute.shards import shard_dataset
from autograph.saved_model import load, save
from autograph.tracing.polymorphic_function import function
from runtime.data import structure


class ReplicaModule(rt.Module):
    """What every worker holds: the model, the optimizer and the two traced steps."""

    def __init__(self, model, loss_fn, optimizer, batch_spec):
        super().__init__()
        self.model = model
        self.optimizer = optimizer
        variables = list(model.trainable_variables)
        if not variables:
            raise ValueError(f'DataParallel: the model {model!r} has no trainable variables.')
        unpack = type(batch_spec) is tuple

        @function(input_signature=[batch_spec])
        def gradients(batch):
            with rt.GradientTape() as tape:
                loss = loss_fn(model, *batch) if unpack else loss_fn(model, batch)
            return loss, tape.gradient(loss, variables, unconnected_gradients='zero')

        @function(input_signature=[[rt.TensorSpec(v.shape, v.dtype) for v in variables]])
        def apply(grads):
            self.optimizer.apply_gradients(zip(grads, variables))
            return self.optimizer.iterations

        @function(input_signature=[])
        def weights():
            return [v.read_value() for v in variables]

        self.gradients, self.apply, self.weights = gradients, apply, weights


class Replica:
    """A Dask actor: one replica of the model (loaded from the shipped SavedModel) reading one
    shard of the dataset."""

    def __init__(self, shipped, dataset, num_replicas, index, batch_size, sync_every, policy):
        with shipped.unpacked() as directory:
            self.module = load(directory)
        self.batches = shard_dataset(dataset, num_replicas, index, policy).batch(batch_size)
        self.sync_every = sync_every
        self.iterator = iter(())

    def start_epoch(self):
        self.iterator = iter(self.batches)

    def step(self, grads):
        """Apply `grads` (the previous step's average; None: nothing yet), then read up to
        `sync_every` batches: (sum of loss * examples, examples, sum of grads * examples,
        seconds computing). (0.0, 0, None, seconds) at the shard's end."""
        start = time.perf_counter()
        if grads is not None:
            self.module.apply(grads)
        loss_sum, count, total = 0.0, 0, None
        for _ in range(self.sync_every):
            batch = next(self.iterator, None)
            if batch is None:
                break
            n = int(structure.flatten(batch)[0].shape[0])
            loss, batch_grads = self.module.gradients(batch)
            loss_sum += float(loss) * n
            count += n
            scaled = [g.numpy().astype(np.float64) * n for g in batch_grads]
            total = scaled if total is None else [a + b for a, b in zip(total, scaled)]
        return loss_sum, count, total, time.perf_counter() - start

    def weights(self):
        return [w.numpy() for w in self.module.weights()]


@dataclass
class StepTimes:
    """Where the time of `fit` went: per synchronized step, the wall time on the driver and
    the longest time a worker spent computing (the rest is communication and serialization)."""
    wall: list = field(default_factory=list)
    compute: list = field(default_factory=list)
    examples: int = 0

    def summary(self):
        """{'examples_per_second', 'ms_per_step', 'ms_computing', 'ms_overhead'}."""
        steps = max(len(self.wall), 1)
        wall, compute = sum(self.wall), sum(self.compute)
        return {'examples_per_second': self.examples / wall if wall else 0.0,
                'ms_per_step': 1e3 * wall / steps, 'ms_computing': 1e3 * compute / steps,
                'ms_overhead': 1e3 * (wall - compute) / steps}


class DataParallel:
    """Data-parallel training of `model` (an `rt.Module`) on `num_workers` Dask workers (None:
    all of the client's).

    `loss_fn(model, *batch)` (or `loss_fn(model, batch)` for elements that are not tuples)
    returns the mean loss over the batch's examples; `optimizer` is an `rt.optimizers`
    optimizer; `dataset` an `rt.data.Dataset` of single examples, built on the client and
    shipped to each worker, which reads shard `index` of it (`policy='data'`:
    `shard(num_workers, index)`; `'file'`: every num_workers-th file of its text file source)
    in batches of `batch_size`."""

    def __init__(self, client, model, loss_fn, optimizer, dataset, batch_size, num_workers=None,
                 sync_every=1, policy='data'):
        if sync_every < 1:
            raise ValueError(f'DataParallel: sync_every must be at least 1, got {sync_every}.')
        self.client, self.model = client, model
        addresses = worker_addresses(client, num_workers)
        shard_dataset(dataset, len(addresses), 0, policy)  # a bad policy or pipeline fails here
        self.variables = list(model.trainable_variables)
        replica = ReplicaModule(model, loss_fn, optimizer,
                                dataset.batch(batch_size).element_spec)
        with tempfile.TemporaryDirectory() as directory:
            save(replica, directory)
            shipped = Shipped.of(directory)
        self.shipped_bytes = len(shipped.data)
        futures = [client.submit(Replica, shipped, dataset, len(addresses), i, batch_size,
                                 sync_every, policy, actor=True, workers=[address],
                                 allow_other_workers=False, pure=False)
                   for i, address in enumerate(addresses)]
        self.futures = futures
        self.replicas = [f.result() for f in futures]
        self.times = StepTimes()

    @property
    def num_replicas(self):
        return len(self.replicas)

    def fit(self, epochs=1, on_step=None):
        """Train for `epochs` passes over the dataset; returns the loss of every synchronized
        step (the mean over its global batch). `on_step(step, loss)` is called after each.
        The client's model gets the trained weights at the end."""
        losses = []
        for _ in range(epochs):
            for started in [r.start_epoch() for r in self.replicas]:
                started.result()
            pending = None
            while True:
                start = time.perf_counter()
                results = [call.result() for call in [r.step(pending) for r in self.replicas]]
                count = sum(r[1] for r in results)
                if count == 0:
                    break
                pending = average([r[2] for r in results if r[1]], count, self.variables)
                losses.append(sum(r[0] for r in results) / count)
                self.times.wall.append(time.perf_counter() - start)
                self.times.compute.append(max(r[3] for r in results))
                self.times.examples += count
                if on_step is not None:
                    on_step(len(losses), losses[-1])
        self.pull_weights()
        return losses

    def replica_weights(self):
        """Every replica's trainable variables, as numpy arrays in `model.trainable_variables`
        order: one list per worker."""
        return [call.result() for call in [r.weights() for r in self.replicas]]

    def pull_weights(self):
        """Assign the first replica's weights to the client's model."""
        for variable, value in zip(self.variables, self.replicas[0].weights().result()):
            variable.assign(value)

    def close(self):
        """Release the actors (their workers drop the replicas)."""
        self.replicas, self.futures = [], []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def average(weighted_sums, count, variables):
    """The example-weighted mean of the workers' gradients, in the variables' dtypes."""
    total = weighted_sums[0]
    for grads in weighted_sums[1:]:
        total = [a + b for a, b in zip(total, grads)]
    return [(t / count).astype(v.dtype.np_dtype) for t, v in zip(total, variables)]
