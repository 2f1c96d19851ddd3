"""`return` becomes an assignment to `retval_` and a flag, so that it works inside graph control
flow; the function returns once, at the end of its body:

    def f(x):                   do_return = False
        if x > 0:               retval_ = ag__.UNDEFINED_RETURN
            return x            if x > 0:
        return -x                   try:
                                        do_return = True
                                        retval_ = x
                                    except:
                                        do_return = False
                                        raise
                                else:
                                    (the same for -x)
                                if do_return is True:
                                    return retval_
                                return fscope.ret(retval_, do_return)

Statements after a `return` that may not have happened go under `if not do_return:`; a loop
that may return gets the extra test `not do_return`. A function whose one `return` is its last
statement (none inside a compound statement) keeps it: `return value`. A function with a loop
that appends to a list (which a tensor loop stages) first notes how many lists were staged,
`staged_before = ag__.STAGED_LISTS[0]`, and returns its value itself when none were staged
since (`if ag__.STAGED_LISTS[0] is staged_before: return retval_`), else through
`fscope.ret(value, True, staged_before)`, which unstacks them. No `ret` call, no frame: a
return is as deep as the original's.
"""
import gast

from autograph.converters import jumps
from autograph.pyct import anno, templates, transformer, walk

_RETURN_TEMPLATE = '''
try:
    do_return = True
    retval_ = value
except:
    do_return = False
    raise
'''


# The mark of the `try` each `return` becomes: (the function's scope, the name of its
# `staged_before` or None). converters/speed/plain_forms writes a real `return` where it is plain
# Python (no staged form around it)
RETURN = 'return_statements: a return, as the flag and the value'


class _ReturnRewriter(jumps.JumpRewriter):

    def __init__(self, ctx, flag, retval, scope, staged_before):
        super().__init__(ctx, gast.Return, flag)
        self.retval = retval
        self.mark = (scope, staged_before)

    def replace_jump(self, node):
        value = node.value or gast.Constant(value=None, kind=None)
        statements = templates.replace(_RETURN_TEMPLATE, do_return=self.flag,
                                       retval_=self.retval, value=value)
        anno.setanno(statements[0], RETURN, self.mark)
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        if origin is not None:   # errors in the returned expression name the `return` line
            for statement in statements:
                for child in walk.nodes(statement):
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
        docstring = node.body[:1] if transformer.is_docstring(node.body[0]) else []
        statements = node.body[len(docstring):]
        returns = jumps.classify(statements, gast.Return)
        if returns == jumps.Jumps.NEVER:
            return node
        # a function whose loops append to lists (which a tensor loop stages) notes how many
        # lists were staged when it started, so that only a call that staged some unstacks
        appends = _has_appending_loop(statements)
        names = {'staged_before': self.ctx.namer.new('staged_before')} if appends else {}
        head = templates.replace('staged_before = ag__.STAGED_LISTS[0]', **names) \
            if appends else []
        last = statements[-1] if statements else None
        if isinstance(last, gast.Return) and jumps.classify(
                statements[:-1], gast.Return) == jumps.Jumps.NEVER:
            # the one `return` ends the body: it stays a `return` (no flag, no placeholder),
            # and without a loop that may stage a list it returns the value
            value = last.value or gast.Constant(value=None, kind=None)
            if appends:
                ending = templates.replace(f'''
retval_ = value
{_UNSTAGED_RETURN}
return scope.ret(retval_, True, staged_before)
''', retval_=self.ctx.namer.new('retval_'), value=value, scope=scope, **names)
                anno.setanno(ending[1], anno.Basic.NOT_SHOWN, True)   # the unstaged return
            else:
                ending = templates.replace('return value', value=value)
            if anno.hasanno(last, anno.Basic.ORIGIN):
                for statement in ending:
                    anno.setanno(statement, anno.Basic.ORIGIN,
                                 anno.getanno(last, anno.Basic.ORIGIN))
            node.body = docstring + head + statements[:-1] + ending
            return node
        flag, retval = self.ctx.namer.new('do_return'), self.ctx.namer.new('retval_')
        undefined = 'ag__.UNDEFINED_RETURN'
        if returns == jumps.Jumps.ALWAYS and _returns_early(statements):
            # a tensor `if` may then return in one branch only: the code after it runs only
            # where nothing returned, and some `return` ends every path
            undefined = 'ag__.UNDEFINED_RETURN_ON_EVERY_PATH'
        body = _ReturnRewriter(self.ctx, flag, retval, scope, names.get('staged_before')
                               ).rewrite_block(statements)
        # once a `return` ran (do_return is True) retval_ is its value: `ret` is only called
        # when it may not have (a tensor flag, or no return) or lists may need unstacking
        # (an `is` test: the compiler keeps its `if` plain Python)
        ending = (f'if do_return is True:\n    {_UNSTAGED_RETURN}\n'
                  'return scope.ret(retval_, do_return, staged_before)') if appends else (
            'if do_return is True:\n    return retval_\nreturn scope.ret(retval_, do_return)')
        node.body = docstring + head + templates.replace(f'''
do_return = False
retval_ = {undefined}
body
{ending}
''', do_return=flag, retval_=retval, body=body, scope=scope, **names)
        anno.setanno(node.body[-2], anno.Basic.NOT_SHOWN, True)   # `if do_return is True:`
        return node


# Nothing was staged since the call started: the count is the very object read then (an int
# read back from its list slot unchanged is the same object; a changed count is another one,
# and an equal count that is another object only sends the value through `ret`, which compares
# values). An `is` test, which the compiler keeps plain Python.
_UNSTAGED_RETURN = 'if ag__.STAGED_LISTS[0] is staged_before: return retval_'


def _has_appending_loop(statements):
    """Whether a `for`/`while` among `statements` calls an `append` method (nested functions
    left out): the appends that a tensor loop stages (converters/lists)."""
    pending = list(statements)
    while pending:
        node = pending.pop()
        if isinstance(node, (gast.For, gast.While)) and _calls_append(node):
            return True
        if not isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            pending.extend(walk.children(node))
    return False


def _calls_append(loop):
    return any(isinstance(child, gast.Call) and isinstance(child.func, gast.Attribute)
               and child.func.attr == 'append' for child in walk.nodes(loop))


def _returns_early(statements):
    """Whether a `return` of the block is inside a compound statement."""
    return any(jumps.classify([statement], gast.Return) != jumps.Jumps.NEVER
               for statement in statements if not isinstance(statement, gast.Return))


def transform(node, ctx):
    return ReturnTransformer(ctx).visit(node)
