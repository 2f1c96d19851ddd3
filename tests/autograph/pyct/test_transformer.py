"""pyct.transformer: the converters' base class (visits, origins, skipped subtrees) and Namer."""
import gast
import pytest

from autograph.pyct import anno, parser, transformer, unparser
from autograph.pyct.origin_info import Origin


def function(source):
    return parser.parse(source).body[0]


class Renamer(transformer.Base):
    """x -> renamed_x, and `pass` statements dropped."""

    def visit_Name(self, node):
        if node.id == 'x':
            node.id = 'renamed_x'
        return node

    def visit_Pass(self, node):
        return None


class Doubler(transformer.Base):
    """Each expression statement becomes two; only statements are visited."""

    visits_expressions = False

    def visit_Expr(self, node):
        return [node, gast.Expr(value=gast.Constant(value=0, kind=None))]


def convert(converter, source):
    node = function(source)
    converter(transformer.Context(node, 'f')).visit(node)
    return unparser.unparse(node).strip()


CONVERSIONS = [
    (Renamer, 'def f(x):\n    pass\n    return x + 1',
     'def f(renamed_x):\n    return renamed_x + 1'),
    (Renamer, 'def f(y):\n    if y:\n        pass\n        x = y\n    return [x for x in y]',
     'def f(y):\n    if y:\n        renamed_x = y\n    return [renamed_x for renamed_x in y]'),
    (Doubler, 'def f():\n    g()\n    if a:\n        h()',
     'def f():\n    g()\n    0\n    if a:\n        h()\n        0'),
]


@pytest.mark.parametrize('converter, source, expected', CONVERSIONS)
def test_visits_rewrite_delete_and_splice(converter, source, expected):
    assert convert(converter, source) == expected


def test_a_block_is_changed_in_place_from_its_first_changed_statement():
    node = function('def f(y):\n    g(y)\n    h(y)\n    pass\n    k(x)\n    pass')
    body, kept = node.body, node.body[:2]
    Renamer(transformer.Context(node, 'f')).visit(node)
    assert node.body is body and node.body[:2] == kept
    assert unparser.unparse(node).strip() == 'def f(y):\n    g(y)\n    h(y)\n    k(renamed_x)'
    untouched = function('def f(y):\n    g(y)\n    return y')
    statements = list(untouched.body)
    Renamer(transformer.Context(untouched, 'f')).visit(untouched)
    assert untouched.body == statements


def test_a_skipped_subtree_is_left_alone():
    node = function('def f(x):\n    if x:\n        return x\n    return x')
    anno.setanno(node.body[0], anno.Basic.SKIP, True)
    Renamer(transformer.Context(node, 'f')).visit(node)
    assert unparser.unparse(node).strip() == (
        'def f(renamed_x):\n    if x:\n        return x\n    return renamed_x')


def test_generated_statements_inherit_the_origin_of_the_node_they_replace():
    node = function('def f():\n    g()\n    if a:\n        h()')
    origin = Origin('user.py', 2, 4, 'f', '    g()')
    anno.setanno(node.body[0], anno.Basic.ORIGIN, origin)
    Doubler(transformer.Context(node, 'f')).visit(node)
    assert [anno.getanno(s, anno.Basic.ORIGIN) for s in node.body[:2]] == [origin, origin]
    assert anno.getanno(node.body[2], anno.Basic.ORIGIN) is None  # the `if` had no origin


def test_visit_block_splices_lists_and_drops_none():
    node = function('def f():\n    pass\n    g()\n    pass')
    doubled = Doubler(transformer.Context(node, 'f')).visit_block(node.body)
    assert [type(s).__name__ for s in doubled] == ['Pass', 'Expr', 'Expr', 'Pass']
    assert Renamer(transformer.Context(node, 'f')).visit_block(node.body) == [node.body[1]]


VISITORS = [
    # (node class, what find_visitor gives for the Renamer)
    (gast.Name, Renamer.visit_Name),
    (gast.Pass, Renamer.visit_Pass),
    (gast.Constant, None),          # a generic visit would find nothing in it
    (gast.Load, None),              # no fields
    (gast.Add, None),
    (gast.BinOp, transformer.Base.generic_visit),
    (gast.If, transformer.Base.generic_visit),
]


@pytest.mark.parametrize('node_class, expected', VISITORS)
def test_find_visitor(node_class, expected):
    assert transformer.find_visitor(Renamer, node_class, transformer.Base.generic_visit) \
        is expected


def test_namer_gives_names_that_clash_with_nothing():
    namer = transformer.Namer(function('def f(x, retval_):\n    x_1 = 1\n    def inner(): pass'))
    assert [namer.new('x'), namer.new('x'), namer.new('retval_'), namer.new('inner'),
            namer.new('fresh'), namer.new('fresh')] == [
        'x_2', 'x_3', 'retval__1', 'inner_1', 'fresh', 'fresh_1']


class StoreCounter(transformer.Base):
    """Counts the `Store` contexts it visits: a visitor of a context class gets them."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.stores = 0

    def visit_Store(self, node):
        self.stores += 1
        return node


def test_contexts_and_operators_are_entered_only_by_a_visitor_of_their_classes():
    node = function('def f(y):\n    x = y + 1\n    x.a, z = (y, -y)\n    return x < y')
    counter = StoreCounter(transformer.Context(node, 'f'))
    counter.visit(node)
    # those of `x.a` and of the tuple (a Name is entered only for its annotation: find_visitor)
    assert counter.stores == 2
    assert transformer.entered_fields(Renamer, gast.Name, {}) == ('annotation',)
    assert transformer.entered_fields(Renamer, gast.BinOp, {}) == ('left', 'right')
    assert transformer.entered_fields(StoreCounter, gast.Name, {}) == gast.Name._fields


def test_whether_a_visitor_enters_contexts_is_decided_once_per_visitor_class(monkeypatch):
    class AddCounter(transformer.Base):
        def visit_Add(self, node):
            return node
    calls = []
    decide = transformer._has_leaf_visitor
    monkeypatch.setattr(transformer, '_has_leaf_visitor',
                        lambda cls: calls.append(cls) or decide(cls))
    for node_class in (gast.BinOp, gast.Name, gast.Compare, gast.Attribute):
        assert transformer.entered_fields(AddCounter, node_class, {}) == node_class._fields
    assert calls == [AddCounter]
