"""Errors the compiler raises about the user's code."""


class ConversionError(Exception):
    """The user's code cannot be converted; the message names the construct and the location."""


class UnsupportedFeatureError(ConversionError, NotImplementedError):
    """A construct AutoGraph does not convert (e.g. `yield`)."""


class SourceUnavailableError(ConversionError):
    """The function's source text cannot be found (defined with `exec` or in a REPL)."""
