"""`and`/`or`/`not` and chained comparisons.

Each has two forms (converters/speed/dual.py). The first operand picks one: a symbolic tensor takes
the staged form, the lazy `ag__.and_`/`ag__.or_` over lambdas (`ag__.not_(x)`), and any other
value Python's own operator, with the same value, evaluation order and short circuit:

    a and b   ->   (ag__.and_(lambda: left, lambda: b)
                    if (left := a) is not True and left is not False and left is not None
                       and ag__.type_(left) not in ag__.PLAIN_TYPES and ag__.is_staged(left)
                    else left and b)

(An operand that is a comparison, a bool, is told apart by `is not True`/`is not False` only,
as an `if`'s test.)

The test of an `if` or `while` statement uses only the truth of its value: there the plain
form is `(<rest> if left else False)` (`True if left else <rest>` for `or`), so that the
statement tells an operand that stopped the chain apart by `is` and tests its truth once, as
Python's does.

With more operands, `a and b and c` is `a and (b and c)`, and the rest picks its form again.
That writes the staged form of each operand once for each operand before it; from
`_FLAT_FROM` operands on, a chain is written flat instead, each operand once in each form:

    (ag__.and_from(value, lambda: b, lambda: c, lambda: d)
     if ag__.type_(value := (ag__.StagedOperand(0, left, False)
                             if (left := a) is not True and ... and ag__.is_staged(left)
                             else left)
                   and (<the same for b, position 1> and <for c, 2> and d))
     is ag__.StagedOperand
     else value)

Python's operator stops at the first symbolic operand (a `StagedOperand` is false in an `and`,
true in an `or`), and `and_from` goes on from it with the staged forms of the rest.

A chained comparison `a < b <= c` is `step and right <= c` where `step := a < (right := b)`;
a symbolic `step` takes the staged form, `ag__.compare_chain_from(step, right, ('<=', lambda:
c))`, which evaluates the rest and joins the comparisons with `rt.logical_and`. (Where both
forms cannot be written: `ag__.compare_chain(lambda: a, ('<', lambda: b), ('<=', lambda: c))`.)
"""
import gast

from autograph.converters.speed import dual
from autograph.pyct import anno, templates

# chains of this many operands or more are written flat (linear in their length)
_FLAT_FROM = 5
SYMBOLS = {gast.Lt: '<', gast.LtE: '<=', gast.Gt: '>', gast.GtE: '>=', gast.Eq: '==',
            gast.NotEq: '!=', gast.Is: 'is', gast.IsNot: 'is not', gast.In: 'in',
            gast.NotIn: 'not in'}


