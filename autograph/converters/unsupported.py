"""Refuses, at conversion time, the constructs AutoGraph cannot convert, naming the construct and
the user's line: generators (`yield`), `async` functions and `await`, and `match` statements
(the control-flow analyses do not model pattern matching)."""
import gast

from autograph.pyct import anno, errors, transformer

_UNSUPPORTED = {
    gast.Yield: 'generators (`yield`)',
    gast.YieldFrom: 'generators (`yield from`)',
    gast.AsyncFunctionDef: '`async def` functions',
    gast.Await: '`await`',
    gast.AsyncFor: '`async for`',
    gast.AsyncWith: '`async with`',
    gast.Match: '`match` statements',
}


class UnsupportedFeatureCheck(transformer.Base):

    def _refuse(self, node):
        construct = _UNSUPPORTED[type(node)]
        origin = anno.getanno(node, anno.Basic.ORIGIN)
        raise errors.UnsupportedFeatureError(
            f'{origin}: AutoGraph does not support {construct} (in '
            f'{origin.function_name!r}: {origin.source_line.strip()}). Wrap the function '
            'in ag.do_not_convert to run it as plain Python.')

    visit_Yield = visit_YieldFrom = visit_AsyncFunctionDef = visit_Await = _refuse
    visit_AsyncFor = visit_AsyncWith = visit_Match = _refuse


def transform(node, ctx):
    return UnsupportedFeatureCheck(ctx).visit(node)
