"""Wraps each function body in a function scope:

    def f(x):                       def f(x):
        body                            with ag__.FunctionScope('f', 'fscope', ag__.STD_REQUESTED
                                                                ) as fscope:
                                                body

The options are constants of the operators module, built once: `ag__.STD_REQUESTED` for the
function the user asked to convert, `ag__.STD` (TensorFlow's name) for the functions defined in
it; both are `ConversionOptions(recursive=True, ...)`, differing in `user_requested`.
The scope's name is what converted calls inside the function pass to `ag__.callee`; it is
recorded on the FunctionDef as `anno.Basic.FUNCTION_SCOPE`.
"""
import gast

from autograph.pyct import anno, templates, transformer

_TEMPLATE = '''
with ag__.FunctionScope(function_name, scope_name, options) as scope:
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
            options=templates.replace_as_expression(
                'ag__.STD_REQUESTED' if self.depth == 0 else 'ag__.STD'),
            body=node.body[len(docstring):] or [gast.Pass()])
        anno.setanno(node, anno.Basic.FUNCTION_SCOPE, scope)
        node.body = docstring + wrapper
        return node


def transform(node, ctx):
    return FunctionTransformer(ctx).visit(node)
