"""Python's scoping rules on gast trees: which names a block binds, reads and leaves free.

`level(nodes)` looks at a list of nodes (statements or expressions) as code of one scope:
the names it binds and reads there, the names it declares `global`/`nonlocal`, and what its
nested scopes (functions, lambdas, classes, comprehensions) leave for it to resolve. A nested
scope is entered once, and only its free names come out, as CPython's symbol table does:
defaults, decorators, annotations, base classes and a comprehension's first iterable belong
to the enclosing scope; a class body does not enclose its methods; an assignment expression
in a comprehension binds in the enclosing function.
"""
import dataclasses
from typing import Callable, Sequence

import gast

from autograph.pyct import walk

_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)
# the nodes whose code runs in a scope of its own
SCOPE_NODES = _FUNCTIONS + (gast.ClassDef,) + _COMPREHENSIONS
_FRAME_ACTIONS = (gast.Return, gast.Yield, gast.YieldFrom, gast.Await, gast.Break,
                  gast.Continue, gast.Delete)
# the node classes `level` does more for than look at their parts
_SPECIAL = frozenset(SCOPE_NODES + _FRAME_ACTIONS + (
    gast.Global, gast.Nonlocal, gast.Import, gast.ImportFrom, gast.MatchAs, gast.MatchStar,
    gast.MatchMapping))


@dataclasses.dataclass
class Level:
    """The names of one scope's own code (nested scopes contribute their free names)."""
    bound: set[str] = dataclasses.field(default_factory=set)   # assigned, deleted, defined here
    read: set[str] = dataclasses.field(default_factory=set)
    globals: set[str] = dataclasses.field(default_factory=set)
    nonlocals: set[str] = dataclasses.field(default_factory=set)
    inner_free: set[str] = dataclasses.field(default_factory=set)     # free in nested scopes
    inner_assigned: set[str] = dataclasses.field(default_factory=set)  # their `nonlocal` names
    # a return, yield, await, break, continue or del in the scope's own code: code that acts on
    # its frame or enclosing loop
    acts_on_frame: bool = False
    functions: list[gast.AST] = dataclasses.field(default_factory=list)  # its own code's defs

    @property
    def touched(self) -> set[str]:
        return self.bound | self.read | self.inner_free


def level(nodes: Sequence[gast.AST],
          expand: Callable[[gast.AST], list[gast.AST]] = walk.children) -> Level:
    """The `Level` of `nodes`, seen as code of one scope. `expand(node)` gives the parts of a
    node of this scope's own code (not a nested scope) to look at, by default all its
    children; parts it leaves out are not looked at."""
    found = Level()
    pending = list(reversed(nodes))
    while pending:
        node = pending.pop()
        kind = type(node)
        if kind is gast.Name:
            (found.read if type(node.ctx) is gast.Load else found.bound).add(node.id)
            if node.annotation is not None:
                pending.append(node.annotation)
            continue
        if kind not in _SPECIAL:       # most nodes: nothing but their parts to look at
            pending.extend(reversed(expand(node)))
            continue
        if isinstance(node, SCOPE_NODES):
            if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
                found.functions.append(node)
            pending.extend(reversed(_enclosing_parts(node, found)))
            free, assigned = _free(node)
            found.inner_free |= free
            found.inner_assigned |= assigned
            continue
        if isinstance(node, _FRAME_ACTIONS):
            found.acts_on_frame = True
        if isinstance(node, gast.Global):
            found.globals.update(node.names)
        elif isinstance(node, gast.Nonlocal):
            found.nonlocals.update(node.names)
        elif isinstance(node, (gast.Import, gast.ImportFrom)):
            found.bound.update((a.asname or a.name).split('.')[0] for a in node.names
                               if a.name != '*')
        elif isinstance(node, (gast.MatchAs, gast.MatchStar)) and node.name:
            found.bound.add(node.name)
        elif isinstance(node, gast.MatchMapping) and node.rest:
            found.bound.add(node.rest)
        pending.extend(reversed(expand(node)))
    return found


def _enclosing_parts(node: gast.AST, found: Level) -> list[gast.AST]:
    """The parts of a nested scope node that the enclosing scope evaluates (its name, if it
    binds one, is bound there)."""
    if isinstance(node, _COMPREHENSIONS):
        return [node.generators[0].iter] + _walrus_targets(node)
    if not isinstance(node, gast.Lambda):
        found.bound.add(node.name)
    parts = list(getattr(node, 'decorator_list', []))
    if isinstance(node, gast.ClassDef):
        return parts + node.bases + node.keywords
    args = node.args
    parts += args.defaults + [d for d in args.kw_defaults if d is not None]
    parts += [a.annotation for a in _parameters(args) if a.annotation is not None]
    if getattr(node, 'returns', None) is not None:
        parts.append(node.returns)
    return parts


def _walrus_targets(node: gast.AST) -> list[gast.AST]:
    """Store-names for the targets of `:=` in a comprehension: they bind in the enclosing
    scope (looked for through nested comprehensions, not through functions)."""
    targets, pending = [], [node]
    while pending:
        current = pending.pop()
        if isinstance(current, gast.NamedExpr):
            targets.append(gast.Name(id=current.target.id, ctx=gast.Store(), annotation=None,
                                     type_comment=None))
        if not isinstance(current, _FUNCTIONS + (gast.ClassDef,)):
            pending.extend(walk.children(current))
    return targets


def _parameters(args: gast.arguments) -> list[gast.Name]:
    return [a for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
            if a is not None]


def parameter_names(args: gast.arguments) -> set[str]:
    """The names of the parameters of a gast `arguments` node (`*args` and `**kwargs` too)."""
    return {a.id for a in _parameters(args)}


def _free(node: gast.AST) -> tuple[set[str], set[str]]:
    """(free names, names it assigns through `nonlocal`, its own or its nested scopes')."""
    if isinstance(node, _COMPREHENSIONS):
        inner = level([g.target for g in node.generators]
                      + [g.iter for g in node.generators[1:]]
                      + [t for g in node.generators for t in g.ifs]
                      + ([node.key, node.value] if isinstance(node, gast.DictComp)
                         else [node.elt]))
        walrus = {t.id for t in _walrus_targets(node)}
        local = inner.bound - walrus
        return (inner.read | inner.inner_free) - local | walrus, inner.inner_assigned | walrus
    if isinstance(node, gast.ClassDef):
        inner = level(node.body)
        # methods skip the class scope; `__class__` is the class's own cell
        free = ((inner.read - inner.bound - inner.globals) | inner.inner_free
                | inner.nonlocals) - {'__class__'}
        return free, (inner.inner_assigned | inner.nonlocals) - {'__class__'}
    body = node.body if isinstance(node.body, list) else [node.body]
    inner = level(body)
    local = (inner.bound | parameter_names(node.args)) - inner.globals \
        - inner.nonlocals
    free = ((inner.read | inner.inner_free) - local - inner.globals) | inner.nonlocals
    return free, (inner.inner_assigned - local) | inner.nonlocals


def function_locals(function: gast.AST,
                    expand: Callable[[gast.AST], list[gast.AST]] = walk.children
                    ) -> tuple[set[str], Level]:
    """The local variables of a function node (its parameters and the names its own code
    binds, but not those it declares global or nonlocal), looking at the parts `expand` gives
    (as `level`), and its `Level`."""
    found = level(function.body, expand)
    local = (found.bound | parameter_names(function.args)) - found.globals \
        - found.nonlocals
    return local, found
