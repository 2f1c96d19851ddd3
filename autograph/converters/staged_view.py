"""The readable form of converted code, which `ag.to_code` shows: the staged form of each
construct, in TensorFlow's shape.

The code that runs writes each converted `if`, loop, `and`/`or`/`not` and conditional
expression twice, and a test of its value picks the form (converters/speed/dual.py):

    if (cond := x > 0) is not False and cond is not True and ... ag__.is_staged(cond):
        <the staged form, over `cond`>
    else:
        <the plain Python form>

Here, on a function converted without the plain-form converters (converters/speed), each such
choice becomes its staged form, with the tested value put where the staged form reads it:

    <the staged form, over `x > 0`>

and a call `ag__.callee(f, fscope)(a, k=v)` becomes TensorFlow's `ag__.converted_call(f, (a,),
{'k': v}, fscope)`. What only the executed code needs goes too: the function scope's cache and
its traceback handler (`fscope = ag__.new_scope(...)` remains), and the statements marked
`anno.Basic.NOT_SHOWN` (the early exit of a `return`, the checks that only word an error).
The result still runs, with the `ag__` module, and computes what the executed code computes.
"""
import gast

from autograph.converters import block_bindings, call_trees, function_scopes, logical_expressions
from autograph.converters.speed import dual
from autograph.pyct import anno, templates, transformer, walk


class StagedViewTransformer(transformer.Base):

    def visit_FunctionDef(self, node):
        node = self.generic_visit(node)
        if anno.getanno(node, anno.Basic.FUNCTION_SCOPE) is not None:
            node.body = _without_scope_handler(node.body)
            # a name that the left-out plain form bound for the block functions' `nonlocal`
            unbound = block_bindings.unbound_nonlocals(node)
            if unbound:
                docstring = 1 if transformer.is_docstring(node.body[0]) else 0
                node.body[docstring + 1:docstring + 1] = \
                    block_bindings.undefined_assignments(unbound)
        return node

    def visit_If(self, node):
        if anno.getanno(node, anno.Basic.NOT_SHOWN):
            return None
        if not anno.getanno(node.test, dual.PICKS_FORM):
            return self.generic_visit(node)
        named = _tested_value(self.visit(node.test))
        staged = self.visit_block(node.body)
        _drop_first_condition(staged, named.target.id)
        return _put_value(named, staged)

    def visit_Expr(self, node):
        if anno.getanno(node, anno.Basic.NOT_SHOWN):
            return None
        return self.generic_visit(node)

    def visit_IfExp(self, node):
        if not anno.getanno(node.test, dual.PICKS_FORM):
            return self.generic_visit(node)
        named = _tested_value(self.visit(node.test))
        staged = self.visit(node.body)
        chain = _comparison_chain(named, staged)
        if chain is None:
            chain = _flat_chain(named, staged)
        if chain is not None:
            return chain
        [statement] = _put_value(named, [gast.Expr(value=staged)])
        return statement.value

    def visit_Call(self, node):
        node = self.generic_visit(node)
        func = node.func
        if not (isinstance(func, gast.Call) and anno.getanno(func, call_trees.CALLEE)):
            return node
        target, scope = func.args
        args = gast.Tuple(elts=node.args, ctx=gast.Load())
        kwargs = gast.Constant(value=None, kind=None)
        if node.keywords:
            kwargs = gast.Dict(keys=[k.arg and gast.Constant(value=k.arg, kind=None)
                                     for k in node.keywords],
                               values=[k.value for k in node.keywords])
        return templates.replace_as_expression(
            'ag__.converted_call(target, args, kwargs, scope)', target=target, args=args,
            kwargs=kwargs, scope=scope)


def _without_scope_handler(body):
    """A converted function's body with its scope taken from `ag__.new_scope` and without
    the `try` whose handler unwinds it (converters/function_scopes.py)."""
    for index, statement in enumerate(body):
        if anno.getanno(statement, function_scopes.UNWINDS):
            lookup = body[index - 1]
            lookup.value = lookup.value.values[-1]     # `scopes.get(name) or new_scope(...)`
            return body[:index] + statement.body + body[index + 1:]
    return body


def _tested_value(test):
    """The assignment expression of a form-picking test: `(cond := value)`."""
    for node in walk.nodes(test):
        if isinstance(node, gast.NamedExpr):
            return node
    raise ValueError(f'no tested value in {gast.dump(test)}')


def _drop_first_condition(statements, name):
    """Drops `condition=name` from the `ag__.while_stmt` call of a loop's staged form: the
    value of its first test, which the plain form had computed (`loop_test` computes it)."""
    for statement in statements:
        call = statement.value if isinstance(statement, gast.Expr) else None
        if isinstance(call, gast.Call) and _is_operator(call.func, 'while_stmt'):
            call.keywords = [k for k in call.keywords if not (
                k.arg == 'condition' and name in _names_read(k.value))]


def _put_value(named, statements):
    """`statements` reading the value of `named` (`name := value`) where they read `name`: in
    its place when they read it once, else after `name = value`."""
    name = named.target.id
    reads = [(parent, field, index) for parent, field, index, child in _loads(statements)
             if child.id == name]
    if not reads:
        return statements
    if len(reads) > 1:
        return templates.replace('name = value', name=name, value=named.value) + statements
    parent, field, index = reads[0]
    if index is None:
        setattr(parent, field, named.value)
    else:
        getattr(parent, field)[index] = named.value
    return statements


