"""Reading checkpoints without restoring them (`rt.train.load_checkpoint`, `load_variable`,
`get_checkpoint_state`, `checkpoints_iterator`), and `CheckpointOptions`."""
import os
import time
from dataclasses import dataclass, field

import numpy as np

from runtime.core import dtypes, errors
from runtime.graph import serialization
from runtime.train.checkpoint import checkpoint_prefix, latest_checkpoint, read_state
from runtime.train.object_graph import OBJECT_GRAPH_CHECKPOINT_KEY


class CheckpointReader:
    """The values of a checkpoint by key, as TensorFlow's `load_checkpoint` returns them:
    `get_tensor(key)` (a numpy array), `has_tensor`, `get_variable_to_shape_map()`,
    `get_variable_to_dtype_map()`."""

    def __init__(self, prefix):
        if not os.path.exists(prefix + '.index'):
            raise errors.NotFoundError(message=f'Unsuccessful TensorSliceReader constructor: '
                                               f'Failed to find any matching files for {prefix}')
        self.prefix = prefix
        self.values = serialization.read_bundle(prefix)

    def get_tensor(self, tensor_str):
        if tensor_str not in self.values:
            raise errors.NotFoundError(message=f'Key {tensor_str} not found in checkpoint')
        return self.values[tensor_str]

    def has_tensor(self, tensor_str):
        return tensor_str in self.values

    def get_variable_to_shape_map(self):
        return {key: [] if key == OBJECT_GRAPH_CHECKPOINT_KEY else list(np.shape(value))
                for key, value in self.values.items()}

    def get_variable_to_dtype_map(self):
        return {key: dtypes.string if key == OBJECT_GRAPH_CHECKPOINT_KEY else
                dtypes.as_dtype(np.asarray(value).dtype)
                for key, value in self.values.items()}


def load_checkpoint(ckpt_dir_or_file):
    """A `CheckpointReader` of the checkpoint (a prefix, or a directory's latest)."""
    return CheckpointReader(checkpoint_prefix(ckpt_dir_or_file))


def load_variable(ckpt_dir_or_file, name):
    """The value saved under `name` (a checkpoint key; a trailing ':0' is dropped)."""
    if name.endswith(':0'):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


@dataclass
class CheckpointState:
    """The `checkpoint` file of a directory: the latest checkpoint and all those kept."""
    model_checkpoint_path: str
    all_model_checkpoint_paths: list = field(default_factory=list)
    all_model_checkpoint_timestamps: list = field(default_factory=list)


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's `CheckpointState`, or None when it has no `checkpoint` file.
    `latest_filename` (another name of that file) is not supported."""
    if latest_filename is not None:
        raise NotImplementedError('get_checkpoint_state(latest_filename=...) is not supported: '
                                  "the state file is 'checkpoint'.")
    latest, paths, stamps = read_state(os.fspath(checkpoint_dir))
    if latest is None:
        return None
    return CheckpointState(latest, paths, stamps)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir` as it appears, waiting at least
    `min_interval_secs` between them; after `timeout` seconds without one, stop (or go on
    when `timeout_fn()` returns False)."""
    checkpoint_dir = os.fspath(checkpoint_dir)
    last = None
    while True:
        start = time.time()
        found = None
        while found is None:
            path = latest_checkpoint(checkpoint_dir)
            if path is not None and path != last:
                found = path
            elif timeout is not None and time.time() - start > timeout:
                break
            else:
                time.sleep(0.1 if timeout is None else min(1.0, max(timeout, 0.01)))
        if found is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        last = found
        yield found
        wait = min_interval_secs - (time.time() - start)
        if wait > 0:
            time.sleep(wait)


@dataclass(frozen=True)
class CheckpointOptions:
    """How checkpoints are written and read (TensorFlow's `tf.train.CheckpointOptions`, its
    fields in its order). Files are written on the CPU, synchronously: the device option changes
    nothing; asynchronous writing, write callbacks, skipping slot variables and sharding are not
    supported and raise NotImplementedError when set."""
    experimental_io_device: object = None
    experimental_enable_async_checkpoint: bool = False
    experimental_write_callbacks: object = None
    enable_async: bool = False
    experimental_skip_slot_variables: bool = False
    experimental_sharding_callback: object = None

    def __post_init__(self):
        for name in ('experimental_enable_async_checkpoint', 'experimental_write_callbacks',
                     'enable_async', 'experimental_skip_slot_variables',
                     'experimental_sharding_callback'):
            if getattr(self, name):
                raise NotImplementedError(f'CheckpointOptions({name}=...) is not supported.')
