"""TensorFlow's SavedModel constants (`tf.saved_model.SERVING`, the file and directory names,
the signature method names), `LoadOptions` and `contains_saved_model`."""
import os
from dataclasses import dataclass

from autograph.saved_model.writer import SAVED_MODEL_FILE

SERVING = 'serve'
TRAINING = 'train'
GPU = 'gpu'
TPU = 'tpu'
DEFAULT_SERVING_SIGNATURE_DEF_KEY = 'serving_default'
SAVED_MODEL_FILENAME_PB = SAVED_MODEL_FILE
SAVED_MODEL_FILENAME_PBTXT = 'saved_model.pbtxt'
SAVED_MODEL_SCHEMA_VERSION = 1
VARIABLES_DIRECTORY = 'variables'
VARIABLES_FILENAME = 'variables'
ASSETS_DIRECTORY = 'assets'
ASSETS_KEY = 'saved_model_assets'
DEBUG_DIRECTORY = 'debug'
DEBUG_INFO_FILENAME_PB = 'saved_model_debug_info.pb'
CLASSIFY_INPUTS = 'inputs'
CLASSIFY_METHOD_NAME = 'tensorflow/serving/classify'
CLASSIFY_OUTPUT_CLASSES = 'classes'
CLASSIFY_OUTPUT_SCORES = 'scores'
PREDICT_INPUTS = 'inputs'
PREDICT_METHOD_NAME = 'tensorflow/serving/predict'
PREDICT_OUTPUTS = 'outputs'
REGRESS_INPUTS = 'inputs'
REGRESS_METHOD_NAME = 'tensorflow/serving/regress'
REGRESS_OUTPUTS = 'outputs'


@dataclass(frozen=True)
class LoadOptions:
    """How `ag.saved_model.load` loads: TensorFlow's `tf.saved_model.LoadOptions`, its fields in
    its order. Loading restores every variable the SavedModel has and reads files on the CPU, so
    the partial-checkpoint, device and policy options change nothing; skipping the checkpoint
    and loading function aliases are not implemented and raise NotImplementedError when set."""
    allow_partial_checkpoint: bool = False
    experimental_io_device: object = None
    experimental_skip_checkpoint: bool = False
    experimental_variable_policy: object = None
    experimental_load_function_aliases: bool = False

    def __post_init__(self):
        for name in ('experimental_skip_checkpoint', 'experimental_load_function_aliases'):
            if getattr(self, name):
                raise NotImplementedError(f'LoadOptions({name}=True) is not supported.')


def contains_saved_model(export_dir):
    """Whether `export_dir` holds a SavedModel (its `saved_model.pb` or `.pbtxt`)."""
    export_dir = os.fspath(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name))
               for name in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT))
