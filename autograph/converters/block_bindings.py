"""The names a converted construct's block functions bind, unbind and declare `nonlocal`.

The block functions of a staged `if` or loop read and assign the enclosing function's
variables through `nonlocal`; these helpers of autograph.converters.control_flow make sure
each such name is bound where the declaration looks for it, and turn `del` of a carried
variable into an `ag__.Undefined` placeholder.
"""

import gast

from autograph.pyct import anno, scopes, templates, walk


def undefined_assignments(names):
    statements = []
    for name in names:
        statements += templates.replace('name = ag__.Undefined(label)', name=name,
                                        label=gast.Constant(value=name, kind=None))
    return statements


def undefine_deleted(statements, carried):
    """`del y` of a carried variable becomes `y = ag__.Undefined('y')`: the block function
    cannot unbind a nonlocal that get_state reads, and an undefined value gives the usual
    errors (a later read raises UnboundLocalError; after a tensor `if`, 'y' must be
    initialized in both branches)."""
    result = []
    for node in statements:
        if isinstance(node, gast.Delete) and all(
                isinstance(t, gast.Name) for t in node.targets) and any(
                t.id in carried for t in node.targets):
            kept = [t for t in node.targets if t.id not in carried]
            if kept:
                result.append(gast.Delete(targets=kept))
            result += undefined_assignments([t.id for t in node.targets if t.id in carried])
            continue
        for field in ('body', 'orelse', 'finalbody'):
            if not isinstance(node, (gast.FunctionDef, gast.ClassDef)) and isinstance(
                    getattr(node, field, None), list):
                setattr(node, field, undefine_deleted(getattr(node, field), carried))
        if isinstance(node, gast.Try):
            for handler in node.handlers:
                handler.body = undefine_deleted(handler.body, carried)
        result.append(node)
    return result


def bind_nested_nonlocals(statements, declarations):
    """Makes names that nested generated functions declare `nonlocal` local to this block.

    When an inner construct carries a name that the enclosing construct does not, the inner
    functions' `nonlocal` must find the name in the enclosing block function, not further out;
    a leading `name = ag__.Undefined('name')` binds it there.
    """
    declared = {name for d in declarations for name in d.names}
    bound, wanted = set(), set()
    for node in walk_block(statements):
        if isinstance(node, gast.FunctionDef):
            bound.add(node.name)
            wanted.update(n for s in node.body if isinstance(s, gast.Nonlocal) for n in s.names)
        elif isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            bound.add(node.id)
    return undefined_assignments(sorted(wanted - bound - declared)) + statements


def captured_names(statements):
    """The names that the lambdas and functions defined in a block read, other than their
    own parameters and local variables."""
    captured = set()
    for node in walk_block(statements):
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            own, loaded = set(), set()
            for child in walk.nodes(node):
                if isinstance(child, gast.Name):
                    (loaded if isinstance(child.ctx, gast.Load) else own).add(child.id)
            captured |= loaded - own
    return captured


TARGET_FIELDS = {gast.Assign: ('targets',), gast.AugAssign: ('target',),
                 gast.AnnAssign: ('target',), gast.For: ('target',), gast.Delete: ('targets',),
                 gast.withitem: ('optional_vars',), gast.ExceptHandler: ('name',)}
BLOCK_FIELDS = ('body', 'orelse', 'finalbody', 'handlers', 'cases', 'items')


def unbound_nonlocals(function):
    """The names that the block functions of `function` declare `nonlocal` but that nothing
    binds in `function` itself (only unreachable code assigned them), sorted. Statements
    are walked, not expressions: a name bound only by `:=` gets a needless, harmless binding."""
    bound = scopes.parameter_names(function.args)
    wanted = set()
    pending = list(function.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, (gast.FunctionDef, gast.ClassDef)):
            bound.add(statement.name)
            # the block functions the converters wrote: a `nonlocal` of the user's own nested
            # function may name an enclosing function's variable, never to bind here
            if isinstance(statement, gast.FunctionDef) and \
                    anno.getanno(statement, anno.Basic.GENERATED):
                wanted.update(name for s in statement.body if isinstance(s, gast.Nonlocal)
                              for name in s.names)
            continue
        if isinstance(statement, (gast.Global, gast.Nonlocal)):
            bound.update(statement.names)
        elif isinstance(statement, (gast.Import, gast.ImportFrom)):
            bound.update((a.asname or a.name).split('.')[0] for a in statement.names)
        for field in TARGET_FIELDS.get(type(statement), ()):
            target = getattr(statement, field)
            for target in target if isinstance(target, list) else [target]:
                if target is not None:
                    bound.update(n.id for n in walk.nodes(target) if isinstance(n, gast.Name))
        for field in BLOCK_FIELDS:
            block = getattr(statement, field, None)
            if type(block) is list:
                pending.extend(block)
    return sorted(wanted - bound)


def walk_block(statements):
    """The nodes of a block, without entering nested functions and lambdas."""
    pending = list(statements)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            continue
        pending.extend(walk.children(node))
