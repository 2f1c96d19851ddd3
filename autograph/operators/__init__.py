"""The `ag__` namespace of converted code: the operators of docs/protocol.md.

This package is the half of autograph that runs: it is the only part (with autograph.tracing)
that imports `runtime`. Importing it tells the runtime that graph ops created from converted code
belong to the user's line, not to autograph's or to the generated file's.
"""
import builtins
import os
import re
import types

from autograph.operators.call import callee, converted_call, plan_of, to_graph
from autograph.operators.control_flow import (
    for_stmt,
    if_exp,
    if_stmt,
    is_staged,
    is_staged_iterable,
    refuse_staged_test,
    while_stmt,
)
from autograph.operators.exceptions import assert_stmt
from autograph.operators.function_scope import (
    STAGED_LISTS,
    STD,
    STD_REQUESTED,
    STD_REQUESTED_SCOPES,
    STD_SCOPES,
    ConversionOptions,
    FunctionScope,
    new_scope,
    unwind,
)
from autograph.operators.guards import python_only
from autograph.operators.lists import StagedList, check_list_mutation, list_append
from autograph.operators.logical import (
    StagedOperand,
    and_,
    and_from,
    compare_chain,
    compare_chain_from,
    not_,
    or_,
    or_from,
)
from autograph.operators.py_builtins import PLAIN_BUILTINS
from autograph.operators.tensor_iteration import PLAIN_TYPES, PYTHON_ITERABLES
from autograph.operators.variables import (
    UNDEFINED_RETURN,
    UNDEFINED_RETURN_ON_EVERY_PATH,
    Undefined,
    UndefinedReturnValue,
    UndefinedReturnValueOnEveryPath,
    ld,
    ldu,
    staged_call,
)
from autograph.pyct import origin_info as _origin_info
from runtime.core import context as _rt_context
from runtime.core import errors as _errors

# The plain forms of converted code test types with these, never with the user's `type`/`id`
# (a parameter or global of that name is common): `ag__.type_(x) in ag__.PLAIN_TYPES`
type_, id_ = builtins.type, builtins.id
# a bound method whose function's plan is the function itself runs as it is, bound
MethodType = types.MethodType
# a module's functions may be overloaded (`warnings.warn`): a method call of a module in a local
# takes the plan first
ModuleType = types.ModuleType
# the types of builtin methods (`text.startswith`; a compiled pattern's `match` is a C method
# of the second kind): one of a plain value runs as it is, as no builtin with a tensor overload
# is one (py_builtins.OVERLOADS)
BUILTIN_METHOD_TYPES = frozenset({types.BuiltinMethodType, type(re.compile('').match)})
# how many graphs are being built (0: none; converted code runs user code as it is)
BUILDING_GRAPHS = _rt_context.building_graphs
builtin_range, builtin_len, builtin_enumerate, builtin_zip, builtin_int, builtin_float, \
    builtin_abs = (PLAIN_BUILTINS[name] for name in (
        'range', 'len', 'enumerate', 'zip', 'int', 'float', 'abs'))
# what bool() of a symbolic tensor raises: a plain `while` whose test became one catches it
OperatorNotAllowedInGraphError = _errors.OperatorNotAllowedInGraphError


def _user_line(filename: str, lineno: int) -> tuple[str, int] | None:
    origin = _origin_info.lookup(filename, lineno)
    return None if origin is None else (origin.filename, origin.lineno)


_errors.library_paths.append(os.path.dirname(os.path.dirname(__file__)) + os.sep)
_errors.location_mappers.append(_user_line)

__all__ = ['callee', 'converted_call', 'to_graph', 'for_stmt', 'if_exp', 'if_stmt', 'while_stmt',
           'is_staged', 'is_staged_iterable', 'refuse_staged_test',
           'OperatorNotAllowedInGraphError',
           'assert_stmt', 'ConversionOptions', 'STD', 'STD_REQUESTED', 'FunctionScope',
           'STD_REQUESTED_SCOPES',
           'STD_SCOPES', 'new_scope', 'unwind',
           'STAGED_LISTS',
           'python_only', 'and_', 'compare_chain', 'compare_chain_from', 'not_', 'or_',
           'and_from', 'or_from', 'StagedOperand',
           'check_list_mutation', 'list_append', 'Undefined', 'UndefinedReturnValue',
           'UndefinedReturnValueOnEveryPath', 'UNDEFINED_RETURN',
           'UNDEFINED_RETURN_ON_EVERY_PATH', 'ld', 'ldu', 'staged_call', 'plan_of', 'StagedList',
           'PLAIN_TYPES',
           'PYTHON_ITERABLES', 'type_', 'id_', 'MethodType', 'ModuleType', 'BUILTIN_METHOD_TYPES',
           'BUILDING_GRAPHS',
           'builtin_range',
           'builtin_len',
           'builtin_enumerate', 'builtin_zip', 'builtin_int', 'builtin_float', 'builtin_abs']
