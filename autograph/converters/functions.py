"""Wraps each function body in a function scope:

    def f(x):                       def f(x):
        body                            with ag__.FunctionScope(
                                                    'f', 'fscope', ag__.ConversionOptions(...)
                                            ) as fscope:
                                                body

The scope's name is what converted calls inside the function pass as `caller_fn_scope`; it is
recorded on the FunctionDef as `anno.Basic.FUNCTION_SCOPE`.
"""
import gast

from autograph.pyct import anno, templates, transformer

_TEMPLATE = '''
with ag__.FunctionScope(function_name, scope_name, ag__.ConversionOptions(
        recursive=True, user_requested=user_requested, optional_features=(),
        internal_convert_user_code=True)) as scope:
    body
'''


class FunctionTransformer(transformer.Base):

    visits_expressions = False

    def __init__(self, ctx):
        super().__init__(ctx)
        self.depth = 0

    def visit_FunctionDef(self, node):
        self.depth += 1
        node = self.generic_visit(node)
        self.depth -= 1
        docstring = node.body[:1] if transformer.is_docstring(node.body[0]) else []
        scope = self.ctx.namer.new('fscope')
        wrapper = templates.replace(
            _TEMPLATE, function_name=gast.Constant(value=node.name, kind=None),
            scope_name=gast.Constant(value=scope, kind=None), scope=scope,
            user_requested=gast.Constant(value=self.depth == 0, kind=None),
            body=node.body[len(docstring):] or [gast.Pass()])
        anno.setanno(node, anno.Basic.FUNCTION_SCOPE, scope)
        node.body = docstring + wrapper
        return node


def transform(node, ctx):
    return FunctionTransformer(ctx).visit(node)
