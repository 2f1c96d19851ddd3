"""A read of a user variable that may hold a value the converter put there (an
`ag__.Undefined` placeholder, a tensor that stands for a variable a graph loop may not have
set) becomes `ag__.ld(name)`, which gives a clear error (or adds the graph's check). The other
reads, marked `Static.PLAIN_READ` by analysis/checked_reads.py, and the names written by the
compiler stay plain. A read of a local that Python may find unbound there
(`Static.UNBOUND_READ`) is `ag__.ld(ag__.ldu(lambda: x, 'x'))`: still an UnboundLocalError,
naming the variable and the user's file and line. An augmented assignment `x += y` reads `x`
too: when that read is checked, it is preceded by the check."""
import gast

from autograph.pyct import anno, templates, transformer

_UNBOUND_READ = 'ag__.ld(ag__.ldu(lambda: name, label))'


class VariableTransformer(transformer.Base):

    def visit_Name(self, node):
        annotations = getattr(node, anno.FIELD, None)
        if not isinstance(node.ctx, gast.Load) or annotations and annotations.get(
                anno.Basic.GENERATED):
            return node
        if annotations and annotations.get(anno.Static.UNBOUND_READ):
            # a local Python may find unbound: the error names the variable and the user's line
            return templates.replace_as_expression(
                _UNBOUND_READ, name=node, label=gast.Constant(value=node.id, kind=None))
        if annotations and annotations.get(anno.Static.PLAIN_READ):
            return node
        return templates.replace_as_expression('ag__.ld(name)', name=node)

    def visit_AugAssign(self, node):
        node = self.generic_visit(node)
        target = node.target
        if not isinstance(target, gast.Name) or anno.getanno(target, anno.Basic.GENERATED):
            return node
        name = gast.Name(id=target.id, ctx=gast.Load(), annotation=None, type_comment=None)
        if anno.getanno(target, anno.Static.UNBOUND_READ):
            read = templates.replace(_UNBOUND_READ, name=name,
                                     label=gast.Constant(value=target.id, kind=None))
        elif anno.getanno(target, anno.Static.PLAIN_READ):
            return node
        else:
            read = templates.replace('ag__.ld(name)', name=name)
        anno.setanno(read[0], anno.Basic.NOT_SHOWN, True)
        return read + [node]


def transform(node, ctx):
    return VariableTransformer(ctx).visit(node)
