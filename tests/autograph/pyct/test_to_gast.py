"""pyct.to_gast gives exactly the tree of gast's own converter: classes, fields, locations and
the order of each node's attributes (which the walks of pyct.walk follow)."""
import ast
import textwrap

import gast
import pytest

from autograph.pyct import to_gast

SOURCES = [
    '''
    def f(a, /, b: int = 1, *args, c, d=2, **kw) -> list:
        """Docstring."""
        global g
        x = y = [i async for i in a] if a else {k: v for k, v in kw.items() if k}
        x += 1; del y
        return lambda q, *r, s=3: (q, *r, s, f'{q!r:>{s}}', b'\\x00', ..., 1j, -0.5)
    ''',
    '''
    @decorator(1)
    async def g(a):
        try:
            async with open(a) as handle, ctx() as (p, q):
                data = await handle.read()
        except* (OSError, ValueError) as error:
            raise RuntimeError('bad') from error
        except* TypeError:
            pass
        else:
            nonlocal_ = 1
        finally:
            del a
        async for item in data:
            yield item
        while data:
            data = data[1:2, ::3]
            break
        else:
            continue_ = None
    ''',
    '''
    class C(Base, metaclass=Meta):
        attr: int = 3
        import os.path as p, sys
        from .. import x as y

        def m(self, v):
            try:
                pass
            except Exception:
                raise
            except ValueError as e:
                print(e, sep='')
            match v:
                case [1, *rest] | {'k': 2, **others} if rest:
                    pass
                case Point(x=0, y=_) as point:
                    assert point, 'message'
                case None | True | -1 | 'a' 'b':
                    pass
            with (yield v):
                return (yield from v)
    ''',
]


def _same(a, b, where='tree'):
    assert type(a) is type(b), where
    if isinstance(a, list):
        assert len(a) == len(b), where
        for index, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f'{where}[{index}]')
    elif isinstance(a, ast.AST):
        assert list(vars(a)) == list(vars(b)), where   # the same attributes, in the same order
        for key in vars(a):
            _same(vars(a)[key], vars(b)[key], f'{where}.{key}')
    else:
        assert a == b, where


@pytest.mark.parametrize('source', SOURCES)
def test_to_gast_gives_the_tree_of_gasts_own_converter(source):
    tree = ast.parse(textwrap.dedent(source))
    _same(to_gast.to_gast(tree), gast.ast_to_gast(tree))


def test_a_node_built_without_some_fields_and_locations_converts_as_gast_does():
    tree = ast.Module(body=[ast.Expr(value=ast.Name(id='x', ctx=ast.Load()))], type_ignores=[])
    handler = ast.ExceptHandler(type=None, name=None, body=[ast.Pass()])
    for node in (tree, handler, ast.arg(arg='a'), ast.Constant(value=1)):
        _same(to_gast.to_gast(node), gast.ast_to_gast(node))
    assert to_gast.to_gast([tree, None, 3])[1:] == [None, 3]
