"""`assert` in converted code."""
import runtime as rt
from runtime.tensor import is_symbolic

from autograph.operators import located


def assert_stmt(test, message):
    """`assert test, message()`; on a symbolic test an rt.debugging.Assert op that fails when the
    graph runs (with the message, or the user's file and line when there is none)."""
    if is_symbolic(test):
        text = message()
        rt.debugging.Assert(test, [text if text is not None else located.message('Assertion failed')])
        return
    if not test:
        text = message()
        raise AssertionError(text) if text is not None else AssertionError()
