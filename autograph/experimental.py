"""`ag.experimental`: loop directives for converted code, and `do_not_convert` (the path
TensorFlow users type, `tf.autograph.experimental.do_not_convert`), and the names of
AutoGraph's conversions (`Feature`)."""
import enum

from autograph.compiler.api import do_not_convert

__all__ = ['Feature', 'do_not_convert', 'set_loop_options']


class Feature(enum.Enum):
    """AutoGraph's optional conversions as TensorFlow names them (for `ag.function`'s
    `experimental_autograph_options`); here every one of them is always on."""
    ALL = 'ALL'
    AUTO_CONTROL_DEPS = 'AUTO_CONTROL_DEPS'
    ASSERT_STATEMENTS = 'ASSERT_STATEMENTS'
    BUILTIN_FUNCTIONS = 'BUILTIN_FUNCTIONS'
    EQUALITY_OPERATORS = 'EQUALITY_OPERATORS'
    LISTS = 'LISTS'
    NAME_SCOPES = 'NAME_SCOPES'


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """Options for the enclosing loop when AutoGraph turns it into a graph loop.

    `shape_invariants` is a list of `(variable, shape)` pairs for loop variables whose shape
    changes across iterations; `maximum_iterations` bounds the number of iterations;
    `parallel_iterations` and `swap_memory` (TensorFlow's scheduling and GPU memory hints) are
    accepted and change nothing, as iterations run in order, in memory. The directives converter
    removes this call and hands its arguments to the loop operator, so called at run time
    (unconverted code) it has no effect.
    """
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants
