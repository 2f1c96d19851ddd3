"""Past one machine on Dask distributed (the optional `dask` extra): data-parallel training,
sharded input pipelines and batch inference.

    from autograph import distribute
    with distribute.connect() as client:              # a LocalCluster; or connect('tcp://...')
        trainer = distribute.DataParallel(client, model, loss_fn, optimizer, dataset, 32)
        losses = trainer.fit(epochs=2)
        shards = distribute.map_shards(client, dataset, count_examples)
        predictions = distribute.predict(client, 'exported', dask_array).compute()

Dask is imported only when these run; without it they raise an ImportError naming the extra.
docs/scale.md describes the design and its costs.
"""
from autograph.distribute.cluster import connect, worker_addresses
from autograph.distribute.inference import predict, predict_block, serving_function
from autograph.distribute.shards import map_shards, read_shard, shard_dataset
from autograph.distribute.training import DataParallel, ReplicaModule

__all__ = ['connect', 'worker_addresses', 'DataParallel', 'ReplicaModule', 'map_shards',
           'read_shard', 'shard_dataset', 'predict', 'predict_block', 'serving_function']
