"""Raises Python's recursion limit while code that needs more frames than the user's runs.

Two kinds of code ask for room: the compiler's passes, which recurse once per nesting level of
the syntax tree (an absolute limit, `DEEP_RECURSION_LIMIT`), and converted code, which may run
several frames for each frame of the original (for each `if`/loop in its functional form
around the call, its operator and block function): while deep converted calls run, the limit
is `FRAMES_PER_CALL` times the user's, and converted code itself counts its calls against the
user's limit (`user_limit`), so that recursion stops at about the depth it stops unconverted.
The user's own limit is put back when the last request ends.
"""
import contextlib
import os
import sys
import threading
from typing import Iterator

DEEP_RECURSION_LIMIT = 20_000
FRAMES_PER_CALL = 20

_lock = threading.Lock()
# absolute limits asked for by running code (0: FRAMES_PER_CALL x the user's)
_requests: list[int] = []
_user_limit = [0]   # the user's limit, set by the first request


def _new_lock_in_child() -> None:
    """After a fork, in the child: another thread may have held the lock at the fork."""
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_new_lock_in_child)


def _apply() -> None:
    base = _user_limit[0]
    sys.setrecursionlimit(max([base] + [r or base * FRAMES_PER_CALL for r in _requests]))


def user_limit() -> int:
    """The recursion limit the user set (while a request raises Python's)."""
    return _user_limit[0] if _requests else sys.getrecursionlimit()


def request(limit: int = 0) -> None:
    """Asks for `limit` frames (0: room for converted code) until the matching `release`."""
    with _lock:
        if not _requests:
            _user_limit[0] = sys.getrecursionlimit()
        _requests.append(limit)
        _apply()


def release(limit: int = 0) -> None:
    with _lock:
        _requests.remove(limit)
        if _requests:
            _apply()
        else:
            sys.setrecursionlimit(_user_limit[0])


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Room for the compiler's passes (an if/elif chain of a few hundred branches nests that
    deep)."""
    request(DEEP_RECURSION_LIMIT)
    try:
        yield
    finally:
        release(DEEP_RECURSION_LIMIT)
