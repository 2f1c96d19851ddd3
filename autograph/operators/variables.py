"""Placeholders for values that do not exist yet, and the checked read of a variable."""
from autograph.operators import located


class Undefined:
    """The value of `symbol_name` where it may not be bound yet (set before an if or a loop).

    Using it in any way raises an error naming the variable.
    """

    __slots__ = ('symbol_name',)

    def __init__(self, symbol_name):
        object.__setattr__(self, 'symbol_name', symbol_name)

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(located.message(
            f"local variable '{self.symbol_name}' is used before it is assigned a value"))

    def __getattr__(self, name):
        self._fail()

    __call__ = __bool__ = __iter__ = __len__ = __getitem__ = __index__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __floordiv__ = __mod__ = __pow__ = __neg__ = __lt__ = __gt__ = _fail
    __le__ = __ge__ = __matmul__ = _fail

    def __repr__(self):
        return f'Undefined({self.symbol_name!r})'


class UndefinedReturnValue:
    """The return value of a converted function before any `return` ran."""

    def __repr__(self):
        return 'UndefinedReturnValue()'


def ld(value):
    """A read of a user variable: the value, or a clear error if it is still undefined."""
    if isinstance(value, Undefined):
        value._fail()
    return value


def ldu(read, name):
    """A read of a name, key or attribute that may not exist yet: its value, or
    `Undefined(name)`."""
    try:
        return read()
    except (NameError, KeyError, AttributeError, IndexError):
        return Undefined(name)
