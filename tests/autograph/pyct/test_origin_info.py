"""pyct.origin_info: parsed nodes carry the user's file and line; generated files map back."""
from autograph.pyct import anno, origin_info, parser


def test_resolve_gives_each_node_its_user_line():
    source = 'def f(x):\n    y = x + 1\n    return y'
    tree = parser.parse(source)
    origin_info.resolve(tree, source.splitlines(), 'user.py', 10, 'outer')
    function = tree.body[0]
    assign, ret = function.body
    assert anno.getanno(assign, anno.Basic.ORIGIN) == origin_info.Origin(
        'user.py', 11, 4, 'f', '    y = x + 1')
    assert str(anno.getanno(ret, anno.Basic.ORIGIN)) == 'user.py:12'
    # the def statement itself runs in the enclosing function; its body runs in `f`
    assert anno.getanno(function, anno.Basic.ORIGIN).function_name == 'outer'
    assert anno.getanno(ret, anno.Basic.ORIGIN).as_frame() == (
        '  File "user.py", line 12, in f\n    return y')


def test_registered_source_maps_answer_which_user_line_runs():
    origin = origin_info.Origin('user.py', 7, 0, 'f', 'z = where()')
    generated = '<generated test_origin_info>'
    origin_info.register(generated, {2: origin})
    try:
        assert origin_info.lookup(generated, 2) == origin
        assert origin_info.lookup(generated, 3) is None
        namespace = {'where': origin_info.user_location}
        exec(compile('pass\nz = where()\n', generated, 'exec'), namespace)
        assert namespace['z'] == origin
        assert origin_info.user_location() is None  # no converted code is running here
    finally:
        origin_info.unregister(generated)
    assert origin_info.lookup(generated, 2) is None
