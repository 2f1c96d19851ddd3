"""How much AutoGraph tells about what it does, as `tf.autograph.set_verbosity`.

At level 0 (the default; the environment variable AUTOGRAPH_VERBOSITY sets the level a
process starts with) converted code says nothing about the functions it calls unconverted;
from level 1 on, each such function gets one note on stderr (also on stdout with
`alsologtostdout=True`) saying why it was not converted.
"""
import os
import sys

_level = [None]
_also_stdout = [False]


def set_verbosity(level, alsologtostdout=False):
    """Sets the verbosity level (an int >= 0); notes of that level or below are printed."""
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise ValueError(f'ag.set_verbosity needs a level that is an int >= 0, got {level!r}')
    _level[0] = level
    _also_stdout[0] = bool(alsologtostdout)


def get_verbosity():
    if _level[0] is None:
        value = os.environ.get('AUTOGRAPH_VERBOSITY', '0')
        _level[0] = int(value) if value.isdigit() else 0
    return _level[0]


def note(level, message):
    """Prints `message` if the verbosity is at least `level`."""
    if get_verbosity() >= level:
        line = f'autograph: note: {message}\n'
        sys.stderr.write(line)
        if _also_stdout[0]:
            sys.stdout.write(line)
