"""A read of a user variable that may hold a value the converter put there (an
`ag__.Undefined` placeholder, a tensor that stands for a variable a graph loop may not have
set) becomes `ag__.ld(name)`, which gives a clear error (or adds the graph's check). The other
reads, marked `Static.PLAIN_READ` by analysis/checked_reads.py, and the names written by the
compiler stay plain. An augmented assignment `x += y` reads `x` too: when that read is
checked, it is preceded by `ag__.ld(x)`."""
import gast

from autograph.pyct import anno, templates, transformer


class VariableTransformer(transformer.Base):

    def visit_Name(self, node):
        annotations = getattr(node, anno.FIELD, None)
        if not isinstance(node.ctx, gast.Load) or annotations and (
                annotations.get(anno.Basic.GENERATED) or annotations.get(anno.Static.PLAIN_READ)):
            return node
        return templates.replace_as_expression('ag__.ld(name)', name=node)


    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        target = node.target
        if not isinstance(target, gast.Name) or anno.getanno(target, anno.Basic.GENERATED) \
                or anno.getanno(target, anno.Static.PLAIN_READ):
            return node
        read = templates.replace('ag__.ld(name)', name=gast.Name(
            id=target.id, ctx=gast.Load(), annotation=None, type_comment=None))
        return read + [node]


def transform(node, ctx):
    return VariableTransformer(ctx).visit(node)
