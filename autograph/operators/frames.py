"""The user's frames, as the original code would have them, seen from converted code.

A converted function runs in its own frame, called from the caller's frame (`ag__.callee`
returns what to call, it is not between them), and its code carries the user's file, lines
and names (autograph.pyct.loader). The functional forms of `if` and loops still add frames: an
operator (`ag__.if_stmt`, in autograph's own files) and a block function of the generated code
(`if_body`, `loop_body`, ...). `user_frames` walks the stack as Python would see it
unconverted: autograph's frames are skipped, and a block function counts as part of the
function it was written in (its line is the line that runs).

`warn` is what a converted call of `warnings.warn` runs: the warning's `stacklevel` counts
those frames, so a `stacklevel=2` warning names the caller's line, not autograph's files.
`without_library_frames` takes autograph's frames out of the traceback of an error leaving
converted code (from verbosity 1 on, or after `disable_traceback_filtering()`, they stay, for
debugging autograph itself), and, when
frames of ours remain in it (block functions, the operator that raised), `add_user_frames_note`
adds to it a note (PEP 678: the error's type, arguments and message stay as they are) listing
the user's frames, with their file, line and source.
"""
import os
import sys
import warnings

from autograph.pyct import origin_info

_LIBRARY = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_filtering = [True]  # tf.debugging.disable_traceback_filtering turns it off


def enable_traceback_filtering():
    """Errors leaving converted code lose autograph's frames (the default)."""
    _filtering[0] = True


def disable_traceback_filtering():
    """Errors leaving converted code keep every frame, autograph's too (for debugging)."""
    _filtering[0] = False


def is_traceback_filtering_enabled():
    return _filtering[0]


def user_frames(frame):
    """(frame, filename, lineno) of each frame of the user's program from `frame` outwards,
    as unconverted code would have them."""
    line_frame = None
    while frame is not None:
        code = frame.f_code
        # between a block function and the converted function it belongs to, every frame is
        # the staged construct's (the operators', the runtime's rt.cond or while_loop)
        if code.co_filename.startswith(_LIBRARY) or (
                line_frame is not None and not origin_info.is_generated_code(code)):
            frame = frame.f_back
            continue
        if line_frame is None:
            line_frame = frame
        if not origin_info.is_block(code):
            origin = origin_info.code_origin(line_frame.f_code, line_frame.f_lineno)
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
    """The traceback `tb` (of a frame of converted code), changed in place: the entries of
    autograph's own files are left out, also the innermost ones (an overload such as `int_`
    raising the builtin's error ends the traceback at the user's call, as the builtin itself
    would; an operator's own error names the user's line in its message)."""
    kept, entry = tb, tb.tb_next
    while entry is not None:
        if not entry.tb_frame.f_code.co_filename.startswith(_LIBRARY):
            kept.tb_next = entry
            kept = entry
        entry = entry.tb_next
    kept.tb_next = None
    return tb


USER_FRAMES_NOTE = 'In converted code, the user\'s frames (most recent call last):'


def add_user_frames_note(error, tb):
    """Adds to `error` a note that lists the user's frames of the converted frames of `tb`,
    when frames of autograph's are among them (a block function of a staged `if` or loop, an
    operator that raised): a traceback of converted frames only is the user's already. Once:
    an error that leaves converted code twice keeps its first note."""
    if any(note.startswith(USER_FRAMES_NOTE) for note in getattr(error, '__notes__', ())):
        return
    frames = []   # [origin] of each user function, the line that ran in it
    ours = False   # a frame that is not the user's
    while tb is not None:
        code = tb.tb_frame.f_code
        origin = origin_info.code_origin(code, tb.tb_lineno)
        if origin is not None:
            if origin_info.is_block(code) and frames:
                frames[-1] = origin
                ours = True
            else:
                frames.append(origin)
        elif frames and code.co_filename.startswith(_LIBRARY):
            ours = True
        tb = tb.tb_next
    if frames and ours:
        error.add_note('\n'.join([USER_FRAMES_NOTE] + [o.as_frame() for o in frames]))
