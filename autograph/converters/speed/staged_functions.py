"""The staged form of each construct runs in a function of its own, so that the plain form's
variables stay fast locals.

A staged form (the `ag__.if_stmt`/`while_stmt`/`for_stmt` call with its block functions, or the
lambdas of `ag__.and_`, `ag__.if_exp`, ...) reads and assigns the converted function's variables
from nested functions. Left where the control-flow converters write it, every such variable
would be a cell of the whole converted function, and every read or write of it on the plain
path (the one Python values take) a `LOAD_DEREF`/`STORE_DEREF` instead of a `LOAD_FAST`. Here
the staged form of each construct on a function's plain path moves into a function whose
parameters are the variables it uses, and which returns those it assigns:

    if <test picks the staged form>:            if <test picks the staged form>:
        def if_body():                              def staged(x, y):
            nonlocal y                                  def if_body():
            y = x                                           nonlocal y
        ...                                                 y = x
        ag__.if_stmt(cond, if_body, ...)                    ...
    else:                                               ag__.if_stmt(cond, if_body, ...)
        <plain form>                                    return (y,)
                                                    (y,) = ag__.staged_call(staged, ('x', 'y'))
                                                else:
                                                    <plain form>

`ag__.staged_call` reads the variables from the caller's frame, an unbound one as
`ag__.Undefined` (as the staged form's prelude sets it), and passes them by name. For frames
(warnings' `stacklevel`, the user's frames in errors) the staged function is a block of the
converted function, as its block functions are (`origin_info.is_block_name`: `staged_N`, and a
lambda without positional parameters). The function is made only on the
staged path. A variable that a function of the user's reads (a closure) stays a cell, as in
the original, and the staged function reaches it through `nonlocal`; so do the function's own
`global` and `nonlocal` names. A staged form that needs its enclosing frame (`locals()`,
`super()`, `yield`, a jump out of it) stays where it is. This converter runs last: the names
the earlier ones introduce (the function scope, the return flags) are parameters too.
"""
import gast

from autograph.converters.speed import dual
from autograph.pyct import anno, scopes, templates, transformer, walk

# names whose meaning depends on the frame they run in
_FRAME_NAMES = frozenset({'locals', 'vars', 'dir', 'eval', 'exec', 'super', '__class__'})


def _picks_form(node):
    return isinstance(node, (gast.If, gast.IfExp)) and anno.getanno(node.test, dual.PICKS_FORM)


def _needs_frame(level):
    """Whether code of `level` must run in its own frame: it acts on it (a return, a jump,
    `global`/`nonlocal`) or reads a name that depends on it there or in a nested scope."""
    return (level.acts_on_frame or level.globals or level.nonlocals
            or not _FRAME_NAMES.isdisjoint(level.read | level.bound | level.inner_free))


def _strings(names):
    return gast.Tuple(elts=[gast.Constant(value=n, kind=None) for n in names], ctx=gast.Load())


class _Function:
    """The facts about one converted function that its staged forms need: its staged forms on
    its plain path (the `if` statements and expressions that pick them), the functions
    defined there, its local variables and those its user's closures read, found in one walk
    of the plain path."""

    def __init__(self, function):
        self.forms = []
        self.locals, plain = scopes.function_locals(function, expand=self._plain_parts)
        self.functions = plain.functions
        # variables the user's own functions read stay cells, as in the original
        self.captured = plain.inner_free & self.locals
        self.globals, self.nonlocals = plain.globals, plain.nonlocals

    def _plain_parts(self, node):
        if _picks_form(node):
            self.forms.append(node)
            return [node.test] + (node.orelse if isinstance(node, gast.If) else [node.orelse])
        return walk.children(node)


class StagedFunctionTransformer(transformer.Base):

    visits_expressions = False

    def visit_FunctionDef(self, node):
        if anno.getanno(node, anno.Basic.FUNCTION_SCOPE) is not None:
            self._convert(node)
        return node

    def _convert(self, function):
        facts = _Function(function)
        for inner in facts.functions:
            self.visit(inner)
        for form in facts.forms:
            if isinstance(form, gast.If):
                form.body = self._statements(form.body, facts)
            else:
                form.body = self._expression(form.body, facts)

    def _parameters(self, level, facts):
        """The variables a staged form passes in, or None when it makes no cells."""
        if not (level.inner_free & facts.locals) - facts.captured:
            return None
        return sorted((level.touched & facts.locals) - facts.captured)

    def _statements(self, statements, facts):
        level = scopes.level(statements)
        params = self._parameters(level, facts)
        if params is None or _needs_frame(level):
            return statements
        assigned = sorted((level.bound | level.inner_assigned) & set(params))
        name = self.ctx.namer.new('staged')
        declarations = []
        outer_cells = sorted(level.bound & (facts.captured | facts.nonlocals))
        if outer_cells:
            declarations.append(gast.Nonlocal(names=outer_cells))
        outer_globals = sorted(level.bound & facts.globals)
        if outer_globals:
            declarations.append(gast.Global(names=outer_globals))
        ending = templates.replace('return (names,)', names=list(assigned)) if assigned else []
        definition = templates.replace('def name(params):\n    body', name=name, params=params,
                                       body=declarations + statements + ending)
        call = 'ag__.staged_call(name, names)'
        if assigned:
            call = '(assigned,) = ' + call
        return definition + templates.replace(call, name=name, names=_strings(params),
                                              assigned=list(assigned))

    def _expression(self, expression, facts):
        level = scopes.level([expression])
        params = self._parameters(level, facts)
        if params is None or level.bound or _needs_frame(level):
            return expression
        # keyword-only parameters: a lambda without positional ones is a block of converted
        # code for frames (origin_info.is_block_name), not a function of the user's
        function = gast.Lambda(args=gast.arguments(
            args=[], posonlyargs=[], vararg=None,
            kwonlyargs=[gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None)
                        for p in params],
            kw_defaults=[None] * len(params), kwarg=None, defaults=[]), body=expression)
        return templates.replace_as_expression('ag__.staged_call(function, names)',
                                               function=function, names=_strings(params))


def transform(node, ctx):
    return StagedFunctionTransformer(ctx).visit(node)
