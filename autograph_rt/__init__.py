"""`import autograph_rt as tf`: TensorFlow 2's names over `runtime` and `autograph`.

A TensorFlow 2 program within scope runs after its `import tensorflow as tf` line becomes
`import autograph_rt as tf`. Every public name of `runtime` is here (`tf.constant`, `tf.data`,
`tf.summary`, ...), with `tf.function`, `tf.autograph`, `tf.saved_model` from `autograph`.
The modules are assembled from the table below, not written out name by name: each TensorFlow
module searches the listed sources in order (a module not listed takes the `runtime` module at
its path). A name TensorFlow has and this project does not raises `AttributeError` saying
whether it is out of scope (`autograph_rt.scope`) or not implemented yet.
"""
import sys as _sys

from autograph_rt import adapters as _adapters  # noqa: F401 - the sources of tf.autograph
from autograph_rt import namespace as _namespace

_namespace.LAYOUT.sources.update({
    'tf': ('runtime:',),
    'tf.autograph': (),
    'tf.autograph.experimental': ('autograph:experimental',),
    'tf.saved_model': ('autograph:saved_model',),
    'tf.autodiff': (),
})
_namespace.LAYOUT.extras.update({
    'tf': {'function': 'autograph:function',
           'gradients': 'runtime.gradients.symbolic:gradients'},  # rt.gradients: the package
    'tf.autograph': {'to_code': 'autograph_rt.adapters:to_code',
                     'to_graph': 'autograph_rt.adapters:to_graph',
                     'trace': 'autograph_rt.adapters:trace',
                     'set_verbosity': 'autograph:set_verbosity'},
    'tf.autodiff': {'GradientTape': 'runtime:GradientTape'},
    'tf.debugging': {name: f'autograph.operators.frames:{name}' for name in (
        'enable_traceback_filtering', 'disable_traceback_filtering',
        'is_traceback_filtering_enabled')},
})

_namespace.make_root(_sys.modules[__name__])
__version__ = _namespace.resolve('runtime:__version__')
# the implementation modules are not TensorFlow names: `tf.scope` is an AttributeError
del globals()['adapters'], globals()['namespace'], globals()['scope']
