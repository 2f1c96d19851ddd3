"""Consumes `ag.experimental.set_loop_options(...)` calls written at the top level of a loop body.

The call is removed and its arguments are recorded on the loop (`anno.Basic.LOOP_OPTIONS`), where
the control-flow converter turns them into the loop operator's `opts` dict. A call is recognised
by its name: any `...set_loop_options(...)` or a bare `set_loop_options(...)`.
"""
import gast

from autograph.pyct import anno, errors, transformer

# TensorFlow's order of the parameters; the loop operators read the last two (parallel_iterations
# and swap_memory change nothing here: the executor runs iterations in order, in memory)
_PARAMETERS = ('parallel_iterations', 'swap_memory', 'maximum_iterations', 'shape_invariants')


def _is_directive(statement):
    if not (isinstance(statement, gast.Expr) and isinstance(statement.value, gast.Call)):
        return False
    func = statement.value.func
    name = func.attr if isinstance(func, gast.Attribute) else getattr(func, 'id', None)
    return name == 'set_loop_options'


class DirectivesTransformer(transformer.Base):

    visits_expressions = False

    def _visit_loop(self, node):
        options = {}
        for statement in [s for s in node.body if _is_directive(s)]:
            call = statement.value
            options.update(zip(_PARAMETERS, call.args))
            options.update((k.arg, k.value) for k in call.keywords)
            node.body.remove(statement)
        if options:
            node.body = node.body or [gast.Pass()]
            anno.setanno(node, anno.Basic.LOOP_OPTIONS, options)
        return self.generic_visit(node)

    visit_While = visit_For = _visit_loop

    def visit_Expr(self, node):
        if _is_directive(node):
            origin = anno.getanno(node, anno.Basic.ORIGIN)
            raise errors.ConversionError(
                f'{origin}: set_loop_options must be called directly in the body of a loop')
        return node


def transform(node, ctx):
    return DirectivesTransformer(ctx).visit(node)
