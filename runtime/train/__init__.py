"""`rt.train`: checkpoints in TensorFlow's format (`tf.train` of TensorFlow 2)."""
from runtime.train.checkpoint import (
    Checkpoint,
    CheckpointLoadStatus,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
)

__all__ = ['Checkpoint', 'CheckpointLoadStatus', 'CheckpointManager', 'latest_checkpoint',
           'list_variables']
