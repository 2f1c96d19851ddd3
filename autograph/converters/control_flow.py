"""`if`, `while` and `for` become calls to `ag__.if_stmt`, `ag__.while_stmt` and `ag__.for_stmt`.

The blocks become local functions that take no state as arguments: they read and assign the
variables of the enclosing function through `nonlocal`. The operator saves and restores those
variables with `get_state`/`set_state`, which is what lets it run both branches of a tensor `if`
or trace a loop body once. The variables that travel are the ones the construct modifies and
that are live at its entry or exit (activity and liveness analysis); those that may be unbound
when the construct starts are set to `ag__.Undefined('name')` first.

    if x > 0:               def get_state():
        y = x                   return (y,)
    else:                   def set_state(vars_):
        y = -x                  nonlocal y
    use(y)                      (y,) = vars_
                            def if_body():
                                nonlocal y
                                y = x
                            def else_body():
                                nonlocal y
                                y = -x
                            y = ag__.Undefined('y')
                            ag__.if_stmt(x > 0, if_body, else_body, get_state, set_state, ('y',), 1)

That is the staged form. Each statement is emitted in two forms, and the value of the condition
(or the iterable) picks one when it runs, as the operators would: the staged form above when it
is a symbolic tensor (a dataset or tensor sequence for a `for`), else the statement itself as
plain Python, whose blocks are converted the same way (the staged form's blocks hold staged
forms only, so a statement is emitted once per enclosing statement, not exponentially often).

    if (cond := x > 0) is not False and cond is not True and ag__.is_staged(cond):
        <the staged form, with `cond` as the condition>
    elif cond:
        y = x
    else:
        y = -x

A `while` tests its condition again at the end of each iteration and refuses one that became a
tensor (`ag__.refuse_staged_test`), as `while_stmt` does; a `for` runs `for target in itr:`,
with the `return` flags tested at the end of the body. Both break for real
(`dual.breaks_for_real`) and leave out the staged form's list-mutation checks. The
`ag__.Undefined` placeholders are set in the staged form only (Python's UnboundLocalError).
"""

import gast

from autograph import analysis
from autograph.analysis import checked_reads
from autograph.converters import block_bindings
from autograph.converters.speed import dual
from autograph.pyct import anno, templates, transformer, unparser

_STATE_TEMPLATE = '''
def get_state():
    return state
def set_state(vars_):
    set_state_body
'''


# The staged form of each `if` of an if/elif chain holds the rest of the chain, so both forms
# of all the n `if`s of a chain would be n * n / 2 staged ones. The first _CHAIN_BUDGET // n
# (at least one) get both; the rest of a longer chain runs its staged form, which gives Python
# values the same results, only slower.
_CHAIN_BUDGET = 160
# The bases of the names of the flags the jump converters make (return, break, continue)
_FLAGS = frozenset({'do_return', 'break_', 'continue_'})
_ELIF_LEVEL = "an `elif`'s position in its chain, and how many of the chain get both forms"
_DROPPED_BEFORE = 'the carried names an earlier staged construct set without carrying them'


