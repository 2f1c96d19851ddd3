"""Every read of a user variable becomes `ag__.ld(name)`, which gives a clear error when the
variable is an `ag__.Undefined` placeholder. Names written by the compiler are left alone."""
from autograph.pyct import anno, templates, transformer

import gast


class VariableTransformer(transformer.Base):

    def visit_Name(self, node):
        if not isinstance(node.ctx, gast.Load) or anno.getanno(node, anno.Basic.GENERATED):
            return node
        return templates.replace_as_expression('ag__.ld(name)', name=node)


def transform(node, ctx):
    return VariableTransformer(ctx).visit(node)
