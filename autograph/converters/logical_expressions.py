"""`and`/`or` become lazy `ag__.and_`/`ag__.or_` over lambdas; `not x` becomes `ag__.not_(x)`.

    a and b and c   ->   ag__.and_(lambda: a, lambda: b, lambda: c)
    a < b <= c      ->   ag__.compare_chain(lambda: a, ('<', lambda: b), ('<=', lambda: c))

A chained comparison evaluates each operand once and stops at the first Python false, as Python
does; on tensors the comparisons are joined with `rt.logical_and`.
"""
import gast

from autograph.pyct import templates, transformer

_SYMBOLS = {gast.Lt: '<', gast.LtE: '<=', gast.Gt: '>', gast.GtE: '>=', gast.Eq: '==',
            gast.NotEq: '!=', gast.Is: 'is', gast.IsNot: 'is not', gast.In: 'in',
            gast.NotIn: 'not in'}


class LogicalExpressionTransformer(transformer.Base):

    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        operator = 'ag__.and_' if isinstance(node.op, gast.And) else 'ag__.or_'
        call = templates.replace_as_expression(operator + '()')
        call.args = [templates.replace_as_expression('lambda: operand', operand=value)
                     for value in node.values]
        return call

    def visit_Compare(self, node):
        node = self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        call = templates.replace_as_expression('ag__.compare_chain(lambda: left)', left=node.left)
        for op, operand in zip(node.ops, node.comparators):
            call.args.append(templates.replace_as_expression(
                '(symbol, lambda: operand)', symbol=gast.Constant(value=_SYMBOLS[type(op)],
                                                                  kind=None),
                operand=operand))
        return call

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        return templates.replace_as_expression('ag__.not_(operand)', operand=node.operand)


def transform(node, ctx):
    return LogicalExpressionTransformer(ctx).visit(node)
