"""Which reads of a variable need `ag__.ld` and which can stay plain Python reads.

`ag__.ld` exists for values that the converter itself puts in a variable: the
`ag__.Undefined` placeholders of the staged form of an `if`/`while`/`for`, and the tensors a
graph loop or a tensor `if` leaves there that stand for a variable that may not be set (see
autograph/operators/variables.py). Both can only come out of a converted `if`/`while`/`for`
taking its staged path, so a name can only hold one after such a statement, until it is
assigned again. A forward dataflow over the control-flow graph finds, at each read, the names a
converted statement may have set on some path since their last assignment ("staged" names);
every other read of a local is marked `Static.PLAIN_READ`.

Reads in lambdas and nested functions run later: a free name there stays checked when the
function (or an enclosing one) stages it anywhere. The staged form of a statement (the block
functions) keeps every read checked; the converter strips the marks from its copy.
"""
from dataclasses import dataclass
from typing import Any, Container, Iterable

import gast

from autograph.analysis import cfg, dataflow
from autograph.pyct import anno, qual_names, scopes, walk

_CONVERTED = (gast.If, gast.While, gast.For)
_IDENTITY_AND_MEMBERSHIP = (gast.Is, gast.IsNot, gast.In, gast.NotIn)
_DISPLAYS = (gast.List, gast.Tuple, gast.Dict, gast.Set, gast.ListComp, gast.SetComp,
             gast.DictComp, gast.JoinedStr)


def python_only(statement: Any) -> bool:
    """Whether the test (or the iterable) of a converted statement is a Python value whatever
    the values it reads: `is`, `is not`, `in`, `not in` give a bool, `not` and `and`/`or` of
    such tests too, a constant is one; a `for` over a display or a string iterates in Python.
    The converter writes such a statement as plain Python only."""
    if flag_tests(statement):
        return False    # a `return` flag may be a tensor
    if isinstance(statement, gast.For):
        return isinstance(statement.iter, _DISPLAYS) or isinstance(
            statement.iter, gast.Constant) and isinstance(statement.iter.value, (str, bytes))
    return _python_test(statement.test)


def flag_tests(loop: gast.AST) -> list[gast.AST]:
    """The extra tests of a loop that its plain Python form still makes: those of the `return`
    flags. The `break` flag's is left out, as that form breaks for real (and refuses a flag that
    a staged form made a tensor: converters/control_flow.py)."""
    return [test for test in anno.getanno(loop, anno.Basic.EXTRA_LOOP_TEST, ())
            if not anno.hasanno(test, anno.Basic.BREAK_FLAG)]


def _python_test(test: gast.AST) -> bool:
    if isinstance(test, gast.Constant):
        return True
    if isinstance(test, gast.Compare):
        return all(isinstance(op, _IDENTITY_AND_MEMBERSHIP) for op in test.ops)
    if isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not):
        return _python_test(test.operand)
    if isinstance(test, gast.BoolOp):
        return all(_python_test(value) for value in test.values)
    return False


