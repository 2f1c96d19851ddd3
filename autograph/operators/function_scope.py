"""The frame of a converted function: `with ag__.FunctionScope(...) as fscope:`.

Past a few nested converted calls in a thread, Python's recursion limit leaves room for the
frames the functional forms of `if` and loops add (autograph.pyct.recursion), and the
converted calls running in the thread are counted against the user's limit instead, so
recursion goes as deep as unconverted; an error that leaves converted code has autograph's own
frames taken out of its traceback, and, when block functions remain in it, a note that lists
the user's frames (file, line, source) it ran through.
"""
import sys
import threading
from dataclasses import dataclass

from autograph.compiler import verbosity
from autograph.operators import frames, guards, lists, variables
from autograph.pyct import origin_info, recursion


class _Running(threading.local):
    depth = 0   # converted functions running in this thread
    counting = False   # past _SHALLOW of them: whether they are counted against the limit


_running = _Running()
_FRAMES_BELOW = 3   # the frames of a script under its first call (Python reaches 997 of 1000)
# converted calls that run without a raised limit: even at the most frames a call adds
# (recursion.FRAMES_PER_CALL), they fit in the user's limit above a stack of ordinary depth
_SHALLOW = 16
_IS_FUNCTION_CODE = origin_info.is_function_code
_STAGED_COUNT = lists.staged_count   # [lists staged so far], one list object for good
_UNDEFINED_RETURN = variables.UndefinedReturnValue


@dataclass(eq=False)
class ConversionOptions:
    """How functions called from converted code are treated (`recursive`: convert them too)."""

    recursive: bool = True
    user_requested: bool = False
    optional_features: tuple = ()
    internal_convert_user_code: bool = True


# the options of converted code, built once (TensorFlow's `ag__.STD`): the function the user
# asked to convert, and the functions it calls or defines
STD_REQUESTED = ConversionOptions(recursive=True, user_requested=True)
STD = ConversionOptions(recursive=True)


class FunctionScope:
    """The scope of one converted function; `ret` produces its return value.

    Entering it costs a counter of the converted calls running in the thread; only past
    `_SHALLOW` of them, and only when the functional forms of `if` and loops added frames
    between them, is the recursion limit raised and the user's limit checked."""

    __slots__ = ('function_name', 'scope_name', 'options', 'staged_before')

    def __init__(self, function_name, scope_name, options):
        self.function_name = function_name
        self.scope_name = scope_name
        self.options = options
        self.staged_before = _STAGED_COUNT[0]

    def __enter__(self):
        depth = _running.depth + 1
        if depth > _SHALLOW:
            _enter_deep(depth)
        _running.depth = depth
        return self

    def __exit__(self, cls, error, traceback):
        depth = _running.depth
        _running.depth = depth - 1
        if depth == _SHALLOW + 1 and _running.counting:
            _running.counting = False
            recursion.release()
        elif depth == 1 and traceback is not None:
            if not verbosity.get_verbosity():
                frames.without_library_frames(traceback)
            frames.add_user_frames_note(error, traceback)
        return False

    def ret(self, value, do_return):
        """The function's result. When whether it returned is only known at run time (a
        `return` inside a tensor loop), a graph check makes sure it did. Only a function that
        staged a list (a tensor loop appended to it) searches its value for staged lists: any
        other value is returned as it is, at no cost."""
        if type(value) is _UNDEFINED_RETURN:
            return None
        if do_return is not True:
            guards.check_returned(do_return, self.function_name)
        if _STAGED_COUNT[0] == self.staged_before:
            return value
        return lists.stacked(value)


def _enter_deep(depth):
    """Past `_SHALLOW` converted calls (`depth` is the call being entered): when the calls
    running have frames of ours among them, room for those frames, and the user's limit
    counted in converted calls; when they run in their own frames only, Python's limit is left
    as it is and stops them where it stops the original."""
    if depth == _SHALLOW + 1:
        if _frames_of_ours(sys._getframe(2)):
            _running.counting = True
            recursion.request()
    elif _running.counting and depth >= recursion.user_limit() - _FRAMES_BELOW:
        raise RecursionError('maximum recursion depth exceeded')


def _frames_of_ours(frame):
    """Whether, from `frame` (of a converted function) outwards, the frames of the `_SHALLOW`
    innermost converted calls include others (an operator, a block function)."""
    calls = 0
    while frame is not None and calls < _SHALLOW:
        if not _IS_FUNCTION_CODE(frame.f_code):
            return True
        calls += 1
        frame = frame.f_back
    return calls < _SHALLOW
