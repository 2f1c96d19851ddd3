"""The `ag__` namespace of converted code: the operators of docs/protocol.md.

This package is the half of autograph that runs: it is the only part (with autograph.function)
that imports `runtime`.
"""
from autograph.operators.call import converted_call, to_graph
from autograph.operators.control_flow import for_stmt, if_exp, if_stmt, while_stmt
from autograph.operators.exceptions import assert_stmt
from autograph.operators.function_scope import ConversionOptions, FunctionScope
from autograph.operators.guards import python_only
from autograph.operators.logical import and_, not_, or_
from autograph.operators.variables import Undefined, UndefinedReturnValue, ld, ldu

__all__ = ['converted_call', 'to_graph', 'for_stmt', 'if_exp', 'if_stmt', 'while_stmt',
           'assert_stmt', 'ConversionOptions', 'FunctionScope', 'python_only', 'and_', 'not_',
           'or_', 'Undefined', 'UndefinedReturnValue', 'ld', 'ldu']
