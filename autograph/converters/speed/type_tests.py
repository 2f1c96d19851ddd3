"""Where the plain forms (converters/speed/plain_forms.py) may make a local variable's type test
once for several uses: an object's type cannot change between the builtin types and others,
so `ag__.type_(x) in ag__.PLAIN_TYPES` holds until `x` is bound again.

- `loop_invariants`: in a loop, the locals bound when the loop starts that nothing in the
  loop can rebind (no assignment in it, plain or staged, no `del` of it, no nested function
  assigning it through `nonlocal`): their test is made once, before the loop, into a flag
  (`plain_text = ag__.type_(text) in ag__.PLAIN_TYPES`).
- `share_type_tests`: outside loops too, when a statement's header (an `if`'s test, a `for`'s
  iterable, an assignment's value) surely makes a local's test (not behind an `and`/`or`, a
  condition or a comparison chain's later links), the first test stores its result
  (`char.isdigit() if (plain_char := ag__.type_(char) in ag__.PLAIN_TYPES) else ...`) and the
  later tests of that name read the flag, up to code that may rebind it. The test that a local
  holds a builtin method of a plain value (`startswith = text.startswith`, `METHOD_TEST`) is
  shared the same way: the method's `__self__` cannot change either.

Both look at the plain code only (`plain_code`): not the staged forms, which bind what the
plain form of the same construct binds, nor nested scopes.
"""
import dataclasses

import gast

from autograph.converters.speed import dual
from autograph.pyct import anno, scopes, templates, walk

TYPE_TEST = 'type_tests: the type test of the local variable of this name'
# on the test that a local holds a builtin method of a plain value (`startswith =
# text.startswith`: its `__self__` cannot change either), the local's name
METHOD_TEST = 'type_tests: the builtin-method test of the local variable of this name'
# the flags' names, by the kind of test
_FLAG_PREFIXES = {TYPE_TEST: 'plain_', METHOD_TEST: 'method_'}
# nodes whose code runs in a scope of its own: their `ag__.` reads and type tests stay
OWN_SCOPES = scopes.SCOPE_NODES


def loop_invariants(function, local_names, generated):
    """{id(loop): the names of `local_names` (the function's locals, less the `generated`
    ones) bound whenever the loop starts that nothing in the loop rebinds}, for each loop of
    the plain code of `function` (outside staged forms, which bind what the plain form of the
    same construct binds, and outside nested scopes). Names that a nested function assigns
    (`nonlocal`) or that are deleted anywhere, and those bound only on some paths before the
    loop, are left out. One walk of the function's plain code."""
    loops, excluded = [], set()
    _bindings(function.body, scopes.parameter_names(function.args), loops, excluded)
    keep = local_names - excluded - generated.keys()
    return {id(loop): frozenset((before - inside) & keep) for loop, before, inside in loops}


def substitute(node, replace):
    """Replaces each node of the plain code of `node` (outside nested scopes and staged
    forms) for which `replace(child)` gives a node by that node (and looks no further in
    it)."""
    for field in plain_fields(node):
        value = getattr(node, field, None)
        items = value if type(value) is list else [value]
        for index, item in enumerate(items):
            if not isinstance(item, gast.AST) or isinstance(item, OWN_SCOPES) or \
                    dual.in_staged_form(item):
                continue
            new = replace(item)
            if new is None:
                substitute(item, replace)
            elif type(value) is list:
                value[index] = new
            else:
                setattr(node, field, new)


def plain_fields(node):
    """The fields of `node` that hold plain code: of an `if` picking a form, its test and its
    `else` (its body is the staged form)."""
    if type(node) is gast.If and anno.getanno(node.test, dual.PICKS_FORM):
        return ('test', 'orelse')
    return node._fields


def plain_code(node):
    """The children of `node` that are plain code (`plain_fields`, less staged forms), but
    its context and operators."""
    found = []
    for field in plain_fields(node):
        value = getattr(node, field, None)
        for item in value if type(value) is list else [value]:
            if isinstance(item, gast.AST) and type(item) not in walk.CONTEXTS_AND_OPERATORS \
                    and not dual.in_staged_form(item):
                found.append(item)
    return found


# the fields of a statement whose expression, evaluated first, may store a type test for the
# code after it (a `while`'s test runs again at each iteration: not one of them)
_HEADERS = {gast.If: 'test', gast.For: 'iter', gast.With: 'items', gast.Assign: 'value',
            gast.AugAssign: 'value', gast.AnnAssign: 'value', gast.Expr: 'value',
            gast.Return: 'value'}
_LOOPS = (gast.For, gast.While)
_TRIES = (gast.Try, getattr(gast, 'TryStar', gast.Try))


@dataclasses.dataclass
class _Test:
    """A type test in a statement's own code, and where it is."""
    name: str
    kind: str                     # TYPE_TEST or METHOD_TEST
    node: gast.AST
    parent: gast.AST
    field: str
    index: int                    # in the parent's list field, or None
    sure: bool                    # made whenever the statement's header is evaluated

    @property
    def key(self):
        return self.name, self.kind

    def put(self, node):
        if self.index is None:
            setattr(self.parent, self.field, node)
        else:
            getattr(self.parent, self.field)[self.index] = node


