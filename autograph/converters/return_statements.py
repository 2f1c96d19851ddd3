"""`return` becomes an assignment to `retval_` and a flag, so that it works inside graph control
flow; the function returns once, at the end of its scope:

    def f(x):                   with ag__.FunctionScope(...) as fscope:
        if x > 0:                   do_return = False
            return x                retval_ = ag__.UndefinedReturnValue()
        return -x                   if x > 0:
                                        try:
                                            do_return = True
                                            retval_ = x
                                        except:
                                            do_return = False
                                            raise
                                    else:
                                        (the same for -x)
                                    return fscope.ret(retval_, do_return)

Statements after a `return` that may not have happened go under `if not do_return:`; a loop
that may return gets the extra test `not do_return`. A function whose one `return` is its last
statement (none inside a compound statement) keeps it: `return value`, or, when the function
has a loop (whose appends may stage a list), `return fscope.ret(value, True)`.
"""
import gast

from autograph.converters import jumps
from autograph.pyct import anno, templates, transformer

_RETURN_TEMPLATE = '''
try:
    do_return = True
    retval_ = value
except:
    do_return = False
    raise
'''


class _ReturnRewriter(jumps.JumpRewriter):

    def __init__(self, ctx, flag, retval):
        super().__init__(ctx, gast.Return, flag)
        self.retval = retval

    def replace_jump(self, node):
        value = node.value or gast.Constant(value=None, kind=None)
        statements = templates.replace(_RETURN_TEMPLATE, do_return=self.flag,
                                       retval_=self.retval, value=value)
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        if origin is not None:   # errors in the returned expression name the `return` line
            for statement in statements:
                for child in gast.walk(statement):
                    if isinstance(child, gast.stmt) and not anno.hasanno(child, anno.Basic.ORIGIN):
                        anno.setanno(child, anno.Basic.ORIGIN, origin)
        return statements

    def _visit_loop(self, node):
        node.body = self.rewrite_block(node.body)
        extra_tests = anno.getanno(node, anno.Basic.EXTRA_LOOP_TEST, [])
        anno.setanno(node, anno.Basic.EXTRA_LOOP_TEST,
                     extra_tests + [templates.replace_as_expression('not flag', flag=self.flag)])
        return node

    visit_While = visit_For = _visit_loop


class ReturnTransformer(transformer.Base):

    visits_expressions = False

    def visit_FunctionDef(self, node):
        node = self.generic_visit(node)
        scope = anno.getanno(node, anno.Basic.FUNCTION_SCOPE)
        with_node = node.body[-1]
        returns = jumps.classify(with_node.body, gast.Return)
        if returns == jumps.Jumps.NEVER:
            return node
        last = with_node.body[-1]
        if isinstance(last, gast.Return) and jumps.classify(
                with_node.body[:-1], gast.Return) == jumps.Jumps.NEVER:
            # the one `return` ends the body: it stays a `return` (no flag, no placeholder),
            # and without a loop (which may stage a list to unstack) it returns the value
            template = 'return scope.ret(value, True)' if _has_loop(with_node.body) \
                else 'return value'
            with_node.body[-1] = templates.replace(
                template, scope=scope,
                value=last.value or gast.Constant(value=None, kind=None))[0]
            if anno.hasanno(last, anno.Basic.ORIGIN):
                anno.setanno(with_node.body[-1], anno.Basic.ORIGIN,
                             anno.getanno(last, anno.Basic.ORIGIN))
            return node
        flag, retval = self.ctx.namer.new('do_return'), self.ctx.namer.new('retval_')
        undefined = 'ag__.UndefinedReturnValue()'
        if returns == jumps.Jumps.ALWAYS and _returns_early(with_node.body):
            # a tensor `if` may then return in one branch only: the code after it runs only
            # where nothing returned, and some `return` ends every path
            undefined = 'ag__.UndefinedReturnValue(every_path_returns=True)'
        body = _ReturnRewriter(self.ctx, flag, retval).rewrite_block(with_node.body)
        with_node.body = templates.replace(f'''
            do_return = False
            retval_ = {undefined}
            body
            return scope.ret(retval_, do_return)
        ''', do_return=flag, retval_=retval, body=body, scope=scope)
        return node


def _has_loop(statements):
    """Whether a `for`/`while` is among `statements` (nested functions left out)."""
    pending = list(statements)
    while pending:
        node = pending.pop()
        if isinstance(node, (gast.For, gast.While)):
            return True
        if not isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            pending.extend(gast.iter_child_nodes(node))
    return False


def _returns_early(statements):
    """Whether a `return` of the block is inside a compound statement."""
    return any(jumps.classify([statement], gast.Return) != jumps.Jumps.NEVER
               for statement in statements if not isinstance(statement, gast.Return))


def transform(node, ctx):
    return ReturnTransformer(ctx).visit(node)
