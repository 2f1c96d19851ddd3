"""Checks that the operators make on the values they receive."""
import dis
import types
import weakref
from typing import Any, Iterable, Iterator, Sequence

import runtime as rt
from autograph.operators import located
from autograph.pyct import origin_info
from runtime.core.tensor import is_symbolic


def python_only(value: Any, construct: str) -> Any:
    """`value` itself; a symbolic tensor raises, because `construct` cannot hold graph control
    flow (the compiler wraps conditions and iterables written inside a `try` body)."""
    if is_symbolic(value):
        raise NotImplementedError(located.message(
            f'tensor control flow inside {construct} is not supported: the `try` would not see '
            'errors raised when the graph runs. Move the `try` out of the function, or make the '
            'condition a Python value.'))
    return value


def check_returned(do_return: Any, function_name: str) -> None:
    """In a graph, fails at run time when the function ended without running a `return`."""
    if is_symbolic(do_return):
        rt.debugging.Assert(do_return, [
            f'{function_name}: loop must iterate at least once to initialize the return value '
            '(a `return` inside a tensor loop did not run and nothing was returned after it)'])


def check_loop_structure(symbol_names: Sequence[str], before: Sequence[Any],
                         after: Sequence[Any]) -> None:
    """The loop variables `after` one iteration keep the nested structure they had `before`
    (TensorFlow's error, naming the variable)."""
    for name, old, new in zip(symbol_names, before, after):
        difference = rt.nest.structure_difference(old, new)
        if difference:
            raise located.error(TypeError, (
                f"'{name}' does not have the same nested structure after one iteration of "
                f'the loop as before it: {difference} Give it its final structure before '
                f'the loop (e.g. a tensor or rt.TensorArray instead of a growing list).'))


def check_no_global_writes(functions: Iterable[Any], construct: str) -> None:
    """Refuses a tensor `if`/loop whose blocks assign a `global` (it would leak graph values)."""
    for function in functions:
        found = _global_store(function.__code__)
        if found is not None:
            name, code, line = found
            origin = origin_info.code_origin(code, line)
            where = f' (at {origin})' if origin else ''
            raise NotImplementedError(located.message(
                f"assigning the global '{name}'{where} inside a {construct} whose condition is a "
                'tensor is not supported; return the value or use an rt.Variable instead.'))


_STORE_GLOBAL = bytes([dis.opmap['STORE_GLOBAL']])
# code -> (name, code, line) or None
_global_stores: weakref.WeakKeyDictionary[types.CodeType, Any] = weakref.WeakKeyDictionary()


def _global_store(code: types.CodeType) -> tuple[str, types.CodeType, int] | None:
    """The first `global` assignment in `code` or the functions it defines, once per code
    object (block functions run on every trace of every tensor `if` and loop)."""
    try:
        return _global_stores[code]
    except KeyError:
        pass
    found = None
    for inner in _code_objects(code):
        if _STORE_GLOBAL not in inner.co_code[::2]:   # the opcodes: no instruction stores one
            continue
        for instruction in dis.get_instructions(inner):
            if instruction.opname == 'STORE_GLOBAL':
                found = instruction.argval, inner, _line_of(inner, instruction)
                break
        if found is not None:
            break
    _global_stores[code] = found
    return found


def _code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _code_objects(constant)


def _line_of(code: types.CodeType, instruction: dis.Instruction) -> int:
    line = code.co_firstlineno   # (a line starts at offset 0)
    for offset, number in dis.findlinestarts(code):
        if offset > instruction.offset:
            break
        line = number
    return line