class ControlFlowTransformer(transformer.Base):

    visits_expressions = False

    def __init__(self, ctx):
        super().__init__(ctx)
        self.function_scopes = []
        self.captured = []         # per function: the names its lambdas and nested defs read
        self.enclosing_tries = []
        self.staging = 0           # > 0 while writing a staged form (its blocks are staged too)
        self.staged_names = []     # per function: the names it or an enclosing function stages
        self.dropped = []          # per function: names a staged construct set and did not carry
        self.while_depths = []     # per function: `_while_depths` of its body

    def visit_FunctionDef(self, node):
        graph = analysis.analyze(node)
        enclosing = self.staged_names[-1] if self.staged_names else frozenset()
        flags = frozenset(name for name, base in self.ctx.namer.made.items() if base in _FLAGS)
        self.staged_names.append(
            enclosing | checked_reads.analyze(graph, node, enclosing, flags))
        graph.release()
        self.function_scopes.append(anno.getanno(node, anno.Static.SCOPE))
        self.captured.append(block_bindings.captured_names(node.body))
        self.dropped.append(set())
        self.while_depths.append(_while_depths(node.body))
        staging, self.staging = self.staging, 0     # a nested function has both forms again
        node = self.generic_visit(node)
        self.staging = staging
        self.while_depths.pop()
        self.function_scopes.pop()
        self.captured.pop()
        self.dropped.pop()
        self.staged_names.pop()
        # A name that only unreachable code assigns (after a `raise` or a `return`) is not
        # set before the block functions that declare it `nonlocal`: bind it in the function
        unbound = block_bindings.unbound_nonlocals(node)
        if unbound:
            checked_reads.strip([node], unbound)
            docstring = node.body[:1] if transformer.is_docstring(node.body[0]) else []
            node.body = (docstring + block_bindings.undefined_assignments(unbound)
                         + node.body[len(docstring):])
        return node

    def visit_Try(self, node):
        """A `try` with `except` handlers refuses tensor control flow in its body (the
        handlers would not see the errors raised when the graph runs). `try`/`finally` converts
        as TensorFlow's: the body, then the `finally` block, are traced in order."""
        guarded = bool(node.handlers)
        if guarded:
            self.enclosing_tries.append(anno.getanno(node, anno.Basic.ORIGIN))
        node.body = self.visit_block(node.body)
        if guarded:
            self.enclosing_tries.pop()
        for handler in node.handlers:
            handler.body = self.visit_block(handler.body)
        node.orelse = self.visit_block(node.orelse)
        node.finalbody = self.visit_block(node.finalbody)
        return node

    def visit_AnnAssign(self, node):
        """`q: int = a` becomes `q = a` (a block function declares `q` nonlocal, and an
        annotated name cannot be); a bare `q: int` has no effect in a function body."""
        if not isinstance(node.target, gast.Name):
            return node
        if node.value is None:
            return gast.Pass()
        assign = gast.copy_location(
            gast.Assign(targets=[node.target], value=node.value, type_comment=None), node)
        if anno.hasanno(node, anno.Basic.ORIGIN):
            anno.setanno(assign, anno.Basic.ORIGIN, anno.getanno(node, anno.Basic.ORIGIN))
        return assign

    def visit_ClassDef(self, node):
        return node   # a class body runs as Python: its `if`s and annotations stay as written

    def visit_Expr(self, node):
        """A list-mutation check is for the staged form of its loop: the plain form drops it."""
        if not self.staging and anno.getanno(node, anno.Basic.LIST_CHECK):
            return None
        return node

    # The state of a construct

    def _state(self, node, modified):
        """The carried names of a construct, outputs first, and the number of outputs."""
        live_in = anno.getanno(node, anno.Static.LIVE_IN)
        live_out = anno.getanno(node, anno.Static.LIVE_OUT)
        maybe_undefined = anno.getanno(node, anno.Static.MAYBE_UNDEFINED)
        function_globals = self.function_scopes[-1].globals
        simple = {str(qn) for qn in modified if not qn.is_composite} - function_globals
        # a name a closure reads lives in the function, as in Python (lambdas made in a loop
        # see its last value), not in a block function
        outputs = {name for name in simple if name in live_out or name in self.captured[-1]}
        inputs_only = {name for name in simple if name in live_in} - outputs
        composites = {str(qn) for qn in modified if qn.is_composite
                      and not {str(n) for n in qn.support_set()} & (simple | maybe_undefined)}
        names = sorted(outputs | composites) + sorted(inputs_only)
        dropped = self.dropped[-1]
        anno.setanno(node, _DROPPED_BEFORE, frozenset(dropped.intersection(names)))
        dropped.update(simple - outputs - inputs_only)
        return names, len(names) - len(inputs_only)

    def _declarations(self, names, modified):
        """`nonlocal`/`global` statements for a local function that runs a block."""
        function_scope = self.function_scopes[-1]
        simple = {str(qn) for qn in modified if not qn.is_composite}
        nonlocals = sorted({n for n in names if n.isidentifier()}
                           | (simple & function_scope.nonlocals))
        global_names = sorted(simple & function_scope.globals)
        declarations = [gast.Nonlocal(names=nonlocals)] if nonlocals else []
        return declarations + ([gast.Global(names=global_names)] if global_names else [])

    def _block_function(self, name, statements, names, modified, params=()):
        declarations = self._declarations(names, modified)
        statements = block_bindings.undefine_deleted(
            statements, {n for n in names if n.isidentifier()})
        body = block_bindings.bind_nested_nonlocals(statements, declarations)
        return templates.replace('def name(params):\n    body', name=name, params=list(params),
                                 body=declarations + (body or [gast.Pass()]))[0]

    def _state_functions(self, names):
        get_state, set_state = self.ctx.namer.new('get_state'), self.ctx.namer.new('set_state')
        vars_ = self.ctx.namer.new('vars_')
        if names:
            # a key or attribute may not exist yet (first set inside the construct)
            state = templates.replace_as_expression('(names,)', names=[
                templates.replace_as_expression(
                    'ag__.ldu(lambda: name, label)', name=n,
                    label=gast.Constant(value=n, kind=None)) if not n.isidentifier() else n
                for n in names])
            set_state_body = templates.replace('(names,) = vars_', names=list(names), vars_=vars_)
            simple = [n for n in names if n.isidentifier()]
            if simple:
                set_state_body.insert(0, gast.Nonlocal(names=simple))
        else:
            state, set_state_body = gast.Tuple(elts=[], ctx=gast.Load()), [gast.Pass()]
        functions = templates.replace(_STATE_TEMPLATE, get_state=get_state, set_state=set_state,
                                      vars_=vars_, state=state, set_state_body=set_state_body)
        for function in functions:   # generated code only: the later converters skip it
            anno.setanno(function, anno.Basic.SKIP, True)
        return functions, get_state, set_state

    def _prelude(self, node, names):
        """For the carried names that may be unbound: `name = ag__.Undefined('name')`, or
        `name = ag__.ldu(lambda: name, 'name')` when they may also be bound. A name the construct
        carries may also be unbound in the staged form where Python's program has bound it: an
        earlier staged construct that set it where it was dead did not carry it out (`ok = ...`
        in both branches of a tensor `if`, then again in this one: `_DROPPED_BEFORE`)."""
        maybe_undefined = anno.getanno(node, anno.Static.MAYBE_UNDEFINED)
        maybe_defined = anno.getanno(node, anno.Static.MAYBE_DEFINED)
        dropped = anno.getanno(node, _DROPPED_BEFORE, frozenset())
        statements = []
        for name in names:
            if name in maybe_undefined and name in maybe_defined or name in dropped:
                statements += templates.replace(
                    'name = ag__.ldu(lambda: name, label)', name=name,
                    label=gast.Constant(value=name, kind=None))
            elif name in maybe_undefined:
                statements += block_bindings.undefined_assignments([name])
        return statements

    def _guard_try(self, value):
        """Inside the body of a `try` with handlers, a tensor condition or iterable is refused
        when it runs."""
        if not self.enclosing_tries:
            return value
        construct = gast.Constant(value=f'a `try` statement ({self.enclosing_tries[-1]})',
                                  kind=None)
        return templates.replace_as_expression('ag__.python_only(value, construct)',
                                               value=value, construct=construct)

    # The constructs

    def _both_forms(self, node, staged_form):
        """`staged_form(copy)`, the staged statements of a copy of `node`, and `node` with its
        blocks converted (the plain Python form), in this order: the copy is taken first."""
        copy = _copy_statement(node)
        self.staging += 1
        try:
            staged = staged_form(copy)
        finally:
            self.staging -= 1
        return staged, self.generic_visit(node)

    def visit_If(self, node):
        if self.staging:
            return self._staged_if(node, node.test)
        if checked_reads.python_only(node):
            _mark_python_test(node.test)
            return self.generic_visit(node)
        level, dual_levels = anno.getanno(node, _ELIF_LEVEL, (0, None))
        if dual_levels is None:
            dual_levels = max(1, _CHAIN_BUDGET // _chain_length(node))
        if level >= dual_levels:    # the rest of a long chain: its staged form only
            copy = _copy_statement(node)
            self.staging += 1
            try:
                return self._staged_if(copy, copy.test)
            finally:
                self.staging -= 1
        if len(node.orelse) == 1 and isinstance(node.orelse[0], gast.If):
            anno.setanno(node.orelse[0], _ELIF_LEVEL, (level + 1, dual_levels))
        cond = self.ctx.namer.new('cond')
        test = node.test
        if isinstance(test, gast.UnaryOp) and isinstance(test.op, gast.Not):
            # `if not x`: the value of `x` picks the form, each form negates it
            staged, node = self._both_forms(node, lambda copy: self._staged_if(
                copy, dual.staged_copy(_negation(cond))))
            python_test = _negation(cond)
            anno.setanno(python_test, anno.Basic.PYTHON_TEST, True)
            test = test.operand
        else:
            staged, node = self._both_forms(node, lambda copy: self._staged_if(copy, _load(cond)))
            python_test = _load(cond)
            if isinstance(test, gast.BoolOp):
                anno.setanno(test, dual.TRUTH_TEST, True)
        python = gast.If(test=python_test, body=node.body, orelse=node.orelse)
        return gast.If(test=dual.is_staged_test(cond, test, false_first=True), body=staged,
                      orelse=[python])

    def _staged_if(self, node, test):
        body_scope = anno.getanno(node, anno.Static.BODY_SCOPE)
        orelse_scope = anno.getanno(node, anno.Static.ORELSE_SCOPE)
        modified = body_scope.modified | orelse_scope.modified
        names, nouts = self._state(node, modified)
        is_elif = len(node.orelse) == 1 and isinstance(node.orelse[0], gast.If)
        node = self.generic_visit(node)
        hoisted = _hoist_functions(node) if is_elif else []
        state_functions, get_state, set_state = self._state_functions(names)
        # the compiler's own flags keep a Python value both branches give them
        flags = [n for n in names[:nouts] if self.ctx.namer.made.get(n) in _FLAGS]
        if_body, else_body = self.ctx.namer.new('if_body'), self.ctx.namer.new('else_body')
        return (hoisted + state_functions
                + [self._block_function(if_body, node.body, names, modified),
                   self._block_function(else_body, node.orelse, names, modified)]
                + self._prelude(node, names)
                + templates.replace(
                    'ag__.if_stmt(test, if_body, else_body, get_state, set_state, symbols, nouts'
                    + (', flags)' if flags else ')'),
                    test=self._guard_try(test), if_body=if_body, else_body=else_body,
                    get_state=get_state, set_state=set_state, symbols=_strings(names),
                    nouts=gast.Constant(value=nouts, kind=None), flags=_strings(flags)))

    def _loop_parts(self, node):
        modified = anno.getanno(node, anno.Static.BODY_SCOPE).modified
        extra_tests = anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, [])
        names, _ = self._state(node, modified)
        options = anno.getanno(node, anno.Basic.LOOP_OPTIONS, {})
        return modified, extra_tests, names, options

    def visit_While(self, node):
        if self.staging:
            return self._staged_while(node)
        if checked_reads.python_only(node):
            _mark_python_test(node.test)
            node = self.generic_visit(node)
            node.body = dual.breaks_for_real(node, node.body, 'while')
            return node
        if isinstance(node.test, gast.BoolOp):
            anno.setanno(node.test, dual.TRUTH_TEST, True)
        cond = self.ctx.namer.new('cond')
        staged, node = self._both_forms(
            node, lambda copy: self._staged_while(copy, _load(cond)))
        # the `break` flag is False on entry: the first test leaves it out too
        test = _loop_test(node, checked_reads.flag_tests(node))
        body = dual.breaks_for_real(node, node.body, 'while')
        depth = self.while_depths[-1].get(id(node)) if self.while_depths else None
        if depth is not None and depth + _GUARDED_WHILE_BLOCKS <= _MAX_BLOCKS:
            # the test stored as is; one that became a tensor fails `while cond`'s bool(),
            # where the handler (no cost until something raises) gives the loop's error
            again = templates.replace('cond = test', cond=cond, test=templates.copy_tree(test))
            python = templates.replace(_GUARDED_WHILE, cond=cond, loop=[gast.While(
                test=_load(cond), orelse=[], body=body + again)])
        else:
            again = _refuse_staged(cond, templates.copy_tree(test), 'while')
            python = [gast.While(test=_load(cond), orelse=[], body=body + [again])]
        return gast.If(test=dual.is_staged_test(cond, test), body=staged, orelse=python)

    def _staged_while(self, node, condition=None):
        modified, extra_tests, names, options = self._loop_parts(node)
        node = self.generic_visit(node)
        state_functions, get_state, set_state = self._state_functions(names)
        loop_body, loop_test = self.ctx.namer.new('loop_body'), self.ctx.namer.new('loop_test')
        test = _loop_test(node)
        call = 'ag__.while_stmt(loop_test, loop_body, get_state, set_state, symbols, opts)'
        if condition is not None:   # the condition the plain form tested (it is not re-run)
            call = call[:-1] + ', condition=condition)'
            condition = self._guard_try(condition)
        return (state_functions
                + [self._block_function(loop_body, node.body, names, modified)]
                + templates.replace('def loop_test():\n    return test', loop_test=loop_test,
                                    test=self._guard_try(test))
                + self._prelude(node, names)
                + templates.replace(
                    call, loop_test=loop_test, loop_body=loop_body, get_state=get_state,
                    set_state=set_state, symbols=_strings(names), opts=_dict(options),
                    condition=condition))

    def visit_For(self, node):
        if self.staging:
            return self._staged_for(node, node.iter)
        if checked_reads.python_only(node):
            node = self.generic_visit(node)
            node.body = dual.breaks_for_real(node, node.body, 'for')
            return node
        extra_tests = checked_reads.flag_tests(node)
        itr = self.ctx.namer.new('itr')
        staged, node = self._both_forms(node, lambda copy: self._staged_for(copy, _load(itr)))
        body = dual.breaks_for_real(node, node.body, 'for')
        if extra_tests:     # `return` flags: tested before the next item, as for_stmt
            keep = self.ctx.namer.new('keep')
            body = body + [_refuse_staged(keep, _conjunction(templates.copy_tree(extra_tests)),
                                          'for')] + templates.replace('if not keep:\n    break',
                                                                      keep=keep)
            anno.setanno(body[-1].test, anno.Basic.PYTHON_TEST, True)
        python = gast.For(target=node.target, iter=_load(itr), body=body, orelse=[],
                          type_comment=None)
        test = templates.replace_as_expression(
            'ag__.type_(itr := iter_) not in ag__.PYTHON_ITERABLES and '
            'ag__.is_staged_iterable(itr)', itr=itr, iter_=node.iter)
        anno.setanno(test, anno.Basic.PYTHON_TEST, True)
        anno.setanno(test, dual.PICKS_FORM, True)
        return gast.If(test=test, body=staged, orelse=[python])

    def _staged_for(self, node, iter_):
        modified, extra_tests, names, options = self._loop_parts(node)
        node = self.generic_visit(node)
        state_functions, get_state, set_state = self._state_functions(names)
        loop_body, itr = self.ctx.namer.new('loop_body'), self.ctx.namer.new('itr')
        body = templates.replace('target = itr', target=node.target, itr=itr) + node.body
        extra_test_functions, extra_test = [], gast.Constant(value=None, kind=None)
        if extra_tests:
            extra_test = self.ctx.namer.new('extra_test')
            extra_test_functions = templates.replace(
                'def extra_test():\n    return test', extra_test=extra_test,
                test=_conjunction(extra_tests))
        options = dict(options, iterate_names=gast.Constant(
            value=unparser.unparse(node.target), kind=None))
        return (state_functions
                + [self._block_function(loop_body, body, names, modified, params=[itr])]
                + extra_test_functions
                + self._prelude(node, names)
                + templates.replace(
                    'ag__.for_stmt(iter_, extra_test, loop_body, get_state, set_state, symbols,'
                    ' opts)',
                    iter_=self._guard_try(iter_), extra_test=extra_test, loop_body=loop_body,
                    get_state=get_state, set_state=set_state, symbols=_strings(names),
                    opts=_dict(options)))


