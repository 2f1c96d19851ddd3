"""Python lists mutated inside loops.

A loop that only appends to a list defined outside it (`l.append(x)` statements, anywhere in
the loop body, and no other assignment or mutation of `l` there) gets
`l = ag__.list_append(l, x)` for each append, and `'appended_lists': ('l',)` in its options: `l`
becomes loop state, staged as a TensorArray when the loop is a graph loop
(operators/lists.py). Any other mutation of such a list in a loop (`l.pop()`, `l[i] = v`,
`l.extend(...)`, ...) is preceded by
`ag__.check_list_mutation(l, 'l', '`l.pop()` (line 12)')`, which refuses it while a graph loop
is traced; the check is in the staged form of the loop only (converters/control_flow.py drops
it from the plain Python form, which no graph loop traces). An `l.append(x)` outside those
loops, of a list one of them only appends to, is rewritten the same way (without the option):
after a tensor loop, or in a branch of a tensor `if`, `l` may be staged, and the append must
then give the new StagedList.
"""
import gast

from autograph.pyct import anno, templates, transformer, unparser, walk

_MUTATORS = frozenset({'append', 'extend', 'insert', 'pop', 'remove', 'clear', 'sort',
                       'reverse'})
# The mark of each `l = ag__.list_append(l, x)` written here (its value: the list's name)
APPEND = 'lists: a rewritten append'
_OPAQUE = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)


def _mutation(statement):
    """(list name, method or None for a subscript store) of a statement that mutates a list
    named by a plain name, else None. A subscript store's method is `('[index]', index)` when
    the index is a constant or a name: the element may then be loop state (`_element_state`)."""
    if anno.hasanno(statement, APPEND):
        return anno.getanno(statement, APPEND), 'append'
    if isinstance(statement, gast.Expr) and isinstance(statement.value, gast.Call):
        func = statement.value.func
        if isinstance(func, gast.Attribute) and func.attr in _MUTATORS and isinstance(
                func.value, gast.Name):
            return func.value.id, func.attr
    targets = []
    if isinstance(statement, (gast.Assign, gast.Delete)):
        targets = statement.targets
    elif isinstance(statement, gast.AugAssign):
        targets = [statement.target]
    for target in targets:
        if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            index = target.slice
            if not isinstance(statement, gast.Delete) and (
                    isinstance(index, gast.Name) or isinstance(index, gast.Constant)
                    and isinstance(index.value, (int, str))):
                return target.value.id, ('[index]', index)
            return target.value.id, None
    return None


def _element_state(found, stored):
    """Whether every mutation of a list in a loop is `y[k] = v` or `y[k] += v` with a constant
    `k` or a name `k` the loop does not set: the elements are then loop state like `d['k']` (the
    control-flow converter carries `y[k]`), as in TensorFlow's AutoGraph."""
    return all(isinstance(method, tuple) and not (
        isinstance(method[1], gast.Name) and method[1].id in stored) for _, method in found)


def _walk(statements):
    """The nodes of a block, without entering nested functions, classes and lambdas."""
    pending = list(statements)
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, _OPAQUE):
            pending.extend(walk.children(node))


def _stored_names(node):
    stored = set()
    targets = [node.target] if isinstance(node, gast.For) else []
    for child in _walk(node.body + node.orelse + targets):
        if isinstance(child, gast.Name) and isinstance(child.ctx, (gast.Store, gast.Del)):
            stored.add(child.id)
        elif isinstance(child, _OPAQUE) and hasattr(child, 'name'):
            stored.add(child.name)
    return stored


