"""Every call in user code calls what `ag__.callee` resolves for the callee:

    f(a, *rest, k=v, **kw)   ->   ag__.callee(f, fscope)(a, *rest, k=v, **kw)

`callee` returns the converted function (bound for a method), the tensor overload of a builtin,
or the callee itself for code left unconverted; the call itself stays the user's, in the
user's frame, with its arguments as written (no frame of autograph's between caller and
callee: recursion depth, `warnings`' stacklevel and tracebacks are Python's).

A call of a builtin by its bare name (`isinstance(x, dict)`, `max(a, b)`, `list(d)`) stays as
written when the name can only mean the builtin: it has no tensor overload (`len`, `range`, ...:
`OVERLOADED_BUILTINS`), the converted function binds it nowhere, and its module did not bind it
when it was converted (`ctx.module_names`; unknown: every call goes through `callee`). For such
a call `callee` would return the builtin itself, so the call runs exactly the object Python
runs, with nothing in between; a global that shadows the builtin later is called as it is.

Calls written by the compiler (marked GENERATED) stay as they are. A zero-argument `super()`
gets its arguments spelled out (`super(__class__, self)`), because the converted function is not
defined inside the class body that gives `super()` its implicit cell.
"""
import builtins

import gast

from autograph.pyct import anno, templates, transformer, walk

# the builtins with a tensor overload (autograph/operators/py_builtins.OVERLOADS; a test keeps
# the two equal): their calls always go through `ag__.callee`
OVERLOADED_BUILTINS = frozenset({'range', 'len', 'enumerate', 'zip', 'int', 'float', 'abs'})
# The mark of each `ag__.callee(f, scope)` node written here (its value: True), which
# converters/speed/plain_forms reads to write the plain form of the call
CALLEE = 'call_trees: the ag__.callee(f, scope) of a converted call'
_BUILTINS = frozenset(name for name, value in vars(builtins).items()
                      if callable(value) and not name.startswith('_')) - OVERLOADED_BUILTINS


class CallTreeTransformer(transformer.Base):

    def __init__(self, ctx, direct_builtins=frozenset()):
        super().__init__(ctx)
        self.functions = []
        self.direct_builtins = direct_builtins

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
        if isinstance(node.func, gast.Name) and node.func.id in self.direct_builtins:
            return node
        scope = anno.getanno(self.functions[-1], anno.Basic.FUNCTION_SCOPE) \
            if self.functions else None
        node.func = templates.replace_as_expression(
            'ag__.callee(func, scope)', func=node.func,
            scope=scope or gast.Constant(value=None, kind=None))
        anno.setanno(node.func, CALLEE, True)
        return node


def _is_zero_argument_super(node):
    return isinstance(node.func, gast.Name) and node.func.id == 'super' and not node.args


def bound_names(node, module_scope=False):
    """The names `node` binds (assignments, parameters, imports, defs, `global`, ...), in all
    of its scopes; with `module_scope`, those of a module's own scope only (the bodies of its
    functions and classes left out). None when a `from m import *` binds names not written."""
    names = set()
    pending = [node]
    while pending:
        node = pending.pop()
        if isinstance(node, gast.Name):
            if not isinstance(node.ctx, gast.Load):
                names.add(node.id)
            continue
        if isinstance(node, gast.alias):
            if node.name == '*':
                return None
            names.add(node.asname or node.name.split('.')[0])
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, (gast.MatchAs, gast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, gast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            names.add(node.name)
            if module_scope:
                pending.extend(node.decorator_list)
                continue
        elif module_scope and isinstance(node, gast.Lambda):
            continue
        pending.extend(walk.children(node))
    return names


def shadowed_builtins(module_names):
    """The names in `module_names` that decide how calls convert: builtins they shadow."""
    return _BUILTINS.intersection(module_names)


def direct_builtins(node, module_names):
    """The builtins whose calls in `node` stay as written (see the module's doc)."""
    if module_names is None:
        return frozenset()
    bound = bound_names(node)
    if bound is None:
        return frozenset()
    return frozenset(name for name in _BUILTINS - bound if name not in module_names)


def transform(node, ctx):
    return CallTreeTransformer(ctx, direct_builtins(node, ctx.module_names)).visit(node)
