"""`ag.saved_model.save` / `ag.saved_model.load`: functions and variables without the source.

The package, one job a module (as TensorFlow's `tensorflow/python/saved_model/`):
`save` walks the saved object; `writer` writes `saved_model.pb` and the variables' checkpoint;
`object_graph` writes TensorFlow 2's SavedObjectGraph and the checkpoint's object graph;
`custom_gradients` saves and restores the gradients of `rt.custom_gradient`s (`SaveOptions`);
`load` rebuilds our SavedModels, `load_tf2` TensorFlow 2's, `meta_graph` reads signatures for
both, `restored` holds what loading gives back; `pickling` carries functions through `pickle`;
`constants` holds TensorFlow's SavedModel constants and `LoadOptions`.
docs/saving.md describes the directory.
"""
from autograph.saved_model import constants
from autograph.saved_model.constants import LoadOptions, contains_saved_model
from autograph.saved_model.custom_gradients import SaveOptions
from autograph.saved_model.load import load
from autograph.saved_model.save import save
from autograph.saved_model.writer import SAVED_MODEL_FILE, VARIABLES_FILE, VARIABLES_PREFIX

# TensorFlow's constants (`ag.saved_model.SERVING`, ...), from `constants`
globals().update((name, value) for name, value in vars(constants).items() if name.isupper())

__all__ = ['save', 'load', 'SaveOptions', 'LoadOptions', 'contains_saved_model',
           'SAVED_MODEL_FILE', 'VARIABLES_FILE', 'VARIABLES_PREFIX',
           *(name for name in vars(constants) if name.isupper())]
