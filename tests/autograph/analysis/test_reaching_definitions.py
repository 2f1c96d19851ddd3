"""analysis.reaching_definitions: a function in, the names that may be unbound (or bound) on
entry to each compound statement."""
import textwrap

import pytest

from autograph.analysis import analyze
from autograph.pyct import anno, parser


def facts(source):
    node = parser.parse(textwrap.dedent(source).lstrip('\n')).body[0]
    analyze(node)
    found = []
    for statement in _compound(node.body):
        found.append((set(anno.getanno(statement, anno.Static.MAYBE_UNDEFINED)),
                      set(anno.getanno(statement, anno.Static.MAYBE_DEFINED))))
    return found


def _compound(block):
    for statement in block:
        if anno.hasanno(statement, anno.Static.MAYBE_UNDEFINED):
            yield statement
        for field in ('body', 'orelse', 'handlers'):
            yield from _compound(getattr(statement, field, []) or [])


CASES = [
    # (source, [(maybe undefined, maybe defined) on entry to each compound statement])
    ('''
     def f(x):
         if x:
             y = 1
         if x:
             return y
     ''', [({'y'}, set()), ({'y'}, {'y'})]),
    ('''
     def f(n):
         while n > 0:
             z = n
             n -= 1
         return z
     ''', [({'z'}, {'z', 'n'})]),
    ('''
     def f():
         a = 1
         del a
         if True:
             pass
     ''', [({'a'}, set())]),
    ('''
     def f(x):
         y = 0
         if x:
             y = 1
     ''', [(set(), {'y'})]),
    ('''
     def f():
         try:
             g()
         except ValueError as e:
             pass
         if e:
             pass
     ''', [({'e'}, set()), ({'e'}, set()), ({'e'}, {'e'})]),  # the try, the handler, the if
]


@pytest.mark.parametrize('source, expected', CASES)
def test_maybe_undefined_and_defined(source, expected):
    assert facts(source) == expected
