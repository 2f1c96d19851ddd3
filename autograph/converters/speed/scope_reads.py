"""The function scope read where it is used: no lookup when a converted call starts.

converters/function_scopes.py starts each converted function with its scope,

    fscope = ag__.STD_SCOPES.get('f') or ag__.new_scope('f', ag__.STD)

a dict lookup on every call (about 25 ns), for an object that holds nothing of a call. On Python
values only the slow paths use it (`ag__.callee(g, fscope)` for a callee without a plan,
`fscope.ret(...)` where a staged form returned), and the function's `try` handler does not
(`ag__.unwind()`). Here, in the code that runs (not the readable form), the assignment goes
and each read of the scope's name becomes that expression: the same object, looked up only
where a slow path runs. A staged form moved into a function of its own
(converters/speed/staged_functions.py, which runs after this) then has no scope to pass in.

Runs after function_scopes, before staged_functions.
"""
import gast

from autograph.converters import function_scopes
from autograph.pyct import anno, templates, walk


def _read_where_used(function, scope):
    """Takes the lookup of the scope `scope` out of the start of the converted `function` and
    writes it at each read of the name."""
    body = function.body
    for index in range(1, len(body)):
        if anno.getanno(body[index], function_scopes.UNWINDS):
            lookup = body[index - 1]
            if _assigns(lookup, scope):
                del body[index - 1]
                _replace_reads(body[index - 1], scope, lookup.value)
            return


def _assigns(statement, name):
    """Whether `statement` is `name = value`."""
    return (type(statement) is gast.Assign and len(statement.targets) == 1
            and type(statement.targets[0]) is gast.Name and statement.targets[0].id == name)


def _is_read(node, name):
    return type(node) is gast.Name and node.id == name and type(node.ctx) is gast.Load


def _replace_reads(node, name, value):
    """Replaces each read of `name` under `node` (nested functions, lambdas and
    comprehensions too: they read the enclosing function's scope) by a copy of `value`."""
    for field in node._fields:
        child = getattr(node, field, None)
        if type(child) is list:
            for index, item in enumerate(child):
                if _is_read(item, name):
                    child[index] = templates.copy_tree(value)
                elif isinstance(item, gast.AST):
                    _replace_reads(item, name, value)
        elif isinstance(child, gast.AST):
            if _is_read(child, name):
                setattr(node, field, templates.copy_tree(value))
            else:
                _replace_reads(child, name, value)


def transform(node, ctx):
    for function in walk.nodes(node):
        if type(function) is gast.FunctionDef:
            scope = anno.getanno(function, anno.Basic.FUNCTION_SCOPE)
            if scope is not None:   # not a block function of a converted statement
                _read_where_used(function, scope)
    return node
