"""Sharded input pipelines: an `rt.data` pipeline built once on the client, read on the workers
one shard each.

A Dataset built eagerly pickles as its pipeline (each stage with its inputs; the functions of
`map`, `filter` and the others as their traced graphs), so Dask ships it to the workers, which
rebuild it and read their shard:

- `policy='data'`: `dataset.shard(num_shards, index)`: elements index, index + num_shards, ...
  in the dataset's order (TensorFlow's DATA auto-shard policy).
- `policy='file'`: the pipeline's text file source reads files index, index + num_shards, ...
  and the stages after it run on those files' elements (TensorFlow's FILE policy: every
  worker reads whole files, so no worker reads a line it then drops).

`map_shards(client, dataset, fn)` runs `fn(shard)` as one Dask task per shard. A worker that
dies mid-shard loses its task's partial result; the scheduler runs the task again on another
worker (up to the scheduler's `allowed-failures`), which reads the shard again from its first
element, so every element lands once in the results.
"""
import concurrent.futures
import copy

from runtime.core.tensor import EagerTensor
from runtime.data import values
from runtime.data.dataset import Dataset

POLICIES = ('data', 'file')


def shard_dataset(dataset, num_shards, index, policy='data'):
    """Shard `index` of `num_shards` of `dataset` under `policy` ('data' or 'file')."""
    if policy == 'data':
        return dataset.shard(num_shards, index)
    if policy != 'file':
        raise ValueError(f'Unknown sharding policy {policy!r}; use one of {POLICIES}.')
    if not 0 <= index < num_shards:
        raise ValueError(f'Shard index {index} is not in [0, {num_shards}).')
    value = dataset.variant_tensor.value if type(dataset.variant_tensor) is EagerTensor \
        else None
    if not isinstance(value, values.DatasetValue):
        raise ValueError('File-level sharding needs a dataset built eagerly (outside '
                         'ag.function).')
    sharded = EagerTensor(_file_shard(value, num_shards, index), dataset.variant_tensor.dtype)
    return Dataset(sharded, dataset.element_spec, dataset.options(), 'ShardDataset')


def _file_shard(value, num_shards, index):
    """A copy of the pipeline `value` whose text file source reads every num_shards-th file."""
    if isinstance(value, values.TextLines):
        sharded = copy.copy(value)
        sharded.filenames = value.filenames[index::num_shards]
        return sharded
    upstream = getattr(value, 'input', None)
    if not isinstance(upstream, values.DatasetValue):
        raise ValueError(f'File-level sharding needs a pipeline reading text files '
                         f'(rt.data.TextLineDataset) through single-input stages; '
                         f'{type(value).__name__} has no such source. Use policy=\'data\'.')
    stage = copy.copy(value)
    stage.input = _file_shard(upstream, num_shards, index)
    if isinstance(stage, values.Cache):
        stage.elements = None  # what the whole input recorded is not this shard's
    return stage


def read_shard(dataset, num_shards, index, policy='data', fn=None):
    """`fn` of the shard (None: its elements as numpy structures, in order): what each task of
    `map_shards` runs on a worker."""
    shard = shard_dataset(dataset, num_shards, index, policy)
    if fn is None:
        return list(shard.as_numpy_iterator())
    return fn(shard)


def map_shards(client, dataset, fn=None, num_shards=None, policy='data'):
    """[fn(shard 0), fn(shard 1), ...]: one Dask task per shard of `dataset` (None shards: one
    per worker). `fn` takes an `rt.data.Dataset` and returns something picklable; it must be
    importable on the workers (a module's top-level function, or defined in `__main__`).
    A task whose worker dies is run again from the start of its shard; a task the scheduler
    cancels (the workers holding the scattered dataset died with it) is submitted again, with
    the dataset scattered again, up to `RESUBMISSIONS` times."""
    if num_shards is None:
        num_shards = len(client.nthreads())
    shard_dataset(dataset, num_shards, 0, policy)  # a bad policy or pipeline fails here
    results = [None] * num_shards
    pending = list(range(num_shards))
    for _ in range(RESUBMISSIONS + 1):
        shipped = client.scatter(dataset, broadcast=True, hash=False)
        futures = {i: client.submit(read_shard, shipped, num_shards, i, policy, fn, pure=False)
                   for i in pending}
        pending = []
        for i, future in futures.items():
            try:
                results[i] = future.result()
            except concurrent.futures.CancelledError:
                pending.append(i)
        if not pending:
            return results
    raise RuntimeError(f'map_shards: the tasks of shards {pending} were cancelled by the Dask '
                       f'scheduler {RESUBMISSIONS + 1} times (workers dying as they ran?); '
                       f'check the workers\' logs.')


RESUBMISSIONS = 2  # how often map_shards submits again the tasks the scheduler cancelled
