"""The frame of a converted function: `with ag__.FunctionScope(...) as fscope:`.

While converted code runs in a thread, Python's recursion limit leaves room for the frames it
adds to each call (autograph.pyct.recursion), and the converted calls running in the thread
are counted against the user's limit instead, so recursion goes as deep as unconverted;
an error that leaves converted code has autograph's own frames taken out of its traceback, and
a note that lists the user's frames (file, line, source) it ran through.
"""
import threading

from autograph.compiler import verbosity
from autograph.operators import frames, guards, lists, variables
from autograph.pyct import recursion

_running = threading.local()   # .depth: converted functions running in this thread
_FRAMES_BELOW = 3   # the frames of a script under its first call (Python reaches 997 of 1000)


class ConversionOptions:
    """How functions called from converted code are treated (`recursive`: convert them too)."""

    def __init__(self, recursive=True, user_requested=False, optional_features=(),
                 internal_convert_user_code=True):
        self.recursive = recursive
        self.user_requested = user_requested
        self.optional_features = optional_features
        self.internal_convert_user_code = internal_convert_user_code


class FunctionScope:
    """The scope of one converted function; `ret` produces its return value."""

    def __init__(self, function_name, scope_name, options):
        self.function_name = function_name
        self.scope_name = scope_name
        self.options = options
        self.staged_before = lists.staged_count[0]

    def __enter__(self):
        depth = getattr(_running, 'depth', 0)
        if not depth:
            recursion.request()
        elif depth >= recursion.user_limit() - _FRAMES_BELOW:
            raise RecursionError('maximum recursion depth exceeded')
        _running.depth = depth + 1
        return self

    def __exit__(self, cls, error, traceback):
        _running.depth -= 1
        if not _running.depth:
            recursion.release()
            if traceback is not None:
                if not verbosity.get_verbosity():
                    frames.without_library_frames(traceback)
                frames.add_user_frames_note(error, traceback)
        return False

    def ret(self, value, do_return):
        """The function's result. When whether it returned is only known at run time (a
        `return` inside a tensor loop), a graph check makes sure it did. Only a function that
        staged a list (a tensor loop appended to it) searches its value for staged lists: any
        other value is returned as it is, at no cost."""
        if type(value) is variables.UndefinedReturnValue:
            return None
        if do_return is not True:
            guards.check_returned(do_return, self.function_name)
        if lists.staged_count[0] == self.staged_before:
            return value
        return lists.stacked(value)
