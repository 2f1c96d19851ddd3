"""`and`, `or`, `not`: Python's lazy semantics on Python values, logical ops on tensors.

On a symbolic operand the remaining operands are evaluated (both sides become graph ops;
`rt.logical_and`/`rt.logical_or` are not lazy at run time).
"""
import operator
from typing import Any

import runtime as rt
from autograph.operators import recording
from autograph.operators.protocol import Thunk
from runtime.core.tensor import SymbolicTensor, is_symbolic


def and_(*operands: Thunk) -> Any:
    value = operands[0]()
    for operand in operands[1:]:
        if isinstance(value, SymbolicTensor):   # is_symbolic, inline (the hot Python path)
            value = rt.logical_and(value, operand())
            if recording.recorder is not None:
                recording.recorder.staged('and', None, 'LogicalAnd')
        elif not value:
            return value
        else:
            value = operand()
    return value


def or_(*operands: Thunk) -> Any:
    value = operands[0]()
    for operand in operands[1:]:
        if isinstance(value, SymbolicTensor):
            value = rt.logical_or(value, operand())
            if recording.recorder is not None:
                recording.recorder.staged('or', None, 'LogicalOr')
        elif value:
            return value
        else:
            value = operand()
    return value


def not_(value: Any) -> Any:
    if is_symbolic(value):
        if recording.recorder is not None:
            recording.recorder.staged('not', None, 'LogicalNot')
        return rt.logical_not(value)
    return not value


_COMPARISONS = {
    '<': operator.lt, '<=': operator.le, '>': operator.gt, '>=': operator.ge,
    '==': operator.eq, '!=': operator.ne, 'is': operator.is_, 'is not': operator.is_not,
    'in': lambda a, b: a in b, 'not in': lambda a, b: a not in b,
}


def compare_chain(left: Thunk, *links: tuple[str, Thunk]) -> Any:
    """`a < b <= c`: `left` and each link's operand are lambdas, each evaluated at most once.

    Python values stop at the first false comparison, as in Python; once a comparison is a
    tensor the rest are evaluated and joined with `rt.logical_and`.
    """
    return _chain(None, left(), links)


def compare_chain_from(result: Any, value: Any, *links: tuple[str, Thunk]) -> Any:
    """The rest of a chained comparison whose first comparison gave the tensor `result`
    (`value`: its right operand); the compiler's plain form of the chain computed them."""
    return _chain(result, value, links)


def _chain(result: Any, value: Any, links: tuple[tuple[str, Thunk], ...]) -> Any:
    for symbol, operand in links:
        right = operand()
        step = _COMPARISONS[symbol](value, right)
        if result is None:
            result = step
        elif is_symbolic(result) or is_symbolic(step):
            result = rt.logical_and(result, step)
        else:
            result = step
        if not is_symbolic(result) and not result:
            return result
        value = right
    return result


class StagedOperand:
    """In the plain form of a long `and`/`or` (converters/logical_expressions.py): the first
    operand that is a symbolic tensor, and its position. Python's operator stops at it (it is
    false in an `and`, true in an `or`); `and_from`/`or_from` go on from it."""

    __slots__ = ('position', 'value', 'stops_or')

    def __init__(self, position: int, value: Any, stops_or: bool) -> None:
        self.position = position
        self.value = value
        self.stops_or = stops_or

    def __bool__(self) -> bool:
        return self.stops_or


def and_from(operand: StagedOperand, *rest: Thunk) -> Any:
    """`and_` of a long `and` from its first symbolic operand; `rest`: the operands after the
    first one (`rest[k]` is operand k + 1)."""
    value = operand.value
    return and_(lambda: value, *rest[operand.position:])


def or_from(operand: StagedOperand, *rest: Thunk) -> Any:
    """`or_` of a long `or` from its first symbolic operand (as `and_from`)."""
    value = operand.value
    return or_(lambda: value, *rest[operand.position:])
