"""`assert test, msg` becomes `ag__.assert_stmt(test, lambda: msg)` (the message stays lazy)."""
import gast

from autograph.pyct import templates, transformer


class AssertTransformer(transformer.Base):

    visits_expressions = False

    def visit_Assert(self, node):
        message = node.msg or gast.Constant(value=None, kind=None)
        return templates.replace('ag__.assert_stmt(test, lambda: message)',
                                 test=node.test, message=message)


def transform(node, ctx):
    return AssertTransformer(ctx).visit(node)
