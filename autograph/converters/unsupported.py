"""Refuses, at conversion time, the constructs AutoGraph cannot convert, naming the construct and
the user's line: generators (`yield`), `async` functions and `await`, and `match` statements
(the control-flow analyses do not model pattern matching).

Only the converted function itself is refused for them: a function nested in it that holds
one (a generator helper, an `async def`) is left as it is written, marked SKIP, so that the
rest of the function is converted and the nested one runs as plain Python."""
import gast

from autograph.pyct import anno, errors, transformer, walk

_UNSUPPORTED = {
    gast.Yield: 'generators (`yield`)',
    gast.YieldFrom: 'generators (`yield from`)',
    gast.AsyncFunctionDef: '`async def` functions',
    gast.Await: '`await`',
    gast.AsyncFor: '`async for`',
    gast.AsyncWith: '`async with`',
    gast.Match: '`match` statements',
}


def _holds_unsupported(node):
    return any(type(child) in _UNSUPPORTED for child in walk.nodes(node))


class UnsupportedFeatureCheck(transformer.Base):

    def __init__(self, ctx):
        super().__init__(ctx)
        self.depth = 0

    def visit_FunctionDef(self, node):
        if self.depth and _holds_unsupported(node):
            anno.setanno(node, anno.Basic.SKIP, True)
            return node
        self.depth += 1
        node = self.generic_visit(node)
        self.depth -= 1
        return node

    def visit_AsyncFunctionDef(self, node):
        if self.depth:
            anno.setanno(node, anno.Basic.SKIP, True)
            return node
        return self._refuse(node)

    def _refuse(self, node):
        construct = _UNSUPPORTED[type(node)]
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        raise errors.UnsupportedFeatureError(
            f'{origin}: AutoGraph does not support {construct} (in '
            f'{origin.function_name!r}: {origin.source_line.strip()}). Wrap the function '
            'in ag.do_not_convert to run it as plain Python.')

    visit_Yield = visit_YieldFrom = visit_Await = _refuse
    visit_AsyncFor = visit_AsyncWith = visit_Match = _refuse


def transform(node, ctx):
    return UnsupportedFeatureCheck(ctx).visit(node)