def analyze(graph: cfg.Graph, fn_node: gast.AST,
            enclosing_staged: frozenset[str] = frozenset(),
            flags: frozenset[str] = frozenset()) -> frozenset[str]:
    """Marks the plain reads of `fn_node`'s own code (not of nested functions' bodies, which
    are analysed on their own). `enclosing_staged`: the names the enclosing functions stage;
    `flags`: the names of the compiler's jump flags (`break_`, `continue_`, `do_return`).
    Returns the names this function's statements may stage.

    A read of a local that Python may find unbound is marked `UNBOUND_READ` where the plain
    Python form may find it unbound: there a jump is taken (the rest of the block after it,
    under `if not flag:`, does not run), so a name unbound only on the paths that set the flag
    is bound in that rest. The staged form runs both sides of such a test, so a read unbound
    on any path is marked `UNBOUND_IN_STAGED_FORM` for it (`strip_for_staged_form`)."""
    maybe_none = _maybe_none(graph, fn_node)
    sources = {}
    for statement, join in graph.joins.items():
        if isinstance(statement, _CONVERTED) and not python_only(statement):
            # what a graph loop flags is its variables' values on entry, not from its body
            inside = {id(n) for s in statement.body for n in walk.nodes(s)}
            entry = [p for p in graph.headers[statement].prev if id(p.ast_node) not in inside]
            sources[join] = _staged_names(statement, frozenset().union(
                *(maybe_none[p] for p in entry)))
    staged_anywhere = frozenset().union(*sources.values())

    def transfer(node: cfg.Node, staged: frozenset[str]) -> frozenset[str]:
        if node.writes:
            staged = staged - node.writes
        added = sources.get(node)
        return staged | added if added else staged

    staged_out = dataflow.solve(graph, transfer, forward=True)
    scope = anno.getanno(fn_node, anno.Static.SCOPE)
    local_names = scope.local_names() if scope is not None else set()
    locals_not_params = local_names - (scope.params if scope else set())
    unbound_out = _maybe_unbound(graph, locals_not_params)
    jumps = _Jumps.of(graph, flags)
    plain_out = _maybe_unbound(graph, locals_not_params, jumps) if jumps else unbound_out
    for node in graph.nodes:
        if not node.header or node is graph.entry:
            continue
        staged = frozenset().union(*(staged_out[p] for p in node.prev))
        unbound = frozenset().union(*(unbound_out[p] for p in node.prev))
        plain_unbound = unbound if jumps is None else _names(
            jumps.entering(node, frozenset().union(*(plain_out[p] for p in node.prev))))
        later = staged_anywhere | enclosing_staged
        checked = staged | (enclosing_staged - local_names)
        for part in node.header:
            _mark(part, checked, later, plain_unbound, unbound - plain_unbound)
    return staged_anywhere


@dataclass
class _Jumps:
    """Where the jump flags are set (`flag = True`), cleared (`flag = False`) and tested: the
    first node of the body of each `if not flag:` (reached from its test only)."""
    sets: dict[cfg.Node, str]
    clears: dict[cfg.Node, str]
    guarded: dict[cfg.Node, str]

    @classmethod
    def of(cls, graph: cfg.Graph, flags: frozenset[str]) -> '_Jumps | None':
        if not flags:
            return None
        sets, clears, guarded = {}, {}, {}
        for node in graph.nodes:
            statement: Any = node.ast_node
            if type(statement) is not gast.Assign or len(statement.targets) != 1:
                continue
            target, value = statement.targets[0], statement.value
            if isinstance(target, gast.Name) and target.id in flags and isinstance(
                    value, gast.Constant):
                if value.value is True:
                    sets[node] = target.id
                elif value.value is False:
                    clears[node] = target.id
        for statement, header in graph.headers.items():
            test = getattr(statement, 'test', None)
            if isinstance(statement, gast.If) and statement.body and header.next and isinstance(
                    test, gast.UnaryOp) and isinstance(test.op, gast.Not) and isinstance(
                    test.operand, gast.Name) and test.operand.id in flags:
                first = header.next[0]     # the body's first node, when only the test leads there
                if len(first.prev) == 1:
                    guarded[first] = test.operand.id
        return cls(sets, clears, guarded) if sets else None

    def entering(self, node: cfg.Node, names: frozenset) -> frozenset:
        """`names` as `node` sees them: in the body of `if not flag:`, without those noted
        with `flag` (the paths that set it do not get there)."""
        flag = self.guarded.get(node)
        if flag is None:
            return names
        return frozenset(n for n in names if type(n) is not tuple or n[1] != flag)

    def leaving(self, node: cfg.Node, names: frozenset) -> frozenset:
        """`names` after `node` sets or clears a flag: after `flag = True`, the names unbound
        so far are noted with it; after `flag = False`, no longer."""
        flag = self.sets.get(node)
        if flag is not None:
            return frozenset((n, flag) if type(n) is str else n for n in names)
        flag = self.clears.get(node)
        if flag is not None:
            return frozenset(n[0] if type(n) is tuple and n[1] == flag else n for n in names)
        return names


