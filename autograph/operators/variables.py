"""Placeholders for values that do not exist yet, and the checked read of a variable."""
import weakref
from dataclasses import dataclass
from typing import ClassVar

import runtime as rt
from autograph.operators import located

# Tensors that stand for a variable a graph loop may not have set (it was unbound before the
# loop): id -> (weak reference, bool tensor "it was set", message). A read through `ld` adds an
# Assert on the flag, so the graph fails where Python would raise UnboundLocalError.
_maybe_unset = {}


def mark_maybe_unset(value, flag, message):
    key = id(value)
    _maybe_unset[key] = (weakref.ref(value, lambda _, key=key: _maybe_unset.pop(key, None)),
                         flag, message)


def maybe_unset(value):
    """(flag, message) if `value` stands for a variable that may not be set, else None."""
    entry = _maybe_unset.get(id(value))
    if entry is not None and entry[0]() is value:
        return entry[1], entry[2]
    return None


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


@dataclass(eq=False, repr=False, init=False)
class UndefinedReturnValue:
    """The return value of a converted function before any `return` ran.

    `every_path_returns`: the compiler found a `return` at the end of every path of the
    function, so a tensor `if` may return in one branch only (the other branch carries a
    placeholder of the same type, which no path can return); converted code then starts from
    `UndefinedReturnValueOnEveryPath()`. The fields are class-level defaults, so that making
    one, on every call of a function with an early `return`, runs no Python code.
    """

    every_path_returns: ClassVar[bool] = False
    return_type: object = None   # (shape, dtype), set on the instance once a return ran

    def __repr__(self):
        return 'UndefinedReturnValue()'


class UndefinedReturnValueOnEveryPath(UndefinedReturnValue):
    """An UndefinedReturnValue with `every_path_returns`."""

    every_path_returns: ClassVar[bool] = True


def ld(value):
    """A read of a user variable: the value, or a clear error if it is still undefined."""
    if isinstance(value, Undefined):
        value._fail()
    if _maybe_unset:
        unset = maybe_unset(value)
        if unset is not None:
            rt.debugging.Assert(unset[0], [unset[1]])
    return value


def ldu(read, name):
    """A read of a name, key or attribute that may not exist yet: its value, or
    `Undefined(name)`."""
    try:
        return read()
    except (NameError, KeyError, AttributeError, IndexError):
        return Undefined(name)
