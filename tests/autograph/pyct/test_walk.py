"""pyct.walk lists what gast's generators yield, in the same order."""
import textwrap

import gast

from autograph.pyct import anno, parser, templates, walk

SOURCE = textwrap.dedent('''
    def f(a, *b, c=1, **d):
        if a > 0 and not c:
            x = [i for i in b if i]
        else:
            x = {k: v for k, v in d.items()}
        while x:
            x = x[1:]
        return lambda q: (q, x, f(a)[0].y)
''')


def test_nodes_and_children_are_gasts_walk_and_child_nodes():
    tree = parser.parse(SOURCE)
    assert [id(n) for n in walk.nodes(tree)] == [id(n) for n in gast.walk(tree)]
    for node in gast.walk(tree):   # less contexts and operators, which hold nothing
        assert [id(c) for c in walk.children(node)] == [
            id(c) for c in gast.iter_child_nodes(node)
            if not isinstance(c, (gast.expr_context, gast.operator, gast.boolop, gast.unaryop,
                                  gast.cmpop))]
    assert len(walk.nodes(tree)) > 60
    # statements without fields are children
    loop = parser.parse('while x:\n    pass\n    break\n').body[0]
    assert [type(c) for c in walk.children(loop)] == [gast.Name, gast.Pass, gast.Break]


def test_annotations_are_not_walked():
    tree = parser.parse(SOURCE)
    hidden = parser.parse_expression('hidden_name')
    anno.setanno(tree.body[0], anno.Basic.EXTRA_LOOP_TEST, [hidden])
    assert not any(n is hidden for n in walk.nodes(tree))


def test_copy_tree_edits_the_annotations_of_every_copied_node():
    tree = parser.parse(SOURCE).body[0]
    anno.setanno(tree.body[0], 'kept', 1)

    def edit(annotations):
        annotations['copied'] = True
    copy = templates.copy_tree(tree, edit)
    copied = walk.nodes(copy)
    assert all(anno.getanno(n, 'copied') for n in copied)
    assert not any(anno.hasanno(n, 'copied') for n in walk.nodes(tree))
    assert anno.getanno(copy.body[0], 'kept') == 1
    assert not {id(n) for n in copied} & {id(n) for n in walk.nodes(tree)}