def _comparison_chain(named, staged):
    """`a < b <= c`'s staged form, `ag__.compare_chain_from(step, right, ('<=', lambda: c))`
    where `step := a < (right := b)`, as `ag__.compare_chain(lambda: a, ('<', lambda: b),
    ('<=', lambda: c))`; None for any other staged form."""
    if not (isinstance(staged, gast.Call) and _is_operator(staged.func, 'compare_chain_from')):
        return None
    first = named.value
    right = first.comparators[0]
    symbol = gast.Constant(value=logical_expressions.SYMBOLS[type(first.ops[0])], kind=None)
    call = templates.replace_as_expression(
        "ag__.compare_chain(lambda: left, (symbol, lambda: right))", left=first.left,
        symbol=symbol, right=right.value if isinstance(right, gast.NamedExpr) else right)
    call.args += staged.args[2:]
    return call


def _flat_chain(named, staged):
    """A long `and`/`or`'s staged form, `ag__.and_from(value, lambda: b, ...)` where `value :=
    (<a's test> ...) and ...` (converters/logical_expressions.py), as `ag__.and_(lambda: a,
    lambda: b, ...)`; None for any other staged form."""
    if not (isinstance(staged, gast.Call) and (_is_operator(staged.func, 'and_from')
                                               or _is_operator(staged.func, 'or_from'))):
        return None
    first = _tested_value(named.value.values[0].test).value
    call = templates.replace_as_expression(
        f'ag__.{staged.func.attr[:-len("from")]}(lambda: first)', first=first)
    call.args += staged.args[1:]
    return call


def _is_operator(func, name):
    return (isinstance(func, gast.Attribute) and func.attr == name
            and isinstance(func.value, gast.Name) and func.value.id == 'ag__')


def _names_read(node):
    return {child.id for child in walk.nodes(node)
            if isinstance(child, gast.Name) and isinstance(child.ctx, gast.Load)}


def _loads(statements):
    """(parent, field, index or None, Name) for each name read in `statements`."""
    found = []
    pending = list(statements)
    while pending:
        node = pending.pop()
        for field in node._fields:
            value = getattr(node, field, None)
            items = enumerate(value) if type(value) is list else [(None, value)]
            for index, child in items:
                if isinstance(child, gast.Name) and isinstance(child.ctx, gast.Load):
                    found.append((node, field, index, child))
                elif isinstance(child, gast.AST):
                    pending.append(child)
    return found


# the bases of the names of block functions and of their parameters: names no state tuple
# holds as a string, renumbered in the order they appear
_RENUMBERED = frozenset({'get_state', 'set_state', 'if_body', 'else_body', 'loop_body',
                         'loop_test', 'extra_test', 'vars_', 'itr', 'fscope'})
# the parameters' bases: each block function's own, read only in it, so all can have the base
_PARAMETERS = frozenset({'vars_', 'itr'})


def _renumber(node, made):
    """Renames the block functions and their parameters (`_RENUMBERED`; `made`: the compiler's
    names and their bases) in the order they appear, each base from its plain name up: the
    executed code's other form took numbers the readable form does not show. A parameter gets
    its base name (`vars_`, `itr`) where nothing else has it."""
    order, parameters = {}, set()   # every name, in the order it first appears
    for child in _preorder(node):
        if isinstance(child, gast.Name):
            order.setdefault(child.id, None)
            if isinstance(child.ctx, gast.Param):
                parameters.add(child.id)
        elif isinstance(child, gast.FunctionDef):
            order.setdefault(child.name, None)
        elif isinstance(child, (gast.Nonlocal, gast.Global)):
            order.update(dict.fromkeys(child.names))
    renamed = [name for name in order if made.get(name) in _RENUMBERED]
    taken = set(order) - set(renamed)
    plain_parameters = {base for base in _PARAMETERS if base not in taken}
    taken |= plain_parameters
    new_names, counts = {}, {}
    for name in renamed:
        base = made[name]
        if base in plain_parameters and name in parameters:
            new_names[name] = base
            continue
        count = counts.get(base, 0)
        new = base if count == 0 else f'{base}_{count}'
        while new in taken:
            count += 1
            new = f'{base}_{count}'
        counts[base] = count + 1
        taken.add(new)
        new_names[name] = new
    for child in walk.nodes(node):
        if isinstance(child, gast.Name):
            child.id = new_names.get(child.id, child.id)
        elif isinstance(child, gast.FunctionDef):
            child.name = new_names.get(child.name, child.name)
        elif isinstance(child, (gast.Nonlocal, gast.Global)):
            child.names = [new_names.get(name, name) for name in child.names]
    return node


def _preorder(node):
    """`node` and the nodes under it in the order their text is written."""
    found, pending = [], [node]
    while pending:
        node = pending.pop()
        found.append(node)
        pending.extend(reversed(walk.children(node)))
    return found


def transform(node, ctx):
    return _renumber(StagedViewTransformer(ctx).visit(node), ctx.namer.made)
