"""`rt.train`: checkpoints in TensorFlow's format (`tf.train` of TensorFlow 2), reading them
without restoring (`load_checkpoint`, `CheckpointView`), moving averages of variables, and the
`tf.train.Example` protocol-buffer messages (runtime/train/example_pb.py)."""
from runtime.train.checkpoint import (
    Checkpoint,
    CheckpointLoadStatus,
    CheckpointManager,
    latest_checkpoint,
    list_variables,
)
from runtime.train.example_pb import (
    BytesList,
    Example,
    Feature,
    FeatureList,
    FeatureLists,
    Features,
    FloatList,
    Int64List,
    SequenceExample,
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
from runtime.train.views import CheckpointView, TrackableView

__all__ = ['BytesList', 'Checkpoint', 'CheckpointLoadStatus', 'CheckpointManager',
           'CheckpointOptions', 'CheckpointReader', 'CheckpointState', 'CheckpointView',
           'Example', 'ExponentialMovingAverage', 'Feature', 'FeatureList', 'FeatureLists',
           'Features', 'FloatList', 'Int64List', 'SequenceExample', 'TrackableView',
           'checkpoints_iterator', 'get_checkpoint_state', 'latest_checkpoint', 'list_variables',
           'load_checkpoint', 'load_variable']
