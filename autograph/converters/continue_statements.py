"""`continue` becomes a flag that guards the rest of the iteration.

    for x in xs:                for x in xs:
        if c:                       continue_ = False
            continue                if c:
        body                            continue_ = True
                                    else:
                                        body
"""
import gast

from autograph.converters import jumps
from autograph.pyct import templates, transformer


class ContinueTransformer(transformer.Base):

    visits_expressions = False

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        if jumps.classify(node.body, gast.Continue) != jumps.Jumps.NEVER:
            flag = self.ctx.namer.new('continue_')
            node.body = (templates.replace('flag = False', flag=flag)
                         + jumps.JumpRewriter(self.ctx, gast.Continue, flag)
                         .rewrite_block(node.body))
        return node

    visit_While = visit_For = _visit_loop


def transform(node, ctx):
    return ContinueTransformer(ctx).visit(node)