def _copy_statement(node):
    """A copy of `node` for its staged form: reads checked, and the expressions that
    annotations hold (loop tests and options) copied too, so that no node is in two trees."""
    return dual.staged_copy(node, _staged_annotations)


def _staged_annotations(annotations):
    """The marks of a node copied into a staged form (one walk: `dual.staged_copy`). A read
    Python may find unbound stays guarded: the name may be a cell of the function (a generated
    `lambda` reads it) that the staged form reaches as a free variable."""
    checked_reads.strip_for_staged_form(annotations)
    tests = annotations.get(anno.Basic.EXTRA_LOOP_TEST)
    if tests:
        annotations[anno.Basic.EXTRA_LOOP_TEST] = dual.staged_copy(tests)
    options = annotations.get(anno.Basic.LOOP_OPTIONS)
    if options:
        annotations[anno.Basic.LOOP_OPTIONS] = {k: dual.staged_copy(v)
                                                for k, v in options.items()}


def _mark_python_test(test):
    """Keeps the `and`/`or`/`not` of a test that is a Python bool whatever it reads as Python."""
    if isinstance(test, (gast.BoolOp, gast.UnaryOp)):
        anno.setanno(test, anno.Basic.PYTHON_TEST, True)
        for operand in test.values if isinstance(test, gast.BoolOp) else [test.operand]:
            _mark_python_test(operand)


