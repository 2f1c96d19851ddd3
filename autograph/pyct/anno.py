"""Annotations attached to AST nodes by the analyses and read by the converters.

Each node carries a dict under the attribute `FIELD`; keys are the members of `Basic` and
`Static` (or plain strings for converter-private facts).
"""
import enum
from typing import Any

FIELD = '___ag_anno'
_NONE: dict[Any, Any] = {}


class Basic(enum.Enum):
    ORIGIN = 'origin_info.Origin of the user code a node came from'
    GENERATED = 'the node was written by a template, not by the user'
    SKIP = 'converters leave this subtree alone'
    EXTRA_LOOP_TEST = 'expressions that stop a loop early (break, return)'
    LIST_CHECK = 'an ag__.check_list_mutation statement: the staged form of a loop keeps it'
    BREAK_FLAG = "the name of the flag a loop's `break` statements set (its test `not flag`)"
    LOOP_OPTIONS = 'keyword nodes of set_loop_options for a loop'
    FUNCTION_SCOPE = 'the `with ag__.FunctionScope` block that wraps a function body'
    PYTHON_TEST = 'a test the compiler wrote to choose a form: its own `and` stays Python'
    NOT_SHOWN = ("a statement the readable form of `ag.to_code` leaves out: a fast path or a "
                 "check that only words an error; the code computes the same without it")

    # Members are singletons: hashing by identity is correct, and much faster than Enum's
    # hash of the name (every visit of every node looks annotations up).
    __hash__ = object.__hash__


class Static(enum.Enum):
    SCOPE = 'activity.Scope of a block, function or lambda'
    BODY_SCOPE = 'activity.Scope of the body of a compound statement'
    ORELSE_SCOPE = 'activity.Scope of the else block of an if'
    LIVE_IN = 'names live on entry to a statement'
    LIVE_OUT = 'names live after a statement'
    MAYBE_UNDEFINED = 'names that may be unbound on entry to a statement'
    MAYBE_DEFINED = 'names that a definition may reach on entry to a statement'
    PLAIN_READ = 'a read of a name that cannot hold a placeholder: it needs no ag__.ld'
    UNBOUND_READ = 'a read of a local that may be unbound there (Python raises)'
    UNBOUND_IN_STAGED_FORM = 'a read of a local that the staged form may find unbound'

    __hash__ = object.__hash__


def getanno(node: object, key: Basic | Static | str, default: Any = None) -> Any:
    return getattr(node, FIELD, _NONE).get(key, default)


def hasanno(node: object, key: Basic | Static | str) -> bool:
    return key in getattr(node, FIELD, _NONE)


def setanno(node: object, key: Basic | Static | str, value: Any) -> None:
    annotations = getattr(node, FIELD, None)
    if annotations is None:
        annotations = {}
        setattr(node, FIELD, annotations)
    annotations[key] = value


def delanno(node: object, key: Basic | Static | str) -> None:
    getattr(node, FIELD, {}).pop(key, None)
