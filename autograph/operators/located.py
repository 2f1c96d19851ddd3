"""Error messages that point at the user's code, not at the generated code."""
from autograph.pyct import origin_info


def message(text, origin=None):
    """`text` prefixed with the user's file and line: `origin`, else those of the converted
    code that is running."""
    origin = origin or origin_info.user_location()
    if origin is None:
        return text
    return f'{origin}: {text}\n{origin.as_frame()}'


def error(cls, text, origin=None):
    """An exception of type `cls` whose message names the user's location."""
    exception = cls(message(text, origin))
    exception.ag_located = True
    return exception


class user_errors:
    """Adds the user's location to TypeError/ValueError raised by the runtime's graph builders
    that do not carry one yet: the line of converted code that raised it (an op of a branch or
    loop body traced inside), else the construct's own (a branch dtype mismatch in rt.cond)."""

    def __enter__(self):
        return self

    def __exit__(self, cls, exception, traceback):
        if cls in (TypeError, ValueError) and not getattr(exception, 'ag_located', False):
            raise error(cls, str(exception), origin_info.raised_location(traceback)) from None
        return False