def _names(facts: frozenset) -> frozenset[str]:
    """The names in `facts`: names and (name, flag) pairs."""
    return frozenset(n if type(n) is str else n[0] for n in facts)


def _maybe_unbound(graph: cfg.Graph, locals_not_params: set[str],
                   jumps: '_Jumps | None' = None) -> dict[cfg.Node, frozenset]:
    """{node: the locals that may be unbound after it} (`del` unbinds). The header of a `for`
    binds its target only when there is an item: after a loop that may not run, the target is
    as unbound as before it (found from a first solution, then solved again). With `jumps`,
    a name unbound on a path that set a jump flag is noted as (name, flag) (`_Jumps`)."""
    # the join of a `for` -> the target names unbound on entry to it
    unbound_after: dict[cfg.Node, frozenset[str]] = {}

    def transfer(node: cfg.Node, names: frozenset) -> frozenset:
        if jumps is not None:
            names = jumps.entering(node, names)
        added = unbound_after.get(node)
        if added:
            names = names | added
        if not node.writes:
            return names
        if isinstance(node.ast_node, gast.Delete):
            return names | node.writes
        if jumps is None:
            return names - node.writes
        writes = node.writes
        names = frozenset(n for n in names if (n if type(n) is str else n[0]) not in writes)
        return jumps.leaving(node, names)

    entry = frozenset(locals_not_params)
    solution = dataflow.solve(graph, transfer, forward=True, entry_value=entry)
    for statement, header in graph.headers.items():
        if isinstance(statement, gast.For) and statement in graph.joins:
            inside = {id(n) for s in statement.body for n in walk.nodes(s)}
            before = _names(frozenset().union(*(
                solution[p] if p is not graph.entry else entry
                for p in header.prev if id(p.ast_node) not in inside)))
            targets = {n.id for n in walk.nodes(statement.target) if isinstance(n, gast.Name)}
            if before & targets:
                unbound_after[graph.joins[statement]] = frozenset(before & targets)
    if not unbound_after:
        return solution
    return dataflow.solve(graph, transfer, forward=True, entry_value=entry)


def _staged_names(statement: gast.AST, maybe_none: frozenset[str]) -> frozenset[str]:
    """The names that the staged form of `statement` may leave holding a placeholder or a
    tensor that stands for an unset variable: those it assigns that may be unbound before it
    (the placeholders), and for a loop also those that may be None before it (a graph loop
    flags them). A flag that a name already carries reaches the reads after the statement
    along the paths that do not assign it, and a loop inside an `if` is a statement too."""
    modified = _simple(anno.getanno(statement, anno.Static.BODY_SCOPE).modified)
    if isinstance(statement, gast.If):
        modified |= _simple(anno.getanno(statement, anno.Static.ORELSE_SCOPE).modified)
    unset = set(anno.getanno(statement, anno.Static.MAYBE_UNDEFINED, frozenset()))
    if not isinstance(statement, gast.If):
        unset |= maybe_none
    return frozenset(modified & unset)


def _simple(qualified_names: Iterable[qual_names.QN]) -> set[str]:
    return {str(qn) for qn in qualified_names if not qn.is_composite}


# Expressions whose value is never None (a user's operator returning None aside)
_NOT_NONE = (gast.List, gast.Tuple, gast.Dict, gast.Set, gast.ListComp, gast.SetComp,
             gast.DictComp, gast.GeneratorExp, gast.JoinedStr, gast.BinOp, gast.Compare)


def _maybe_none(graph: cfg.Graph, fn_node: gast.AST) -> dict[cfg.Node, frozenset[str]]:
    """{node: the names that may hold None (or be parameters) after it}: a name assigned a
    literal, a display, an arithmetic or a comparison is not None."""
    scope = anno.getanno(fn_node, anno.Static.SCOPE)
    params = frozenset(scope.params) if scope is not None else frozenset()

    def transfer(node: cfg.Node, names: frozenset[str]) -> frozenset[str]:
        if not node.writes:
            return names
        return (names - node.writes) | (node.writes - _not_none_writes(node.ast_node))

    return dataflow.solve(graph, transfer, forward=True, entry_value=params)


