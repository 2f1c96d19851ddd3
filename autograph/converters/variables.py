"""Every read of a user variable becomes `ag__.ld(name)`, which gives a clear error when the
variable is an `ag__.Undefined` placeholder. Names written by the compiler are left alone.
An augmented assignment `x += y` reads `x` too: it is preceded by `ag__.ld(x)`."""
import gast

from autograph.pyct import anno, templates, transformer


class VariableTransformer(transformer.Base):

    def visit_Name(self, node):
        if not isinstance(node.ctx, gast.Load) or anno.getanno(node, anno.Basic.GENERATED):
            return node
        return templates.replace_as_expression('ag__.ld(name)', name=node)


    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        target = node.target
        if not isinstance(target, gast.Name) or anno.getanno(target, anno.Basic.GENERATED):
            return node
        read = templates.replace('ag__.ld(name)', name=gast.Name(
            id=target.id, ctx=gast.Load(), annotation=None, type_comment=None))
        return read + [node]


def transform(node, ctx):
    return VariableTransformer(ctx).visit(node)
