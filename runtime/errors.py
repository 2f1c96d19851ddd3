"""The error family raised by ops and graphs, named as in TensorFlow."""


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


# A hook autograph sets so that op creation sites inside converted code point at the user's
# source line: (filename, lineno) -> (filename, lineno). runtime never imports autograph.
location_mappers = []


def user_location(filename, lineno):
    for mapper in location_mappers:
        mapped = mapper(filename, lineno)
        if mapped is not None:
            return mapped
    return filename, lineno
