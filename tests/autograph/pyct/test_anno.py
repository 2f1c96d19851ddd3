"""pyct.anno: facts attached to nodes."""
import gast

from autograph.pyct import anno


def test_annotations_set_read_and_default():
    node = gast.Pass()
    assert not anno.hasanno(node, anno.Basic.SKIP)
    assert anno.getanno(node, anno.Basic.SKIP) is None
    assert anno.getanno(node, anno.Basic.SKIP, 'default') == 'default'
    anno.setanno(node, anno.Basic.SKIP, True)
    anno.setanno(node, 'converter fact', 3)
    assert anno.hasanno(node, anno.Basic.SKIP) and anno.getanno(node, 'converter fact') == 3
    anno.setanno(node, anno.Basic.SKIP, False)
    assert anno.getanno(node, anno.Basic.SKIP) is False
    assert anno.getanno(gast.Pass(), anno.Basic.SKIP) is None  # nodes do not share annotations


def test_keys_are_distinct_singletons():
    keys = list(anno.Basic) + list(anno.Static)
    assert len({hash(k) for k in keys}) == len(keys)
    assert anno.Static.LIVE_IN is anno.Static['LIVE_IN']
