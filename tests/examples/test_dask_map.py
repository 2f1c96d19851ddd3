"""examples/dask_map.py: a traced function shipped to 2 Dask worker processes."""
import numpy as np
import pytest

pytest.importorskip('dask.distributed')


def test_blocks_mapped_on_two_worker_processes_equal_the_single_process_result():
    # Worker processes are spawned with this process's sys.path (the repository root, from
    # pytest's `pythonpath`): they import the runtime and the example's run_block (which Dask
    # pickles by reference, as examples.dask_map.run_block) from the source tree.
    from examples import dask_map
    distributed, local = dask_map.run(n_workers=2, rows=1000, block_rows=250, timeout=60)
    assert distributed.shape == (1000, 4)
    np.testing.assert_array_equal(distributed, local)
    assert np.all(np.abs(distributed) <= 1.0)
