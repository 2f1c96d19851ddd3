"""analysis.liveness: a function in, the names live into and out of each compound statement."""
import textwrap

import pytest

from autograph.analysis import analyze
from autograph.pyct import anno, parser


def statements(source):
    node = parser.parse(textwrap.dedent(source).lstrip('\n')).body[0]
    analyze(node)
    return [s for s in _walk(node.body) if anno.hasanno(s, anno.Static.LIVE_IN)]


def _walk(block):
    for statement in block:
        yield statement
        for field in ('body', 'orelse', 'handlers'):
            yield from _walk(getattr(statement, field, []) or [])


CASES = [
    # (source, [(LIVE_IN, LIVE_OUT) of each compound statement, in source order])
    ('''
     def f(x, y):
         if x:
             z = y
         else:
             z = 0
         return z
     ''', [({'x', 'y'}, {'z'})]),
    ('''
     def f(xs):
         s = 0
         for x in xs:
             s = s + x
         return s
     ''', [({'s', 'xs'}, {'s'})]),
    ('''
     def f(n):
         i = 0
         while i < n:
             i += 1
         return i
     ''', [({'i', 'n'}, {'i'})]),
    ('''
     def f(a, b):
         if a:
             c = b
         return a
     ''', [({'a', 'b'}, {'a'})]),     # c is never read: dead after the if
    ('''
     def f(a, b):
         while a:
             if b:
                 a = b
             b = a
         return 1
     ''', [({'a', 'b'}, set()), ({'a', 'b'}, {'a'})]),
]


@pytest.mark.parametrize('source, expected', CASES)
def test_live_names(source, expected):
    found = [(set(anno.getanno(s, anno.Static.LIVE_IN)), set(anno.getanno(s, anno.Static.LIVE_OUT)))
             for s in statements(source)]
    assert found == expected
