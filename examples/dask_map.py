"""A traced function applied to the blocks of a Dask array on worker processes.

    python3 -m pip install '.[dask]'
    python3 examples/dask_map.py                          # a LocalCluster with 2 worker processes
    python3 examples/dask_map.py --scheduler tcp://host:8786   # a running Dask cluster

The ag.Function has an input_signature, so it pickles as its serialized graph: the workers
receive the graph, not the Python source, and run it with the runtime. The result is compared
with the same blocks computed in this process.
"""
import argparse

import numpy as np

import autograph as ag
import runtime as rt


@ag.function(input_signature=[rt.TensorSpec([None, 4], rt.float32)])
def squash_block(block):
    """Halve the block until its largest magnitude is at most 1, then bend it with tanh;
    blocks with negative entries are mirrored first (a tensor `while` and a tensor `if`)."""
    scale = rt.reduce_max(rt.abs(block))
    halvings = rt.constant(0)
    while scale > 1.0:
        scale = scale / 2.0
        halvings += 1
    if rt.reduce_any(block < 0.0):
        block = -block
    return rt.tanh(block / rt.pow(2.0, rt.cast(halvings, rt.float32)))


def run_block(block):
    """What each Dask task runs: the traced function on one numpy block."""
    return squash_block(block).numpy()


def run(n_workers=2, address=None, rows=4000, block_rows=500, seed=0, timeout=300):
    """(result on the cluster, result in this process) for a random array."""
    try:
        import dask.array as da
        from dask.distributed import Client, LocalCluster
    except ImportError as e:  # an optional dependency
        raise ImportError("examples/dask_map.py needs Dask: pip install 'autograph-rt[dask]'") \
            from e
    data = np.random.default_rng(seed).normal(0.0, 5.0, size=(rows, 4)).astype(np.float32)
    array = da.from_array(data, chunks=(block_rows, 4))
    mapped = array.map_blocks(run_block, dtype=np.float32)
    local = mapped.compute(scheduler='synchronous')
    if address is None:
        with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                          dashboard_address=':0') as cluster, Client(cluster) as client:
            distributed = client.compute(mapped).result(timeout=timeout)
    else:
        with Client(address) as client:
            distributed = client.compute(mapped).result(timeout=timeout)
    return distributed, local


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--scheduler', metavar='ADDRESS',
                        help='a Dask scheduler address (default: a LocalCluster)')
    parser.add_argument('--workers', type=int, default=2, help='LocalCluster worker processes')
    arguments = parser.parse_args()
    distributed, local = run(arguments.workers, arguments.scheduler)
    print(f'{distributed.shape[0]} rows in {distributed.shape[0] // 500} blocks; '
          f'first row {distributed[0]}')
    print('same as in one process:', bool(np.array_equal(distributed, local)))


if __name__ == '__main__':
    main()
