"""`a if c else b` becomes `ag__.if_exp(c, lambda: a, lambda: b, 'a if c else b')`."""

import gast

from autograph.pyct import templates, transformer, unparser


class ConditionalExpressionTransformer(transformer.Base):

    def visit_IfExp(self, node):
        text = unparser.unparse(node)
        node = self.generic_visit(node)
        return templates.replace_as_expression(
            'ag__.if_exp(test, lambda: body, lambda: orelse, text)', test=node.test,
            body=node.body, orelse=node.orelse, text=gast.Constant(value=text, kind=None))


def transform(node, ctx):
    return ConditionalExpressionTransformer(ctx).visit(node)