class LogicalExpressionTransformer(dual.ExpressionTransformer):

    def visit_BoolOp(self, node):
        if anno.getanno(node, anno.Basic.PYTHON_TEST):
            return self.generic_visit(node)   # the compiler's own test of a condition's type
        if not self.both_forms_allowed(node):
            return self._staged_bool(self.generic_visit(node))
        staged = [self.visit(value) for value in dual.staged_copy(node.values[1:])]
        values = [self.visit(value) for value in node.values]
        if len(values) >= _FLAT_FROM:
            return self._flat_bool(node.op, values, staged)
        return self._both_bool(node.op, values, staged, anno.getanno(node, dual.TRUTH_TEST, False))

    def _flat_bool(self, op, values, staged):
        """`values[0] op values[1] op ...` with each operand once in each form (the module's
        docstring); `staged`: the staged forms of values[1:]."""
        left, value = self.ctx.namer.new('left'), self.ctx.namer.new('value')
        stops_or = gast.Constant(value=isinstance(op, gast.Or), kind=None)
        operands = []
        for position, operand in enumerate(values[:-1]):
            test = dual.is_staged_operand(left, operand)
            anno.delanno(test, dual.PICKS_FORM)    # the whole chain's test picks the form
            marker = templates.replace_as_expression(
                'ag__.StagedOperand(position, left, stops_or)', left=left, stops_or=stops_or,
                position=gast.Constant(value=position, kind=None))
            operands.append(gast.IfExp(test=test, body=marker, orelse=_load(left)))
        python = gast.BoolOp(op=op, values=operands + values[-1:])   # the last one as it is
        anno.setanno(python, anno.Basic.PYTHON_TEST, True)
        test = templates.replace_as_expression(
            'ag__.type_(value := python) is ag__.StagedOperand', value=value, python=python)
        anno.setanno(test, anno.Basic.PYTHON_TEST, True)
        anno.setanno(test, dual.PICKS_FORM, True)
        call = templates.replace_as_expression(
            'ag__.and_from(value)' if isinstance(op, gast.And) else 'ag__.or_from(value)',
            value=value)
        call.args += [templates.replace_as_expression('lambda: operand', operand=operand)
                      for operand in staged]
        return gast.IfExp(test=test, body=call, orelse=_load(value))

    def _staged_bool(self, node, first=None):
        operator = 'ag__.and_' if isinstance(node.op, gast.And) else 'ag__.or_'
        call = templates.replace_as_expression(operator + '()')
        call.args = [templates.replace_as_expression('lambda: operand', operand=value)
                     for value in ([first] if first is not None else []) + node.values]
        return call

    def _both_bool(self, op, values, staged, if_test=False):
        """`values[0] op values[1] op ...`, `staged` the staged forms of values[1:].
        `if_test`: the test of an `if` or `while` statement, which uses only its truth: in
        the plain form an operand that stops the chain gives False (`and`) or True (`or`), so
        that the statement tells it apart by `is` and tests the operand's truth once, as
        Python's does."""
        if len(values) == 1:
            return values[0]
        left = self.ctx.namer.new('left')
        rest = self._both_bool(op, values[1:], staged[1:], if_test)
        if if_test:
            stop = gast.Constant(value=isinstance(op, gast.Or), kind=None)
            python = gast.IfExp(test=_load(left), body=stop, orelse=rest) \
                if isinstance(op, gast.Or) else gast.IfExp(test=_load(left), body=rest,
                                                           orelse=stop)
            anno.setanno(python.test, anno.Basic.PYTHON_TEST, True)
        else:
            python = gast.BoolOp(op=op, values=[_load(left), rest])
            anno.setanno(python, anno.Basic.PYTHON_TEST, True)
        return gast.IfExp(test=dual.is_staged_operand(left, values[0]),
                          body=self._staged_bool(gast.BoolOp(op=op, values=staged),
                                                 first=_load(left)),
                          orelse=python)

    def visit_Compare(self, node):
        if len(node.ops) < 2:
            return self.generic_visit(node)
        if not self.both_forms_allowed(node):
            node = self.generic_visit(node)
            call = templates.replace_as_expression('ag__.compare_chain(lambda: left)',
                                                   left=node.left)
            call.args += _links(node.ops, node.comparators)
            return call
        staged = [self.visit(c) for c in dual.staged_copy(node.comparators)]
        node = self.generic_visit(node)
        return self._both_chain(node.left, node.ops, node.comparators, staged)

    def _both_chain(self, left, ops, comparators, staged):
        """`left op0 c0 op1 c1 ...` as `step and <the rest, from c0>`, where `step` (the first
        comparison) picks the form; `staged`: the staged forms of the comparators."""
        if len(ops) == 1:
            return gast.Compare(left=left, ops=ops, comparators=comparators)
        step, right = self.ctx.namer.new('step'), self.ctx.namer.new('right')
        first = gast.Compare(left=left, ops=ops[:1], comparators=[
            templates.replace_as_expression('(right := value)', right=right,
                                            value=comparators[0])])
        python = gast.BoolOp(op=gast.And(), values=[_load(step), self._both_chain(
            _load(right), ops[1:], comparators[1:], staged[1:])])
        anno.setanno(python, anno.Basic.PYTHON_TEST, True)
        call = templates.replace_as_expression('ag__.compare_chain_from(step, right)',
                                               step=step, right=right)
        call.args += _links(ops[1:], staged[1:])
        return gast.IfExp(test=dual.is_staged_test(step, first), body=call, orelse=python)

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.op, gast.Not) or anno.getanno(node, anno.Basic.PYTHON_TEST):
            return node
        if not self.both_forms_allowed(node):
            return templates.replace_as_expression('ag__.not_(operand)', operand=node.operand)
        value = self.ctx.namer.new('value')
        python = gast.UnaryOp(op=gast.Not(), operand=_load(value))
        return gast.IfExp(test=dual.is_staged_operand(value, node.operand),
                          body=templates.replace_as_expression('ag__.not_(value)', value=value),
                          orelse=python)


def _links(ops, operands):
    return [templates.replace_as_expression(
        '(symbol, lambda: operand)', symbol=gast.Constant(value=SYMBOLS[type(op)], kind=None),
        operand=operand) for op, operand in zip(ops, operands)]


def _load(name):
    return templates.replace_as_expression('name', name=name)


def transform(node, ctx):
    return LogicalExpressionTransformer(ctx).visit(node)
