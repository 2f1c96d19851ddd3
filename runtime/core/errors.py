"""The error family raised by ops and graphs, named as in TensorFlow.

Only failures of kernels become `OpError`s (`raised_by_kernel`); any other exception raised while
an op or a graph runs (KeyboardInterrupt, a signal handler's own exception, an output stream's
BrokenPipeError, an exception of Python code a kernel calls back) propagates with its own type,
with a note naming the op.
"""
import os
import sys

import numpy as np

# TensorFlow's error codes (`tf.errors.INVALID_ARGUMENT`, ...), the `error_code` of each error
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS = range(7)
PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE = range(7, 12)
UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = range(12, 17)


class OpError(Exception):
    """An op failed when it ran. `.op` is the graph Operation (None eagerly), `.error_code`
    TensorFlow's code of the failure (`rt.errors.INVALID_ARGUMENT`, ...)."""
    error_code = UNKNOWN

    def __init__(self, node_def, op, message, error_code=None, *args):
        super().__init__(message, *args)
        self.node_def = node_def
        self.op = op
        self.message = message
        if error_code is not None:
            self.error_code = error_code

    def __str__(self):
        return self.message


class CodedError(OpError):
    """The base of the errors of one code: `Error(node_def, op, message)`, with the class's
    `error_code`."""

    def __init__(self, node_def=None, op=None, message='', *args):
        super().__init__(node_def, op, message, None, *args)


class InvalidArgumentError(CodedError, ValueError):
    """An op received an argument it cannot handle (for example an index out of range)."""
    error_code = INVALID_ARGUMENT


class OutOfRangeError(CodedError):
    """An iterator was asked for an element past the end (`get_next()` of a dataset iterator
    in a graph)."""
    error_code = OUT_OF_RANGE


class NotFoundError(CodedError):
    """Something asked for (a file, a checkpoint) does not exist."""
    error_code = NOT_FOUND


class UnimplementedError(CodedError):
    """An op is not implemented for these arguments or this device."""
    error_code = UNIMPLEMENTED


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation that needs a concrete value was applied to a symbolic tensor."""


class SymbolicNumpyError(OperatorNotAllowedInGraphError, AttributeError):
    """`.numpy()` of a graph tensor leaked out of its function: TensorFlow's AttributeError (a
    graph tensor has no `numpy`), and the graph error the rest of the runtime raises."""


# ---- the errors of files (event files of rt.summary), as TensorFlow's file system raises them
class PermissionDeniedError(CodedError):
    """The caller may not read or write a file or directory."""
    error_code = PERMISSION_DENIED


class FailedPreconditionError(CodedError):
    """The system is not in a state the operation needs (a path that is not a directory)."""
    error_code = FAILED_PRECONDITION


class DataLossError(CodedError):
    """Unrecoverable data corruption (a record whose checksum does not match)."""
    error_code = DATA_LOSS


# ---- the other codes' errors, for code that raises or catches them as TensorFlow's
class CancelledError(CodedError):
    """An operation was cancelled."""
    error_code = CANCELLED


class UnknownError(CodedError):
    """An error of no other kind."""
    error_code = UNKNOWN


class DeadlineExceededError(CodedError):
    """A deadline passed before the operation completed."""
    error_code = DEADLINE_EXCEEDED


class AlreadyExistsError(CodedError):
    """Something to be created exists already."""
    error_code = ALREADY_EXISTS


class ResourceExhaustedError(CodedError):
    """A resource (memory, disk space, a quota) ran out."""
    error_code = RESOURCE_EXHAUSTED


class AbortedError(CodedError):
    """An operation was aborted (a concurrent change conflicted with it)."""
    error_code = ABORTED


class InternalError(CodedError):
    """An invariant of the runtime was broken."""
    error_code = INTERNAL


class UnavailableError(CodedError):
    """A service is not available now."""
    error_code = UNAVAILABLE


class UnauthenticatedError(CodedError):
    """The request has no valid credentials."""
    error_code = UNAUTHENTICATED


# Where a graph op was created: the innermost frame outside these library directories (the
# runtime's own; autograph adds its package). `location_mappers` then map a frame of generated
# code, (filename, lineno), to the user's line, or return None. runtime never imports autograph.
library_paths = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep]
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


# What the numpy kernels raise when their inputs are wrong.
KERNEL_ERRORS = (ValueError, IndexError, TypeError, ArithmeticError)
# Code a kernel failure is raised from: the runtime, numpy, and the generated plans.
kernel_paths = (library_paths[0], os.path.dirname(np.__file__) + '/', '<rt plan')


def raised_by_kernel(error):
    """Whether `error` is a kernel's failure: one of KERNEL_ERRORS raised in kernel code (the
    innermost frame of its traceback), not in a signal handler or in Python code of the user's
    that a kernel called (a py_function, an output stream's `write`)."""
    if isinstance(error, OpError):
        return True
    if not isinstance(error, KERNEL_ERRORS):
        return False
    tb = error.__traceback__
    if tb is None:
        return True
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename.startswith(kernel_paths)


EAGER_DEVICE = '/job:localhost/replica:0/task:0/device:CPU:0'  # where eager kernels and tensors are


def eager_message(op_type, message):
    """An eager kernel's failure in TensorFlow's words: the wrapped function and the device it
    ran on, the kernel's message, then the op type
    (`{{function_node __wrapped__Reshape_device_/job:...}} Input to reshape ... [Op:Reshape]`)."""
    return f'{{{{function_node __wrapped__{op_type}_device_{EAGER_DEVICE}}}}} {message} ' \
           f'[Op:{op_type}]'
