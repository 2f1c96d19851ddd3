"""The compiler's public functions. Importing this module loads neither numpy nor `runtime`."""
from autograph import conversion

_DO_NOT_CONVERT = '__ag_do_not_convert__'


def to_code(func):
    """The converted source of `func` (a function, method or lambda) as a string."""
    func = getattr(func, 'python_function', func)
    func = getattr(func, '__func__', func)
    return conversion.convert(func).function_source


def do_not_convert(func):
    """Marks `func` so that converted code calls it as it is, without converting it."""
    try:
        setattr(func, _DO_NOT_CONVERT, True)
    except (AttributeError, TypeError):
        pass
    return func


def is_marked_do_not_convert(func):
    return getattr(func, _DO_NOT_CONVERT, False)