# The plain form of a `while`, its test run again at the end of each iteration: a test that
# became a symbolic tensor raises at `while cond` (its bool()), and the handler raises the
# loop's error instead; any other error, and one raised while `cond` is a Python value (the
# body's own), goes on as it was (a bare `raise` keeps its traceback).
_GUARDED_WHILE = '''
try:
    loop
except ag__.OperatorNotAllowedInGraphError:
    ag__.refuse_staged_test(cond, 'while')
    raise
'''
# CPython's limit of nested blocks (loops, `try`, `with`, handlers) in a function
# (CO_MAXBLOCKS); the guarded form is two, and the converted function's own `try` one more
_MAX_BLOCKS, _GUARDED_WHILE_BLOCKS = 20, 3
# the blocks each statement counts for what it holds, as converted (a guarded `while` two,
# an `except` handler's body two: its handler and its cleanup)
_BLOCK_WEIGHTS = {gast.While: 2, gast.For: 1, gast.AsyncFor: 1, gast.With: 1, gast.AsyncWith: 1}


def _while_depths(statements, depth=0, found=None):
    """{id(while): the blocks around it} for the `while` loops of `statements` (a function's
    body, outside nested functions and classes), each counted as `_BLOCK_WEIGHTS` says, with
    room for the converters' own (`try` bodies count one, handlers and `finally` two)."""
    found = {} if found is None else found
    for statement in statements:
        kind = type(statement)
        if kind in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
            continue
        if kind is gast.While:
            found[id(statement)] = depth
        inner = depth + _BLOCK_WEIGHTS.get(kind, 0)
        if kind in (gast.Try, getattr(gast, 'TryStar', gast.Try)):
            _while_depths(statement.body, depth + 1, found)
            for handler in statement.handlers:
                _while_depths(handler.body, depth + 2, found)
            _while_depths(statement.orelse, depth + 1, found)
            _while_depths(statement.finalbody, depth + 2, found)
            continue
        if kind is gast.Match:
            for case in statement.cases:
                _while_depths(case.body, depth, found)
            continue
        for field in ('body', 'orelse'):
            block = getattr(statement, field, None)
            if type(block) is list:
                _while_depths(block, inner, found)
    return found


