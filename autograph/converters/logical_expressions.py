"""`and`/`or` become lazy `ag__.and_`/`ag__.or_` over lambdas; `not x` becomes `ag__.not_(x)`.

    a and b and c   ->   ag__.and_(lambda: a, lambda: b, lambda: c)
"""
import gast

from autograph.pyct import templates, transformer


class LogicalExpressionTransformer(transformer.Base):

    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        operator = 'ag__.and_' if isinstance(node.op, gast.And) else 'ag__.or_'
        call = templates.replace_as_expression(operator + '()')
        call.args = [templates.replace_as_expression('lambda: operand', operand=value)
                     for value in node.values]
        return call

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        return templates.replace_as_expression('ag__.not_(operand)', operand=node.operand)


def transform(node, ctx):
    return LogicalExpressionTransformer(ctx).visit(node)
