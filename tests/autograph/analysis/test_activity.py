"""analysis.activity: a function in, the names it reads, modifies and declares out (TF's
activity_test.py, as a table)."""
import textwrap

import pytest

from autograph.analysis import activity
from autograph.pyct import anno, parser


def analyzed(source):
    node = parser.parse(textwrap.dedent(source)).body[0]
    return node, activity.analyze(node)


def names(qns):
    return {str(qn) for qn in qns}


FUNCTIONS = [
    # (source, read, modified, local names)
    ('def f(a):\n  b = a + c\n  return b', {'a', 'b', 'c'}, {'a', 'b'}, {'a', 'b'}),
    ('def f(self):\n  self.x = self.y', {'self', 'self.y'}, {'self', 'self.x'}, {'self'}),
    ("def f(d):\n  d['k'] += 1", {'d', "d['k']"}, {'d', "d['k']"}, {'d'}),
    ('def f():\n  global g\n  g = 1', set(), {'g'}, set()),
    ('def f(x):\n  def g():\n    return x + y\n  return g', {'x', 'y', 'g'}, {'x', 'g'},
     {'x', 'g'}),
    ('def f(xs):\n  return [x * k for x in xs]', {'xs', 'k'}, {'xs'}, {'xs'}),
    ('def f():\n  import os.path\n  from a import b as c', set(), {'os', 'c'}, {'os', 'c'}),
    ('def f(a):\n  return lambda b: a + b + d', {'a', 'd'}, {'a'}, {'a'}),
    ('def f():\n  class C:\n    x = y\n  return C', {'y', 'C'}, {'C'}, {'C'}),
    # defaults are read where the function is defined, not in it
    ('def f(*args, k=v, **kw):\n  del args', set(), {'args', 'k', 'kw'}, {'args', 'k', 'kw'}),
    ('def f():\n  x = 1\n  def g():\n    nonlocal x\n    x = 2', set(), {'x', 'g'}, {'x', 'g'}),
    ('def f():\n  for i, (j, k) in pairs:\n    pass', {'pairs'}, {'i', 'j', 'k'}, {'i', 'j', 'k'}),
]


@pytest.mark.parametrize('source, read, modified, local', FUNCTIONS)
def test_function_scopes(source, read, modified, local):
    node, scope = analyzed(source)
    assert names(scope.read) == read
    assert names(scope.modified) == modified
    assert scope.local_names() == local
    assert anno.getanno(node, anno.Static.SCOPE) is scope


def test_declarations_and_params():
    _, scope = analyzed('def f(a, b=1):\n  global g\n  nonlocal n\n  g = n = a')
    assert scope.params == {'a', 'b'} and scope.globals == {'g'} and scope.nonlocals == {'n'}
    assert scope.local_names() == {'a', 'b'}


BLOCKS = [
    # (source, the statement's block scopes: {annotation: (read, modified)})
    ('def f(a):\n  if a:\n    b = 1\n  else:\n    c = d', {
        anno.Static.BODY_SCOPE: (set(), {'b'}), anno.Static.ORELSE_SCOPE: ({'d'}, {'c'})}),
    ('def f(n):\n  while n:\n    n -= 1\n  else:\n    z = n', {
        anno.Static.BODY_SCOPE: ({'n'}, {'n'}), anno.Static.ORELSE_SCOPE: ({'n'}, {'z'})}),
    ('def f(xs):\n  for x in xs:\n    s = x.y', {
        anno.Static.BODY_SCOPE: ({'x', 'x.y'}, {'x', 's'}),
        anno.Static.ORELSE_SCOPE: (set(), set())}),
]


@pytest.mark.parametrize('source, scopes', BLOCKS)
def test_block_scopes(source, scopes):
    node, _ = analyzed(source)
    statement = node.body[0]
    for key, (read, modified) in scopes.items():
        scope = anno.getanno(statement, key)
        assert (names(scope.read), names(scope.modified)) == (read, modified), key


READS_AND_WRITES = [
    # (statements, the simple names they read and bind)
    ('a.b = c[i]', ({'a', 'c', 'i'}, set())),
    ('x, y = y, x', ({'x', 'y'}, {'x', 'y'})),
    ('total += item', ({'total', 'item'}, {'total'})),
    ('del a', (set(), {'a'})),
    ('', (set(), set())),
]


@pytest.mark.parametrize('source, expected', READS_AND_WRITES)
def test_reads_and_writes(source, expected):
    assert activity.reads_and_writes(parser.parse(source).body) == expected
