"""Names the scope of each function: the first of the two converters of function scopes.

Each FunctionDef gets the name of its scope (`fscope`, `fscope_1` for a nested one, ...) as
`anno.Basic.FUNCTION_SCOPE`, which the converted calls inside it pass to `ag__.callee`, and
the options constant it runs with (`OPTIONS`): `ag__.STD_REQUESTED` for the function the user
asked to convert, `ag__.STD` (TensorFlow's name) for the functions defined in it; both are
`ConversionOptions(recursive=True, ...)`, differing in `user_requested`. The body is wrapped
in its scope last, by converters/function_scopes, so that no other converter sees that code.
"""
from autograph.pyct import anno, transformer

OPTIONS = 'the options constant of the function scope'


class FunctionTransformer(transformer.Base):

    visits_expressions = False

    def __init__(self, ctx):
        super().__init__(ctx)
        self.depth = 0

    def visit_FunctionDef(self, node):
        self.depth += 1
        node = self.generic_visit(node)
        self.depth -= 1
        anno.setanno(node, anno.Basic.FUNCTION_SCOPE, self.ctx.namer.new('fscope'))
        anno.setanno(node, OPTIONS, 'ag__.STD_REQUESTED' if self.depth == 0 else 'ag__.STD')
        return node


def transform(node, ctx):
    return FunctionTransformer(ctx).visit(node)
