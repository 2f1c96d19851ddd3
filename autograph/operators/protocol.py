"""The types of the `ag__` protocol: what converted code passes to the operators
(docs/protocol.md). A staged `if` or loop hands over its blocks as functions of no arguments
that read and assign the converted function's variables through `nonlocal`, and the state those
blocks change as a pair of functions over a tuple, named by `symbol_names`."""
from typing import Any, Callable

Block = Callable[[], None]                      # if_body, else_body, a loop body
LoopBody = Callable[[Any], None]                # a `for` body, given the item
Test = Callable[[], Any]                        # loop_test, extra_test: a bool or a tensor
GetState = Callable[[], tuple[Any, ...]]        # the values of the carried variables
SetState = Callable[[tuple[Any, ...]], None]    # gives them new values
SymbolNames = tuple[str, ...]                   # their names, outputs first
Thunk = Callable[[], Any]                       # a lazy operand (`and`, `if_exp`, ...)
