"""The scope of a converted function, and the room staged constructs need for their frames.

A converted function has a scope, one object per function built once, and runs its body in a
`try` whose handler, `ag__.unwind()`, only sees errors (the generated form:
autograph/converters/function_scopes.py). So a call costs no bookkeeping: on Python values a
converted call runs in its own frame only, as the original does, and Python's own recursion
limit stops it where it stops the original.
An error that leaves converted code (its caller is not converted code) has autograph's own
frames taken out of its traceback and, when block functions remain in it, a note that lists
the user's frames (file, line, source) it ran through.

Frames of ours come only with the functional forms of `if` and loops (an operator, the
runtime's cond or loop, a block function, about 15 frames a level): a staged construct runs
inside `staged_frames()`, which, past `_SHALLOW` nested ones in a thread, raises Python's limit
to room for them (autograph.pyct.recursion; a trace has that room already) and counts the
staged constructs against the user's limit instead, so that recursion through them stops at
about the user's limit, not at the raised one.
"""
import sys
import threading
from dataclasses import dataclass
from typing import Any, Literal

from autograph.compiler import verbosity
from autograph.operators import frames, guards, lists, variables
from autograph.pyct import recursion

_FRAMES_BELOW = 3   # the frames of a script under its first call (Python reaches 997 of 1000)
# staged constructs that run without a raised limit: even at the frames each adds, they fit in
# the user's limit above a stack of ordinary depth
_SHALLOW = 16
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
    """The scope of one converted function: its name and options (`ag__.callee` reads them),
    and `ret`, which produces its return value. It holds nothing of a call, so converted code
    takes it from `STD_REQUESTED_SCOPES`/`STD_SCOPES`, built once per function, where it uses
    it (the code that runs reads it in its slow paths only: converters/speed/scope_reads.py)."""

    __slots__ = ('function_name', 'options')

    def __init__(self, function_name: str, options: ConversionOptions) -> None:
        self.function_name = function_name
        self.options = options

    def ret(self, value: Any, do_return: Any, staged_before: Any = None) -> Any:
        """The function's result. When whether it returned is only known at run time (a
        `return` inside a tensor loop), a graph check makes sure it did. `staged_before`, in a
        function whose loops append to lists, is `ag__.STAGED_LISTS[0]` when the call started:
        only when a tensor loop staged a list since is the value searched for staged lists;
        any other value is returned as it is, at no cost."""
        if type(value) is _UNDEFINED_RETURN:
            return None
        if do_return is not True:
            guards.check_returned(do_return, self.function_name)
        if staged_before is None or _STAGED_COUNT[0] == staged_before:
            return value
        return lists.stacked(value)

    def __repr__(self) -> str:
        return f'FunctionScope({self.function_name!r})'


def unwind() -> None:
    """In the handler of a converted function's `try`, while an error leaves it: when
    its caller is not converted code, the error leaves converted code, and its traceback
    loses autograph's frames (kept from verbosity 1 on) and gains the user's frames note."""
    caller = sys._getframe(1).f_back   # 0: unwind, 1: the converted function
    # converted code reads the operators as `ag__`: a free variable of code the loader
    # compiled, a global of a module `autograph convert` wrote (no Python call here: at
    # the recursion limit this handler has no frame to spare)
    if caller is not None and ('ag__' in caller.f_code.co_freevars
                               or 'ag__' in caller.f_code.co_names):
        return
    error = sys.exc_info()[1]
    traceback = error.__traceback__ if error is not None else None
    if traceback is None:
        return
    if not verbosity.get_verbosity() and frames.is_traceback_filtering_enabled():
        frames.without_library_frames(traceback)
    frames.add_user_frames_note(error, traceback)


# Function name -> the FunctionScope of the functions of that name converted with the options,
# read with `.get` and made by `new_scope` on first use. Plain dicts keyed by the name alone:
# nothing in a lookup counts against the recursion limit (a tuple key compares its items, a
# dict subclass's subscript is a call), so a converted call needs no more depth than Python's.
STD_REQUESTED_SCOPES: dict[str, FunctionScope] = {}
STD_SCOPES: dict[str, FunctionScope] = {}
_SCOPES_OF = {id(STD_REQUESTED): STD_REQUESTED_SCOPES, id(STD): STD_SCOPES}


def new_scope(function_name: str, options: ConversionOptions) -> FunctionScope:
    """The scope of the functions `function_name` converted with `options`, made once."""
    return _SCOPES_OF[id(options)].setdefault(
        function_name, FunctionScope(function_name, options))


STAGED_LISTS = _STAGED_COUNT


class _Staged(threading.local):
    depth = 0   # staged constructs running in this thread
    counting = False   # past _SHALLOW of them: whether the limit is raised and they are counted


_staged = _Staged()


class staged_frames:
    """The block functions of a staged `if` or loop run inside it (see the module's doc)."""

    __slots__ = ()

    def __enter__(self) -> 'staged_frames':
        depth = _staged.depth + 1
        if depth > _SHALLOW:
            if not _staged.counting:
                _staged.counting = True
                recursion.request()
            elif depth >= recursion.user_limit() - _FRAMES_BELOW:
                raise RecursionError('maximum recursion depth exceeded')
        _staged.depth = depth
        return self

    def __exit__(self, cls: object, error: object, traceback: object) -> Literal[False]:
        depth = _staged.depth
        _staged.depth = depth - 1
        if depth == _SHALLOW + 1 and _staged.counting:
            _staged.counting = False
            recursion.release()
        return False
