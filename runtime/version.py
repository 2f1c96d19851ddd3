"""`rt.version`: which TensorFlow API this project follows, and what it is built from.

`VERSION` is the TensorFlow release whose public API (names, signatures, defaults) the project
follows: 2.21.0. `GIT_VERSION` names this project's own release; `COMPILER_VERSION` is the
compiler of the Python running it (the runtime itself is Python and numpy, with no native
build of its own); `GRAPH_DEF_VERSION` is the `versions.producer` the GraphDefs written here
carry, and the two minimum versions are those TensorFlow's GraphDefs declare.
"""
import platform

VERSION = '2.21.0'
GIT_VERSION = 'autograph-rt-v0.1.0'  # the project's version (runtime.__version__)
COMPILER_VERSION = platform.python_compiler()
GRAPH_DEF_VERSION = 1  # runtime/graph/graph_def.py writes this producer version
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

__all__ = ['COMPILER_VERSION', 'GIT_VERSION', 'GRAPH_DEF_VERSION',
           'GRAPH_DEF_VERSION_MIN_CONSUMER', 'GRAPH_DEF_VERSION_MIN_PRODUCER', 'VERSION']
