"""pyct.qual_names: expressions in, qualified names out."""
import pytest

from autograph.pyct import parser, qual_names
from autograph.pyct.qual_names import QN

NAMES = [
    # (expression, its qualified name or None, composite?, root, support set)
    ('a', 'a', False, 'a', {'a'}),
    ('a.b', 'a.b', True, 'a', {'a'}),
    ('a.b.c', 'a.b.c', True, 'a', {'a'}),
    ("a['k']", "a['k']", True, 'a', {'a'}),
    ('a[0]', 'a[0]', True, 'a', {'a'}),
    ('a[i]', 'a[i]', True, 'a', {'a', 'i'}),
    ('a[i].b', 'a[i].b', True, 'a', {'a', 'i'}),
    ('f().x', None, None, None, None),
    ('a[1:2]', None, None, None, None),
    ('a[i + 1]', None, None, None, None),
    ('(a + b).c', None, None, None, None),
]


@pytest.mark.parametrize('source, text, composite, root, support', NAMES)
def test_from_node(source, text, composite, root, support):
    qn = qual_names.from_node(parser.parse_expression(source))
    if text is None:
        assert qn is None
        return
    assert str(qn) == text
    assert qn.is_composite is composite
    assert str(qn.root) == root
    assert {str(n) for n in qn.support_set()} == support


def test_qualified_names_are_values():
    assert QN('a') == QN('a') and hash(QN(QN('a'), attr='b')) == hash(QN(QN('a'), attr='b'))
    assert QN(QN('a'), attr='b') == QN('a.b')  # equal by their text
    assert sorted([QN('b'), QN('a')]) == [QN('a'), QN('b')]
    assert len({QN('x'), QN('x'), QN(QN('x'), subscript="'k'")}) == 2
    assert repr(QN(QN('x'), attr='y')) == "QN('x.y')"