@dataclasses.dataclass
class _Facts:
    """A statement's own code (not its blocks): the names it may bind and its type tests."""
    bound: set
    tests: list


@dataclasses.dataclass
class _Shared:
    """A type test whose result a flag may hold for the code after it."""
    test: _Test
    flag: str | None = None       # its flag, named at the first test that reads it


class _TypeTestSharing:
    """One forward walk of a function's plain code: at each statement, the type tests of
    local names surely made before it and not rebound since (`_Shared`s by name); a test of
    one of them reads its flag instead. Each statement's own code is scanned once."""

    def __init__(self, local_names, namer):
        self.local_names = local_names
        self.namer = namer
        self.facts = {}           # id(statement) -> its `_Facts`
        self.binds = {}           # id(statement) -> the names it may bind (its blocks too)

    def block(self, statements, known):
        known = dict(known)
        for statement in statements:
            if dual.in_staged_form(statement):
                continue
            known = self.statement(statement, known)
            if known:
                known = _unbound(known, self.bound(statement))

    def statement(self, statement, known):
        """Replaces the tests of `known` names in `statement`; its blocks see those and the
        ones its header surely makes. Returns both (what the code after it may see, less
        what the statement binds)."""
        kind = type(statement)
        inner = dict(known)
        reads = known
        if kind is gast.While and known:   # its test runs again after the body
            reads = _unbound(known, self.bound(statement))
        for test in self.scan(statement).tests:
            shared = reads.get(test.key)
            if shared is not None:
                self.read_flag(shared, test)
            elif test.sure and test.name in self.local_names and test.key not in inner:
                inner[test.key] = _Shared(test)
        if kind in _LOOPS:
            # a later iteration follows the body's rebinding: known only what it leaves
            bound = self.bound(statement)
            self.block(statement.body, _unbound(inner, bound))
            self.block(statement.orelse, _unbound(known, bound))
        elif kind in _TRIES or kind is gast.Match:
            # a handler, `else` or `finally` may follow any part of the body
            after = _unbound(known, self.bound(statement))
            if kind is gast.Match:
                for case in statement.cases:
                    self.block(case.body, after)
            else:
                self.block(statement.body, inner)
                for handler in statement.handlers:
                    self.block(handler.body, after)
                self.block(statement.orelse, after)
                self.block(statement.finalbody, after)
        else:
            for field in plain_fields(statement):
                value = getattr(statement, field, None)
                if type(value) is list and value and isinstance(value[0], gast.stmt):
                    self.block(value, inner)
        return inner

    def read_flag(self, shared, test):
        """`test` reads the flag of `shared`, which its first test stores."""
        if shared.flag is None:
            shared.flag = self.namer.new(_FLAG_PREFIXES[test.kind] + test.name)
            store = gast.Name(id=shared.flag, ctx=gast.Store(), annotation=None,
                              type_comment=None)
            anno.setanno(store, anno.Basic.GENERATED, True)
            shared.test.put(gast.NamedExpr(target=store, value=shared.test.node))
        test.put(templates.replace_as_expression('flag', flag=shared.flag))

    def bound(self, statement):
        """The names `statement` may bind, in its own code and its blocks (not in nested
        scopes, whose `nonlocal` names the function leaves out of sharing)."""
        names = self.binds.get(id(statement))
        if names is None:
            names = set(self.scan(statement).bound)
            for block in _blocks(statement):
                for inner in block:
                    if not dual.in_staged_form(inner):
                        names |= self.bound(inner)
            self.binds[id(statement)] = names
        return names

    def scan(self, statement):
        facts = self.facts.get(id(statement))
        if facts is None:
            facts = self.facts[id(statement)] = _scan(statement)
        return facts


def _unbound(known, bound):
    """`known` (shared tests by (name, kind)) less the tests of the names in `bound`."""
    return {key: shared for key, shared in known.items() if key[0] not in bound}


def _own_code(node):
    """The children of `node` in its own code: `plain_code` less the statements of its
    blocks."""
    return [child for child in plain_code(node) if not isinstance(child, gast.stmt)]


def _blocks(statement):
    """The statement lists of `statement`'s plain code (its handlers' and cases' too)."""
    found = []
    for field in plain_fields(statement):
        value = getattr(statement, field, None)
        if type(value) is list and value:
            if isinstance(value[0], gast.stmt):
                found.append(value)
            elif isinstance(value[0], (gast.ExceptHandler, gast.match_case)):
                found.extend(item.body for item in value)
    return found


