"""autograph.pyct.scopes against CPython's own symbol table (the `symtable` module)."""
import symtable
import textwrap

import pytest

from autograph.pyct import parser, scopes

SOURCES = {
    'assignments and reads': '''
        def f(a, *args, b=1, **kw):
            x = a + b
            y += 1
            del z
            for i, (j, k) in enumerate(args):
                pass
            with open(x) as (h, g):
                pass
            try:
                pass
            except ValueError as error:
                pass
            import os.path, json as js
            from sys import argv
            return x + y + w
        ''',
    'closures and declarations': '''
        def f(p):
            q = 1
            def g(r=q):
                nonlocal p
                p = r + s
                return lambda t: t + q + u
            global v
            v = 2
            class C(base := object):
                q = p
                def m(self):
                    return q + __class__.x
            return g, C
        ''',
    'comprehensions and walrus': '''
        def f(items, limit):
            found = [n for n in items if (last := n) > limit]
            pairs = {k: [v for v in vs if v != k] for k, vs in items}
            gen = (x * y for x in items for y in range(x))
            if (count := len(found)) > 1:
                pass
            return found, pairs, gen, last, count
        ''',
    'match and annotations': '''
        def f(value) -> int:
            size: int = 3
            match value:
                case [first, *rest]:
                    pass
                case {'k': kv, **others}:
                    pass
                case Point(x=px) as whole:
                    pass
            return size
        ''',
}


def _symtable_function(source):
    table = symtable.symtable(textwrap.dedent(source), '<test>', 'exec')
    return next(child for child in table.get_children() if child.get_name() == 'f')


def _node(source):
    return parser.parse(textwrap.dedent(source)).body[0]


@pytest.mark.parametrize('name', sorted(SOURCES))
def test_function_locals_match_the_symbol_table(name):
    table = _symtable_function(SOURCES[name])
    expected = {s.get_name() for s in table.get_symbols() if s.is_local() and not
                s.is_global() and not s.is_nonlocal()}
    local, _ = scopes.function_locals(_node(SOURCES[name]))
    assert local == expected


@pytest.mark.parametrize('name', sorted(SOURCES))
def test_the_free_names_of_nested_scopes_match_the_symbol_table(name):
    """What the nested scopes leave to `f`: the names that are cells of `f` (the symbol table's
    `f` cells, among `f`'s locals), and the globals they read."""
    table = _symtable_function(SOURCES[name])
    local, level = scopes.function_locals(_node(SOURCES[name]))
    expected_cells = set()
    pending = list(table.get_children())
    while pending:
        child = pending.pop()
        if child.get_type() == 'function':
            expected_cells |= set(child.get_frees()) & local
        pending.extend(child.get_children())
    assert level.inner_free & local == expected_cells
    assert expected_cells or name != 'closures and declarations'


def test_a_comprehension_binds_its_walrus_target_in_the_function():
    local, level = scopes.function_locals(_node(SOURCES['comprehensions and walrus']))
    assert {'last', 'count', 'found'} <= local
    assert not {'n', 'k', 'vs', 'v', 'x', 'y'} & local


def test_a_class_body_does_not_enclose_its_methods():
    local, level = scopes.function_locals(_node(SOURCES['closures and declarations']))
    assert 'q' in level.inner_free      # read by the method C.m: the function's q, not C's
    assert '__class__' not in level.inner_free
    assert level.globals == {'v'} and 'v' not in local
    assert 'p' in level.inner_assigned   # g's `nonlocal p`
