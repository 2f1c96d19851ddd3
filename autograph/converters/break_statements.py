"""`break` becomes a flag; the loop stops through an extra test. Loop `else` blocks work too.

    while test:                 break_ = False
        if c:                   while test:        # extra test: not break_
            break                   if c:
        body                            break_ = True
    else:                           else:
        done()                          body
                                if not break_:
                                    done()

That is the staged form. The plain Python form of the loop (converters/control_flow.py) breaks
for real as well: `break_ = True` there is followed by `break`, and its test leaves the flag out.
"""
import gast

from autograph.converters import jumps
from autograph.pyct import anno, templates, transformer


class BreakTransformer(transformer.Base):

    visits_expressions = False

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        orelse, node.orelse = node.orelse, []
        if jumps.classify(node.body, gast.Break) == jumps.Jumps.NEVER:
            return [node] + orelse
        flag = self.ctx.namer.new('break_')
        node.body = jumps.JumpRewriter(self.ctx, gast.Break, flag).rewrite_block(node.body)
        extra_tests = anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, [])
        anno.setanno(node, anno.Basic.BREAK_FLAG, flag)
        test = templates.replace_as_expression('not flag', flag=flag)
        anno.setanno(test, anno.Basic.BREAK_FLAG, flag)
        anno.setanno(node, anno.Basic.EXTRA_LOOP_TEST, extra_tests + [test])
        after = templates.replace('if not flag:\n    orelse', flag=flag, orelse=orelse) \
            if orelse else []
        return templates.replace('flag = False', flag=flag) + [node] + after

    visit_While = visit_For = _visit_loop


def transform(node, ctx):
    return BreakTransformer(ctx).visit(node)