def _scan(statement):
    """The `_Facts` of `statement`'s own code: the names it binds (those that nested scopes
    in it bind in the function too: a comprehension's assignment expressions) and its type
    tests, each `sure` if evaluating the header makes it (not behind an `and`/`or`, a
    condition or a comparison chain's later link)."""
    bound, tests = set(), []
    header = _HEADERS.get(type(statement))
    if isinstance(statement, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Match)):
        return _Facts(scopes.level([statement], _own_code).bound, tests)
    if isinstance(statement, (gast.Import, gast.ImportFrom)):
        bound.update((a.asname or a.name).partition('.')[0] for a in statement.names)
    pending = []
    for field in plain_fields(statement):
        value = getattr(statement, field, None)
        if type(value) is list:
            for index, item in enumerate(value):
                if isinstance(item, gast.AST) and not isinstance(item, gast.stmt):
                    pending.append((item, statement, field, index, field == header))
        elif isinstance(value, gast.AST):
            pending.append((value, statement, field, None, field == header))
    while pending:
        node, parent, field, index, sure = pending.pop()
        if dual.in_staged_form(node):
            continue
        kind = type(node)
        if kind is gast.Name:
            if type(node.ctx) is not gast.Load:
                bound.add(node.id)
            continue
        name = anno.getanno(node, TYPE_TEST)
        test_kind = TYPE_TEST
        if name is None:
            name, test_kind = anno.getanno(node, METHOD_TEST), METHOD_TEST
        if name is not None:
            tests.append(_Test(name, test_kind, node, parent, field, index, sure))
            continue
        if isinstance(node, OWN_SCOPES):
            bound |= scopes.level([node]).bound   # its defaults; a comprehension's `:=`
            continue
        if isinstance(node, gast.ExceptHandler):
            if node.name is not None:
                bound.add(node.name.id)
            if node.type is not None:
                pending.append((node.type, node, 'type', None, False))
            continue
        for child_field in node._fields:
            value = getattr(node, child_field, None)
            if type(value) is list:
                for child_index, item in enumerate(value):
                    if isinstance(item, gast.AST) and not isinstance(item, gast.stmt):
                        later = child_index > 0 and (kind is gast.BoolOp or
                                                     kind is gast.Compare)
                        pending.append((item, node, child_field, child_index, sure and not later))
            elif isinstance(value, gast.AST):
                later = kind is gast.IfExp and child_field != 'test'
                pending.append((value, node, child_field, None, sure and not later))
    tests.reverse()      # popped from the end: back in the order written
    return _Facts(bound, tests)


_BLOCKS = ('body', 'orelse', 'finalbody')


def _bindings(statements, bound, loops, excluded):
    """The names `statements` may bind; appends (loop, names surely bound when it starts,
    names it may bind) to `loops` and the names deleted or assigned by nested functions to
    `excluded`."""
    bound, binds = set(bound), set()
    for statement in statements:
        if dual.in_staged_form(statement):
            continue
        blocks = [getattr(statement, field, None) for field in _BLOCKS]
        blocks = [block for block in blocks if type(block) is list]
        if isinstance(statement, gast.If) and anno.getanno(statement.test, dual.PICKS_FORM):
            blocks = [statement.orelse]   # the body is the staged form of the plain `else`
        if isinstance(statement, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            level = scopes.level([statement])
            names = level.bound
            excluded |= level.inner_assigned
        elif blocks:
            handlers = getattr(statement, 'handlers', [])
            parts = [child for child in plain_code(statement)
                     if not isinstance(child, (gast.stmt, gast.ExceptHandler))]
            for handler in handlers:
                if handler.name is not None:
                    excluded.add(handler.name.id)     # unbound when the handler ends
                parts += [child for child in plain_code(handler)
                          if not isinstance(child, gast.stmt)]
            level = scopes.level(parts, plain_code)
            names = level.bound
            excluded |= level.inner_assigned
            for block in blocks + [handler.body for handler in handlers]:
                names |= _bindings(block, bound, loops, excluded)
            if isinstance(statement, (gast.While, gast.For)):
                loops.append((statement, frozenset(bound), names))
        else:
            level = scopes.level([statement], plain_code)
            names = level.bound
            excluded |= level.inner_assigned
            if isinstance(statement, gast.Delete):
                excluded |= names
        binds |= names
        bound |= _binds(statement)
    return binds


def _binds(statement):
    """The names a simple statement surely binds once it has run."""
    if isinstance(statement, gast.Assign):
        targets = statement.targets
    elif isinstance(statement, (gast.AugAssign, gast.AnnAssign)) and statement.value is not None:
        targets = [statement.target]
    elif isinstance(statement, (gast.Import, gast.ImportFrom)):
        return {(a.asname or a.name).partition('.')[0] for a in statement.names}
    else:
        return set()
    names, pending = set(), list(targets)
    while pending:
        target = pending.pop()
        if isinstance(target, gast.Name):
            names.add(target.id)
        elif isinstance(target, (gast.Tuple, gast.List)):
            pending.extend(target.elts)
        elif isinstance(target, gast.Starred):
            pending.append(target.value)
    return names


def share_type_tests(function_body, local_names, namer):
    """Stores, in the plain code of a function's body, the type tests of `local_names` that
    later tests of the same name can read (`_TypeTestSharing`), naming flags with `namer`."""
    _TypeTestSharing(local_names, namer).block(function_body, {})
