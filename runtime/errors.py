"""The error family raised by ops and graphs, named as in TensorFlow."""
import sys


class OpError(Exception):
    """An op failed when it ran. `.op` is the graph Operation (None eagerly)."""

    def __init__(self, node_def, op, message):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message


class InvalidArgumentError(OpError, ValueError):
    """An op received an argument it cannot handle (for example an index out of range)."""

    def __init__(self, node_def=None, op=None, message=''):
        super().__init__(node_def, op, message)


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation that needs a concrete value was applied to a symbolic tensor."""


# Where a graph op was created: the innermost frame outside these library directories (the
# runtime's own; autograph adds its package). `location_mappers` then map a frame of generated
# code, (filename, lineno), to the user's line, or return None. runtime never imports autograph.
library_paths = [__file__.rsplit('/', 1)[0] + '/']
location_mappers = []


def user_location(filename, lineno):
    for mapper in location_mappers:
        mapped = mapper(filename, lineno)
        if mapped is not None:
            return mapped
    return filename, lineno


def caller_location():
    """The user's (file, line) running now: the innermost frame outside the library, mapped
    through `location_mappers`; None if there is none."""
    library = tuple(library_paths)
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(library):
        frame = frame.f_back
    if frame is None:
        return None
    return user_location(frame.f_code.co_filename, frame.f_lineno)
