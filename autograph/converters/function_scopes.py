"""The last converter: each function body runs in its scope (named by converters/functions).

    def f(x):
        body

becomes

    def f(x):
        fscope = ag__.STD_REQUESTED_SCOPES.get('f') or ag__.new_scope('f', ag__.STD_REQUESTED)
        try:
            body
        except:
            ag__.unwind()
            raise

The scope is built once per function name and options (`ag__.STD_REQUESTED_SCOPES` for the
function the user asked to convert, `ag__.STD_SCOPES` for the functions it defines; `new_scope`
makes it on first use) and holds nothing of a call; the lookup calls no Python code, so a
converted call needs no more recursion depth than the original. The code that runs does not
even look it up on entry: it reads it where it uses it, in its slow paths
(converters/speed/scope_reads.py). The `try` costs nothing until
an error leaves the function, when its handler takes autograph's frames out of the traceback
(autograph/operators/function_scope.py). It is written after every other converter ran, so
that none of them takes it for a `try` of the user's (which keeps tensor control flow out of
its body). Block functions of converted statements (`if_body`, `loop_body`, ...) have no scope
of their own.
"""
import gast

from autograph.converters import functions
from autograph.pyct import anno, templates, transformer

# The mark of the `try` written here; the readable form of `ag.to_code` shows its body, and
# the scope made by `new_scope` (converters/staged_view.py)
UNWINDS = 'function_scopes: the try whose handler unwinds the function scope'
_TEMPLATE = '''
scope = scopes.get(function_name) or ag__.new_scope(function_name, options)
try:
    body
except:
    ag__.unwind()
    raise
'''


class FunctionScopeTransformer(transformer.Base):

    visits_expressions = False

    def visit_FunctionDef(self, node):
        node = self.generic_visit(node)
        scope = anno.getanno(node, anno.Basic.FUNCTION_SCOPE)
        if scope is None:   # a block function of a converted statement
            return node
        docstring = node.body[:1] if transformer.is_docstring(node.body[0]) else []
        node.body = docstring + templates.replace(
            _TEMPLATE, function_name=gast.Constant(value=node.name, kind=None), scope=scope,
            scopes=templates.replace_as_expression(
                anno.getanno(node, functions.OPTIONS) + '_SCOPES'),
            options=templates.replace_as_expression(anno.getanno(node, functions.OPTIONS)),
            body=node.body[len(docstring):] or [gast.Pass()])
        anno.setanno(node.body[-1], UNWINDS, True)
        return node


def transform(node, ctx):
    return FunctionScopeTransformer(ctx).visit(node)