def _not_none_writes(statement: gast.AST | None) -> set[str]:
    if isinstance(statement, gast.AugAssign) and isinstance(statement.target, gast.Name):
        return {statement.target.id}     # an arithmetic, as a BinOp
    if not isinstance(statement, gast.Assign) or len(statement.targets) != 1:
        return set()
    target, value = statement.targets[0], statement.value
    pairs = [(target, value)]
    if isinstance(target, gast.Tuple) and isinstance(value, gast.Tuple) and len(
            target.elts) == len(value.elts):
        pairs = list(zip(target.elts, value.elts))
    return {t.id for t, v in pairs if isinstance(t, gast.Name) and (
        isinstance(v, _NOT_NONE) or isinstance(v, gast.Constant) and v.value is not None
        or _is_list_append(v))}


def _is_list_append(value: gast.AST) -> bool:
    """`ag__.list_append(l, x)` (the lists converter's form of `l.append(x)`) gives a list."""
    function = value.func if isinstance(value, gast.Call) else None
    return (isinstance(function, gast.Attribute) and function.attr == 'list_append'
            and isinstance(function.value, gast.Name) and function.value.id == 'ag__')


def _mark(node: Any, checked: frozenset[str], later: frozenset[str],
          unbound: frozenset[str] = frozenset(),
          staged_unbound: frozenset[str] = frozenset()) -> None:
    """Marks the reads in `node` of names outside `checked`; in lambdas and nested functions,
    of names outside `later` (their own parameters are always plain). The reads of names in
    `unbound` are marked `UNBOUND_READ`: Python may raise there, and the converter says where;
    those of names in `staged_unbound`, `UNBOUND_IN_STAGED_FORM`."""
    node_class = type(node)
    if node_class is gast.Name:
        if node.id not in checked and not isinstance(node.ctx, gast.Del):
            anno.setanno(node, anno.Static.PLAIN_READ, True)
        if node.id in unbound:
            anno.setanno(node, anno.Static.UNBOUND_READ, True)
        elif node.id in staged_unbound:
            anno.setanno(node, anno.Static.UNBOUND_IN_STAGED_FORM, True)
        return
    if node_class is gast.FunctionDef or node_class is gast.AsyncFunctionDef:
        parts = node.decorator_list + node.args.defaults + [
            d for d in node.args.kw_defaults if d is not None]
        for part in parts:
            _mark(part, checked, later)
        return
    if node_class is gast.ClassDef:
        return      # a class body runs as Python and keeps its checked reads
    if node_class is gast.Lambda:
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            _mark(default, checked, later)
        own = scopes.parameter_names(node.args)
        _mark(node.body, (later | checked) - own, later - own)
        return
    for child in walk.children(node):
        if type(child)._fields:     # contexts and operators hold no reads
            _mark(child, checked, later, unbound, staged_unbound)


def strip(nodes: Iterable[gast.AST], names: Container[str] | None = None) -> None:
    """Removes the plain-read marks (of `names`, or all) from a copy that becomes the staged
    form of a statement."""
    for node in nodes:
        for child in walk.nodes(node):
            annotations = getattr(child, anno.FIELD, None)
            if annotations and (names is None or getattr(child, 'id', None) in names):
                strip_marks(annotations)


def strip_marks(annotations: dict[Any, Any]) -> None:
    """Removes the plain-read marks from the annotations of one node."""
    annotations.pop(anno.Static.PLAIN_READ, None)
    annotations.pop(anno.Static.UNBOUND_READ, None)
    annotations.pop(anno.Static.UNBOUND_IN_STAGED_FORM, None)


def strip_for_staged_form(annotations: dict[Any, Any]) -> None:
    """The marks of a node copied into the staged form of a statement: every read checked,
    and guarded where any path may leave its name unbound."""
    annotations.pop(anno.Static.PLAIN_READ, None)
    if annotations.pop(anno.Static.UNBOUND_IN_STAGED_FORM, None):
        annotations[anno.Static.UNBOUND_READ] = True
