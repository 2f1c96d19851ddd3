"""Placeholders for values that do not exist yet, and the checked read of a variable."""
import sys
import weakref
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, NoReturn

import runtime as rt
from autograph.operators import located
from autograph.operators.protocol import GetState, SetState, SymbolNames, Thunk

# Tensors that stand for a variable a graph loop may not have set (it was unbound before the
# loop): id -> (weak reference, bool tensor "it was set", message). A read through `ld` adds an
# Assert on the flag, so the graph fails where Python would raise UnboundLocalError.
_maybe_unset: dict[int, tuple[weakref.ref[Any], Any, str]] = {}


def mark_maybe_unset(value: Any, flag: Any, message: str) -> None:
    key = id(value)

    def forget(_: object) -> None:
        _maybe_unset.pop(key, None)
    _maybe_unset[key] = (weakref.ref(value, forget), flag, message)


def maybe_unset(value: Any) -> tuple[Any, str] | None:
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

    def __init__(self, symbol_name: str) -> None:
        object.__setattr__(self, 'symbol_name', symbol_name)

    def _fail(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise UnboundLocalError(located.message(
            f"local variable '{self.symbol_name}' is used before it is assigned a value"))

    def __getattr__(self, name: str) -> Any:
        self._fail()

    __call__ = __bool__ = __iter__ = __len__ = __getitem__ = __index__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __truediv__ = __floordiv__ = __mod__ = __pow__ = __neg__ = __lt__ = __gt__ = _fail
    __le__ = __ge__ = __matmul__ = _fail

    def __repr__(self) -> str:
        return f'Undefined({self.symbol_name!r})'


@dataclass(eq=False, repr=False, init=False)
class UndefinedReturnValue:
    """The return value of a converted function before any `return` ran.

    `every_path_returns`: the compiler found a `return` at the end of every path of the
    function, so a tensor `if` may return in one branch only (the other branch carries a
    placeholder of the same type, which no path can return); converted code then starts from
    `UNDEFINED_RETURN_ON_EVERY_PATH`. `return_type` is set on an instance of a staged
    construct's own (`fresh_return_values`), never on the shared starts.
    """

    every_path_returns: ClassVar[bool] = False
    return_type: object = None   # (shape, dtype), set on the instance once a return ran

    def __repr__(self) -> str:
        return 'UndefinedReturnValue()'


class UndefinedReturnValueOnEveryPath(UndefinedReturnValue):
    """An UndefinedReturnValue with `every_path_returns`."""

    every_path_returns: ClassVar[bool] = True


# The start of a converted function's return value (`retval_ = ag__.UNDEFINED_RETURN`), one
# object for every call: on Python values it is only tested with `type`/`isinstance`, and the
# first staged `if` or loop of a call replaces it by a fresh one of its class
# (`fresh_return_values`), on which the return type it learns is kept for that call.
UNDEFINED_RETURN = UndefinedReturnValue()
UNDEFINED_RETURN_ON_EVERY_PATH = UndefinedReturnValueOnEveryPath()
_SHARED_STARTS = (UNDEFINED_RETURN, UNDEFINED_RETURN_ON_EVERY_PATH)


def fresh_return_values(get_state: GetState, set_state: SetState) -> tuple[Any, ...]:
    """Gives a staged construct's state an UndefinedReturnValue of its own in place of a
    shared start (see UNDEFINED_RETURN), and returns the state."""
    state = get_state()
    if any(value is shared for value in state for shared in _SHARED_STARTS):
        state = tuple(type(value)() if any(value is shared for shared in _SHARED_STARTS)
                      else value for value in state)
        set_state(state)
    return state


def ld(value: Any) -> Any:
    """A read of a user variable: the value, or a clear error if it is still undefined."""
    if isinstance(value, Undefined):
        value._fail()
    if _maybe_unset:
        unset = maybe_unset(value)
        if unset is not None:
            rt.debugging.Assert(unset[0], [unset[1]])
    return value


def ldu(read: Thunk, name: str) -> Any:
    """A read of a name, key or attribute that may not exist yet: its value, or
    `Undefined(name)`."""
    try:
        return read()
    except (NameError, KeyError, AttributeError, IndexError):
        return Undefined(name)


def staged_call(function: Callable[..., Any], names: SymbolNames) -> Any:
    """Runs the staged form of a construct (converters/speed/staged_functions): `function` called
    with the caller's variables `names` as keyword arguments, each one that is unbound there as
    `Undefined`."""
    variables = sys._getframe(1).f_locals
    return function(**{name: variables[name] if name in variables else Undefined(name)
                       for name in names})
