"""Every call in user code calls what `ag__.callee` resolves for the callee:

    f(a, *rest, k=v, **kw)   ->   ag__.callee(f, fscope)(a, *rest, k=v, **kw)

`callee` returns the converted function (bound for a method), the tensor overload of a builtin,
or the callee itself for code left unconverted; the call itself stays the user's, in the
user's frame, with its arguments as written (no frame of autograph's between caller and
callee: recursion depth, `warnings`' stacklevel and tracebacks are Python's).

Calls written by the compiler (marked GENERATED) stay as they are. A zero-argument `super()`
gets its arguments spelled out (`super(__class__, self)`), because the converted function is not
defined inside the class body that gives `super()` its implicit cell.
"""
import gast

from autograph.pyct import anno, templates, transformer


class CallTreeTransformer(transformer.Base):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.functions = []

    def visit_FunctionDef(self, node):
        # decorators, default values and annotations run in the enclosing function's scope
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.args = self.visit(node.args)
        if node.returns is not None:
            node.returns = self.visit(node.returns)
        self.functions.append(node)
        node.body = self.visit_block(node.body)
        self.functions.pop()
        return node

    def visit_Call(self, node):
        node = self.generic_visit(node)
        if anno.getanno(node, anno.Basic.GENERATED):
            return node
        if _is_zero_argument_super(node) and self.functions and self.functions[-1].args.args:
            node.args = [templates.replace_as_expression('__class__'),
                         gast.Name(id=self.functions[-1].args.args[0].id, ctx=gast.Load(),
                                   annotation=None, type_comment=None)]
            return node
        scope = anno.getanno(self.functions[-1], anno.Basic.FUNCTION_SCOPE) \
            if self.functions else None
        node.func = templates.replace_as_expression(
            'ag__.callee(func, scope)', func=node.func,
            scope=scope or gast.Constant(value=None, kind=None))
        return node


def _is_zero_argument_super(node):
    return isinstance(node.func, gast.Name) and node.func.id == 'super' and not node.args


def transform(node, ctx):
    return CallTreeTransformer(ctx).visit(node)