def _refuse_staged(name, test, loop):
    """`name = test`, refused when it became a tensor in a loop that started in Python."""
    return gast.If(test=dual.is_staged_test(name, test), orelse=[], body=templates.replace(
        'ag__.refuse_staged_test(name, loop)', name=name,
        loop=gast.Constant(value=loop, kind=None)))


def _chain_length(node):
    length = 1
    while len(node.orelse) == 1 and isinstance(node.orelse[0], gast.If):
        node, length = node.orelse[0], length + 1
    return length


def _negation(name):
    return templates.replace_as_expression('not name', name=name)


def _load(name):
    return templates.replace_as_expression('name', name=name)


def _conjunction(tests):
    """`a and b and ...`; of the tests of a staged form, staged too (no plain Python form)."""
    if len(tests) == 1:
        return tests[0]
    conjunction = gast.BoolOp(op=gast.And(), values=tests)
    if dual.in_staged_form(tests[0]):
        anno.setanno(conjunction, dual.STAGED_FORM, True)
    return conjunction


def _loop_test(node, extra_tests=None):
    """The test of a `while`, with the extra tests of its `break`/`return` flags first (or
    those given)."""
    if extra_tests is None:
        extra_tests = anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, [])
    return _conjunction(extra_tests + [node.test]) if extra_tests else node.test


def _strings(names):
    return gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in names], ctx=gast.Load())


def _dict(options):
    return gast.Dict(keys=[gast.Constant(value=k, kind=None) for k in options],
                     values=list(options.values()))


def transform(node, ctx):
    return ControlFlowTransformer(ctx).visit(node)


def _hoist_functions(node):
    """Takes the local functions of a converted `elif` out of the `else` block, so that an
    if/elif chain of any length makes flat code rather than functions nested as deep as the
    chain. They mean the same one level up: the `else` block of an `elif` holds nothing else,
    and every name they declare `nonlocal` is `nonlocal` in that block too."""
    hoisted = [statement for statement in node.orelse if isinstance(statement, gast.FunctionDef)]
    node.orelse = [statement for statement in node.orelse
                   if not isinstance(statement, gast.FunctionDef)]
    return hoisted
