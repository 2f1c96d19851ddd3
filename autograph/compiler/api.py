"""The compiler's public functions. Importing this module loads neither numpy nor `runtime`."""
import types
from typing import Any, Callable

from autograph.compiler import conversion

_DO_NOT_CONVERT = '__ag_do_not_convert__'


def to_code(func: Callable[..., Any]) -> str:
    """The converted source of `func` (a function, method or lambda) as a string."""
    func = getattr(func, 'python_function', func)
    func = getattr(func, '__func__', func)
    if not isinstance(func, types.FunctionType):
        what = 'the class' if isinstance(func, type) else f'the {type(func).__name__}'
        raise TypeError(f'ag.to_code needs a Python function, method or lambda, got {what} '
                        f'{func!r}, which has no Python source to convert.')
    return conversion.convert(func).function_source


def do_not_convert(func: Any = None) -> Any:
    """Marks `func` so that converted code calls it as it is, without converting it. Without
    `func` (`@do_not_convert()`), the decorator that does so."""
    if func is None:
        return do_not_convert
    try:
        setattr(func, _DO_NOT_CONVERT, True)
    except (AttributeError, TypeError):
        pass
    return func


def is_marked_do_not_convert(func: object) -> bool:
    return getattr(func, _DO_NOT_CONVERT, False)
