"""The Dask side of `autograph.distribute`: importing Dask (an optional extra), connecting to a
cluster, and shipping directories (SavedModels) to workers as bytes.

Dask is imported only here and only when a function that needs it runs, so `autograph` and
`runtime` load without it; a missing Dask is an ImportError naming the `dask` extra.
"""
import contextlib
import hashlib
import io
import os
import tarfile
import tempfile
from dataclasses import dataclass

EXTRA_HINT = "pip install 'autograph-rt[dask]'"


def dask_distributed():
    """The `distributed` module; an ImportError naming the extra when Dask is not installed."""
    try:
        import distributed  # deferred: optional dependency dask[distributed] (the dask extra)
    except ImportError as e:
        raise ImportError(f'autograph.distribute runs on Dask distributed, which is not '
                          f'installed: {EXTRA_HINT}') from e
    return distributed


def dask_array():
    """The `dask.array` module, with the same error as `dask_distributed`."""
    try:
        import dask.array  # deferred: optional dependency dask (the dask extra)
    except ImportError as e:
        raise ImportError(f'autograph.distribute runs on Dask, which is not installed: '
                          f'{EXTRA_HINT}') from e
    return dask.array


@contextlib.contextmanager
def connect(address=None, n_workers=2, threads_per_worker=1):
    """A `distributed.Client`: to the scheduler at `address`, or (None) to a new LocalCluster
    of `n_workers` worker processes, closed on exit."""
    distributed = dask_distributed()
    if address is not None:
        with distributed.Client(address) as client:
            yield client
        return
    with distributed.LocalCluster(n_workers=n_workers, threads_per_worker=threads_per_worker,
                                  processes=True, dashboard_address=':0') as cluster, \
            distributed.Client(cluster) as client:
        yield client


def worker_addresses(client, count=None):
    """The addresses of `count` (None: all) of the cluster's workers, sorted; ValueError when
    the cluster has fewer."""
    workers = sorted(client.nthreads())
    if count is None:
        count = len(workers)
    if count < 1 or count > len(workers):
        raise ValueError(f'Asked for {count} workers, but the cluster has {len(workers)} '
                         f'({workers}).')
    return workers[:count]


# ---- directories as bytes --------------------------------------------------------------------

def pack_directory(path):
    """The files under `path` as one uncompressed tar archive (bytes)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w') as archive:
        archive.add(os.fspath(path), arcname='.')
    return buffer.getvalue()


def unpack_directory(data, path):
    """Extract the archive `data` (from `pack_directory`) into the directory `path`."""
    with tarfile.open(fileobj=io.BytesIO(data), mode='r') as archive:
        if hasattr(tarfile, 'data_filter'):  # Python 3.11.4 and later
            archive.extractall(path, filter='data')
        else:
            archive.extractall(path)


@dataclass(frozen=True)
class Shipped:
    """A directory's files as bytes, with their digest (what workers cache it by)."""
    data: bytes
    digest: str

    @classmethod
    def of(cls, path):
        data = pack_directory(path)
        return cls(data, hashlib.sha256(data).hexdigest())

    @contextlib.contextmanager
    def unpacked(self):
        """A temporary directory holding the files, removed on exit."""
        with tempfile.TemporaryDirectory(prefix=f'autograph-rt-{self.digest[:12]}-') as path:
            unpack_directory(self.data, path)
            yield path
