"""`assert` in converted code."""
from typing import Any, Callable

import runtime as rt
from autograph.operators import located, recording
from runtime.core.tensor import is_symbolic


def assert_stmt(test: Any, message: Callable[[], Any]) -> Any:
    """`assert test, message()`; on a symbolic test an rt.debugging.Assert op that fails when the
    graph runs (with the message, or the user's file and line when there is none)."""
    if is_symbolic(test):
        text = message()
        message = text if text is not None else located.message('Assertion failed')
        rt.debugging.Assert(test, [message])
        if recording.recorder is not None:
            recording.recorder.staged('assert', None, 'Assert')
        return
    if not test:
        text = message()
        raise AssertionError(text) if text is not None else AssertionError()
