"""The user's frames, as the original code would have them, seen from converted code.

A converted function runs in more frames than the original: `converted_call` (autograph's
own file) between caller and callee, and for each `if`/loop a block function of the generated
code (`if_body`, `loop_body`, ... called by `ag__.if_stmt`). `user_frames` walks the stack as
Python would see it unconverted: autograph's frames are skipped, and a block function counts
as part of the function it was written in (its line is the line that runs). Generated lines
are mapped back to the user's file and line.

`warn` is what a converted call of `warnings.warn` runs: the warning's `stacklevel` counts
those frames, so a `stacklevel=2` warning names the caller's line, not autograph's files.
`without_library_frames` takes autograph's frames out of the traceback of an error leaving
converted code (from verbosity 1 on they stay, for debugging autograph itself), and
`add_user_frames_note` adds to it a note (PEP 678: the error's type, arguments and message stay
as they are) listing the user's frames of the generated ones, with their file, line and source.
"""
import os
import re
import sys
import warnings

from autograph.pyct import loader, origin_info

_LIBRARY = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# the functions the compiler writes for the blocks of a statement (the namer never gives
# them a user's name), and the argument-less lambdas of `a if c else b`, `and`/`or`, asserts
_BLOCK = re.compile(r'(if_body|else_body|loop_body|loop_test|extra_test|get_state|set_state'
                    r')(_\d+)?|<lambda>')


def _is_block(code):
    return (code.co_filename.startswith(loader.GENERATED_PREFIX)
            and _BLOCK.fullmatch(code.co_name) is not None
            and (code.co_name != '<lambda>' or code.co_argcount == 0))


def user_frames(frame):
    """(frame, filename, lineno) of each frame of the user's program from `frame` outwards,
    as unconverted code would have them."""
    line_frame = None
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith(_LIBRARY):
            frame = frame.f_back
            continue
        if line_frame is None:
            line_frame = frame
        if not _is_block(code):
            origin = origin_info.lookup(line_frame.f_code.co_filename, line_frame.f_lineno)
            if origin is not None:
                yield frame, origin.filename, origin.lineno
            else:
                yield frame, line_frame.f_code.co_filename, line_frame.f_lineno
            line_frame = None
        frame = frame.f_back


def warn(message, category=None, stacklevel=1, source=None):
    """`warnings.warn`, with `stacklevel` counted in the user's frames."""
    if isinstance(message, Warning):
        category = message.__class__
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError(f'category must be a Warning subclass, not {type(category).__name__!r}')
    level = 0
    for frame, filename, lineno in user_frames(sys._getframe(1)):
        level += 1
        if level >= stacklevel:
            module_globals = frame.f_globals
            break
    else:  # the stack is shallower than `stacklevel`: Python names `sys`
        module_globals, filename, lineno = sys.__dict__, 'sys', 1
    registry = module_globals.setdefault('__warningregistry__', {})
    # the module's loader gives the source line only of the module's own file
    own_file = module_globals if module_globals.get('__file__') == filename else None
    warnings.warn_explicit(message, category, filename, lineno,
                           module_globals.get('__name__', '<string>'), registry, own_file,
                           source)


def without_library_frames(tb):
    """The traceback `tb`, changed in place: the entries of autograph's own files between the
    user's frames are left out (the innermost entry, where the error was raised, stays)."""
    kept, entry = tb, tb.tb_next
    while entry is not None:
        if entry.tb_next is None or not entry.tb_frame.f_code.co_filename.startswith(_LIBRARY):
            kept.tb_next = entry
            kept = entry
        entry = entry.tb_next
    return tb


USER_FRAMES_NOTE = 'In converted code, the user\'s frames (most recent call last):'


def add_user_frames_note(error, tb):
    """Adds to `error` a note that lists the user's frames of the generated frames of `tb`
    (once: an error that leaves converted code twice keeps its first note)."""
    if any(note.startswith(USER_FRAMES_NOTE) for note in getattr(error, '__notes__', ())):
        return
    frames = []   # [origin] of each user function, the line that ran in it
    while tb is not None:
        code = tb.tb_frame.f_code
        origin = origin_info.lookup(code.co_filename, tb.tb_lineno)
        if origin is not None:
            if _is_block(code) and frames:
                frames[-1] = origin
            else:
                frames.append(origin)
        tb = tb.tb_next
    if frames:
        error.add_note('\n'.join([USER_FRAMES_NOTE] + [o.as_frame() for o in frames]))
