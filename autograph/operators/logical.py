"""`and`, `or`, `not`: Python's lazy semantics on Python values, logical ops on tensors.

On a symbolic operand the remaining operands are evaluated (both sides become graph ops;
`rt.logical_and`/`rt.logical_or` are not lazy at run time).
"""
import runtime as rt
from runtime.tensor import is_symbolic


def and_(*operands):
    value = operands[0]()
    for operand in operands[1:]:
        if is_symbolic(value):
            value = rt.logical_and(value, operand())
        elif not value:
            return value
        else:
            value = operand()
    return value


def or_(*operands):
    value = operands[0]()
    for operand in operands[1:]:
        if is_symbolic(value):
            value = rt.logical_or(value, operand())
        elif value:
            return value
        else:
            value = operand()
    return value


def not_(value):
    if is_symbolic(value):
        return rt.logical_not(value)
    return not value
