"""The unparser writes exactly `ast.unparse`'s text, and maps each line to its statement."""
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
def test_each_line_maps_to_the_innermost_statement_that_wrote_it(source):
    source, _ = parse(source)
    normalized = ast.unparse(ast.parse(source)) + '\n'  # unparsing gives these lines back
    tree = gast.parse(normalized)
    lines = normalized.splitlines()
    origin_info.resolve(tree, lines, 'user.py', 1, 'f')
    text, source_map = unparser.unparse(tree, with_source_map=True)
    assert text + '\n' == normalized
    expected = {}
    for node in sorted((n for n in ast.walk(ast.parse(normalized)) if isinstance(n, ast.stmt)),
                       key=lambda n: n.end_lineno - n.lineno, reverse=True):
        for line in range(node.lineno, node.end_lineno + 1):  # a def's lineno is after decorators
            expected[line] = node.lineno
    assert {line: origin.lineno for line, origin in source_map.items()} == expected
