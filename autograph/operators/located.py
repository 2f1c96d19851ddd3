"""Error messages that point at the user's code, not at the generated code."""
from autograph.pyct import origin_info


def message(text):
    """`text` prefixed with the user's file and line of the converted code that is running."""
    origin = origin_info.user_location()
    if origin is None:
        return text
    return f'{origin}: {text}\n{origin.as_frame()}'


def error(cls, text):
    """An exception of type `cls` whose message names the user's location."""
    exception = cls(message(text))
    exception.ag_located = True
    return exception


class user_errors:
    """Adds the user's location to TypeError/ValueError raised by the runtime's graph builders
    (e.g. a branch dtype mismatch in rt.cond) that do not carry one yet."""

    def __enter__(self):
        return self

    def __exit__(self, cls, exception, traceback):
        if cls in (TypeError, ValueError) and not getattr(exception, 'ag_located', False):
            raise error(cls, str(exception)) from None
        return False
