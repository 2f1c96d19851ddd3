"""`rt.train`: checkpoints in TensorFlow's format (`tf.train` of TensorFlow 2), reading them
without restoring (`load_checkpoint`), and moving averages of variables."""
from runtime.train.checkpoint import (
    Checkpoint,
    CheckpointLoadStatus,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
)
from runtime.train.moving_average import ExponentialMovingAverage
from runtime.train.reader import (
    CheckpointOptions,
    CheckpointReader,
    CheckpointState,
    checkpoints_iterator,
    get_checkpoint_state,
    load_checkpoint,
    load_variable,
)

__all__ = ['Checkpoint', 'CheckpointLoadStatus', 'CheckpointManager', 'CheckpointOptions',
           'CheckpointReader', 'CheckpointState', 'ExponentialMovingAverage',
           'checkpoints_iterator', 'get_checkpoint_state', 'latest_checkpoint', 'list_variables',
           'load_checkpoint', 'load_variable']
