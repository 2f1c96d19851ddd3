"""`ag.experimental`: loop directives for converted code, and `do_not_convert` (the path
TensorFlow users type, `tf.autograph.experimental.do_not_convert`)."""
from autograph.compiler.api import do_not_convert

__all__ = ['do_not_convert', 'set_loop_options']


def set_loop_options(shape_invariants=None, maximum_iterations=None):
    """Options for the enclosing loop when AutoGraph turns it into a graph loop.

    `shape_invariants` is a list of `(variable, shape)` pairs for loop variables whose shape
    changes across iterations; `maximum_iterations` bounds the number of iterations. The
    directives converter removes this call and hands its arguments to the loop operator, so
    called at run time (unconverted code) it has no effect.
    """
    del shape_invariants, maximum_iterations
