"""`a if c else b`: its staged form is `ag__.if_exp(c, lambda: a, lambda: b, 'a if c else b')`;
the value of `c` picks that or the expression itself (converters/speed/dual.py):

    (ag__.if_exp(cond, lambda: a, lambda: b, 'a if c else b')
     if (cond := c) is not True and cond is not False and ag__.is_staged(cond)
     else a if cond else b)
"""
import gast

from autograph.converters.speed import dual
from autograph.pyct import templates, unparser

_STAGED = 'ag__.if_exp(test, lambda: body, lambda: orelse, text)'


class ConditionalExpressionTransformer(dual.ExpressionTransformer):

    def visit_IfExp(self, node):
        text = gast.Constant(value=unparser.unparse(node), kind=None)
        if not self.both_forms_allowed(node):
            node = self.generic_visit(node)
            return templates.replace_as_expression(
                _STAGED, test=node.test, body=node.body, orelse=node.orelse, text=text)
        staged_body, staged_orelse = (self.visit(part) for part in dual.staged_copy(
            [node.body, node.orelse]))
        node = self.generic_visit(node)
        cond = self.ctx.namer.new('cond')
        staged = templates.replace_as_expression(_STAGED, test=cond, body=staged_body,
                                                 orelse=staged_orelse, text=text)
        python = gast.IfExp(test=templates.replace_as_expression('cond', cond=cond),
                            body=node.body, orelse=node.orelse)
        return gast.IfExp(test=dual.is_staged_test(cond, node.test), body=staged,
                          orelse=python)


def transform(node, ctx):
    return ConditionalExpressionTransformer(ctx).visit(node)
