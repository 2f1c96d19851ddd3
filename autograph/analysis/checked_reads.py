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
            enclosing_staged: frozenset[str] = frozenset()) -> frozenset[str]:
    """Marks the plain reads of `fn_node`'s own code (not of nested functions' bodies, which
    are analysed on their own). `enclosing_staged`: the names the enclosing functions stage.
    Returns the names this function's statements may stage."""
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
    unbound_out = _maybe_unbound(graph, local_names - (scope.params if scope else set()))
    for node in graph.nodes:
        if not node.header or node is graph.entry:
            continue
        staged = frozenset().union(*(staged_out[p] for p in node.prev))
        unbound = frozenset().union(*(unbound_out[p] for p in node.prev))
        later = staged_anywhere | enclosing_staged
        checked = staged | (enclosing_staged - local_names)
        for part in node.header:
            _mark(part, checked, later, unbound)
    return staged_anywhere


def _maybe_unbound(graph: cfg.Graph, locals_not_params: set[str]
                   ) -> dict[cfg.Node, frozenset[str]]:
    """{node: the locals that may be unbound after it} (`del` unbinds). The header of a `for`
    binds its target only when there is an item: after a loop that may not run, the target is
    as unbound as before it (found from a first solution, then solved again)."""
    # the join of a `for` -> the target names unbound on entry to it
    unbound_after: dict[cfg.Node, frozenset[str]] = {}

    def transfer(node: cfg.Node, names: frozenset[str]) -> frozenset[str]:
        added = unbound_after.get(node)
        if added:
            names = names | added
        if not node.writes:
            return names
        if isinstance(node.ast_node, gast.Delete):
            return names | node.writes
        return names - node.writes

    entry = frozenset(locals_not_params)
    solution = dataflow.solve(graph, transfer, forward=True, entry_value=entry)
    for statement, header in graph.headers.items():
        if isinstance(statement, gast.For) and statement in graph.joins:
            inside = {id(n) for s in statement.body for n in walk.nodes(s)}
            before = frozenset().union(*(
                solution[p] if p is not graph.entry else entry
                for p in header.prev if id(p.ast_node) not in inside))
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
          unbound: frozenset[str] = frozenset()) -> None:
    """Marks the reads in `node` of names outside `checked`; in lambdas and nested functions,
    of names outside `later` (their own parameters are always plain). The reads of names in
    `unbound` are marked `UNBOUND_READ`: Python may raise there, and the converter says where."""
    node_class = type(node)
    if node_class is gast.Name:
        if node.id not in checked and not isinstance(node.ctx, gast.Del):
            anno.setanno(node, anno.Static.PLAIN_READ, True)
        if node.id in unbound:
            anno.setanno(node, anno.Static.UNBOUND_READ, True)
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
            _mark(child, checked, later, unbound)


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
