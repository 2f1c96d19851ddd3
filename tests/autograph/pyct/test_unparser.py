"""The unparser writes exactly `ast.unparse`'s text, and places each node at its statement's
line."""
import ast
import textwrap

import gast
import pytest

from autograph.pyct import origin_info, unparser

SOURCES = [
    '''
    def f(x, *args, y=1, **kw):
        """Docstring."""
        if x > 0:
            return x
        elif x < -10:
            x = -x
        elif x == 0:
            pass
        else:
            x += 1
        return [i * 2 for i in range(x) if i % 2] + list(args)
    ''',
    '''
    @decorator(1)
    def g(a):
        try:
            with open(a) as handle, ctx() as other:
                data = handle.read()
        except (OSError, ValueError) as error:
            raise RuntimeError(f'bad {a!r}: {error}') from error
        finally:
            del a
        while data:
            data = data[1:]
            if not data:
                break
        else:
            data = None
        return lambda q, *r: (q, r, data)
    ''',
    '''
    class C(Base, metaclass=Meta):
        attr: int = 3

        def m(self, v):
            nonlocal_value = {k: v for k, v in self.items()}
            for i, (a, b) in enumerate(zip(v, v)):
                assert a is not b, 'message'
                yield a
            return nonlocal_value
    ''',
]


def parse(source):
    source = textwrap.dedent(source).strip() + '\n'
    return source, gast.parse(source)


@pytest.mark.parametrize('source', SOURCES)
def test_unparse_is_exactly_ast_unparse(source):
    _, tree = parse(source)
    assert unparser.unparse(tree) == ast.unparse(gast.gast_to_ast(tree))


@pytest.mark.parametrize('source', SOURCES)
def test_to_ast_gives_the_tree_of_gasts_own_converter(source):
    _, tree = parse(source)
    converted = ast.Module(body=unparser.to_ast(tree.body), type_ignores=[])
    assert ast.dump(converted) == ast.dump(gast.gast_to_ast(tree))


@pytest.mark.parametrize('source', SOURCES)
def test_each_node_is_placed_at_the_line_of_the_innermost_statement_around_it(source):
    source, tree = parse(source)
    origin_info.resolve(tree, source.splitlines(), 'user.py', 40, 'f')
    placed = unparser.to_ast(tree.body, 7)
    compile(ast.Module(body=placed, type_ignores=[]), 'user.py', 'exec')   # complete positions
    expected = []

    def lines(node, line):      # the reference: ast's own tree of the source, in walk order
        if isinstance(node, ast.stmt):
            line = node.lineno + 39
        expected.append(line if 'lineno' in node._attributes else None)
        for child in ast.iter_child_nodes(node):
            lines(child, line)
    for statement in ast.parse(source).body:
        lines(statement, 7)
    got = []

    def placed_lines(node):
        got.append(node.lineno if 'lineno' in node._attributes else None)
        assert 'lineno' not in node._attributes or node.col_offset == -1
        for child in ast.iter_child_nodes(node):
            placed_lines(child)
    for statement in placed:
        placed_lines(statement)
    assert got == expected and len(set(got) - {None}) > 3