class ListTransformer(transformer.Base):

    visits_expressions = False

    def __init__(self, ctx):
        super().__init__(ctx)
        self.rewrite = {}        # id(append statement) -> list name
        self.guard = {}          # id(mutating statement) -> list name
        self.enclosing_stored = []
        self.functions = []
        self.function_locals = {}   # id(FunctionDef) -> its variables
        self.appended = {}          # id(FunctionDef) -> the lists its loops only append to
        self.kept = set()           # ids of mutations in loops that are not appends to rewrite

    def _visit_loop(self, node):
        stored = _stored_names(node)
        mutations = {}
        for statement in _walk(node.body):
            if isinstance(statement, gast.stmt):
                found = _mutation(statement)
                if found is not None:
                    mutations.setdefault(found[0], []).append((statement, found[1]))
        appended = []
        for name, found in sorted(mutations.items()):
            self.kept.update(id(statement) for statement, _ in found)
            if name in stored or _element_state(found, stored):
                continue          # a list made or assigned in the loop, or elements as state
            if name in self._locals() and all(
                    method == 'append' and _single_argument(statement)
                    for statement, method in found):
                appended.append(name)
                for statement, _ in found:
                    self.rewrite[id(statement)] = name
            elif not any(name in s for s in self.enclosing_stored):
                offender = next((statement for statement, method in found
                                 if method != 'append' or not _single_argument(statement)),
                                found[0][0])
                what = f'`{unparser.unparse(offender).strip()}`'
                origin = anno.getanno(offender, anno.Basic.ORIGIN)
                if origin is not None:
                    what = f'{what} (line {origin.lineno})'
                for statement, _ in found:
                    self.guard[id(statement)] = (name, what)
        if appended:
            self.appended.setdefault(id(self.functions[-1]), set()).update(appended)
            options = anno.getanno(node, anno.Basic.LOOP_OPTIONS, {})
            anno.setanno(node, anno.Basic.LOOP_OPTIONS, dict(options, appended_lists=gast.Tuple(
                elts=[gast.Constant(value=n, kind=None) for n in appended], ctx=gast.Load())))
        self.enclosing_stored.append(stored)
        node = self.generic_visit(node)
        self.enclosing_stored.pop()
        return node

    visit_While = visit_For = _visit_loop

    def _visit_statement(self, node):
        name = self.rewrite.pop(id(node), None)
        if name is None and id(node) not in self.kept:
            name = self._append_to_staged(node)
        if name is not None:
            new = templates.replace('name = ag__.list_append(name, value)', name=name,
                                    value=node.value.args[0])
            anno.setanno(new[0], APPEND, name)
            return new
        guarded = self.guard.pop(id(node), None)
        if guarded is not None:
            name, what = guarded
            check = templates.replace('ag__.check_list_mutation(name, label, what)', name=name,
                                      label=gast.Constant(value=name, kind=None),
                                      what=gast.Constant(value=what, kind=None))
            anno.setanno(check[0], anno.Basic.LIST_CHECK, True)
            return check + [node]
        return node

    visit_Expr = visit_Assign = visit_AugAssign = visit_Delete = _visit_statement

    def _append_to_staged(self, node):
        """The list that `node` appends to when a loop of this function only appends to it
        (it may be a StagedList here), else None."""
        found = _mutation(node)
        if found is None or found[1] != 'append' or not _single_argument(node):
            return None
        names = self.appended.get(id(self.functions[-1]), ()) if self.functions else ()
        return found[0] if found[0] in names else None

    def visit_FunctionDef(self, node):
        self.functions.append(node)
        node = self.generic_visit(node)
        self.functions.pop()
        return node

    visit_ClassDef = visit_FunctionDef   # a class body's names are not the function's locals

    def _locals(self):
        """The variables of the innermost function: only they can become loop state (an
        assignment would make a global or a closure variable local). Found on first use."""
        node = self.functions[-1]
        if isinstance(node, gast.ClassDef):
            return set()
        if id(node) not in self.function_locals:
            local = {a.id for a in _walk([node.args]) if isinstance(a, gast.Name)}
            declared = set()
            for child in _walk(node.body):
                if isinstance(child, gast.Name) and isinstance(child.ctx, gast.Store):
                    local.add(child.id)
                elif isinstance(child, (gast.Global, gast.Nonlocal)):
                    declared.update(child.names)
            self.function_locals[id(node)] = local - declared
        return self.function_locals[id(node)]


def _single_argument(statement):
    if anno.hasanno(statement, APPEND):
        return True
    call = statement.value
    return len(call.args) == 1 and not call.keywords and not isinstance(call.args[0],
                                                                       gast.Starred)


def transform(node, ctx):
    return ListTransformer(ctx).visit(node)
