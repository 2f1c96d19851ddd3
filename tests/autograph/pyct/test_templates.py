"""pyct.templates: template text in, filled code out (TF's templates_test.py, as a table)."""
import gast
import pytest

from autograph.pyct import anno, parser, templates, unparser


def code(nodes):
    return '\n'.join(unparser.unparse(n).strip() for n in nodes)


SUBSTITUTIONS = [
    # (template, substitutions, the code it makes)
    ('x = a + b', {'x': 'y', 'a': 'p'}, 'y = p + b'),
    ('x = a + b', {'a': parser.parse_expression('f(1)')}, 'x = f(1) + b'),
    ('x = a', {'a': 'self.value'}, 'x = self.value'),
    ('body\nreturn 1', {'body': parser.parse('a = 1\nb = 2').body}, 'a = 1\nb = 2\nreturn 1'),
    ('x = [items]', {'items': ['a', 'b']}, 'x = [a, b]'),
    ('f(args)', {'args': ('u', 'v')}, 'f(u, v)'),
    ('def fn_():\n    nonlocal names_\n    return 1', {'fn_': 'get_state', 'names_': ['a', 'b']},
     'def get_state():\n    nonlocal a, b\n    return 1'),
    ('a, b = c', {'a': 'x', 'b': 'y'}, 'x, y = c'),
]


@pytest.mark.parametrize('template, subs, expected', SUBSTITUTIONS)
def test_replace_fills_the_placeholders(template, subs, expected):
    assert code(templates.replace(template, **subs)) == expected


def test_a_name_keeps_the_context_of_its_placeholder():
    (assign,) = templates.replace('target = value', target='a', value='b')
    assert isinstance(assign.targets[0].ctx, gast.Store)
    assert isinstance(assign.value.ctx, gast.Load)
    (assign,) = templates.replace('target = 1', target=parser.parse_expression('(p, q)'))
    assert all(isinstance(e.ctx, gast.Store) for e in assign.targets[0].elts)


def test_template_nodes_are_marked_generated_and_given_nodes_keep_their_marks():
    user = parser.parse_expression('user_value')
    (assign,) = templates.replace('x = a', a=user)
    assert anno.getanno(assign, anno.Basic.GENERATED) is True
    assert anno.getanno(assign.targets[0], anno.Basic.GENERATED) is True
    assert assign.value is user and not anno.hasanno(user, anno.Basic.GENERATED)


def test_each_use_is_a_new_tree_and_a_node_placed_twice_is_copied():
    first = templates.replace('x = 1')
    second = templates.replace('x = 1')
    assert first[0] is not second[0]
    node = parser.parse_expression('g(z)')
    (assign,) = templates.replace('x = (a, a)', a=node)
    one, two = assign.value.elts
    assert one is node and two is not node and unparser.unparse(two).strip() == 'g(z)'


def test_replace_as_expression_returns_the_expression():
    node = templates.replace_as_expression('ag__.ld(name)', name='x')
    assert isinstance(node, gast.Call) and unparser.unparse(node).strip() == 'ag__.ld(x)'


@pytest.mark.parametrize('template', ['x = 1', 'a\nb', 'return a'])
def test_replace_as_expression_refuses_a_template_that_is_not_one_expression(template):
    with pytest.raises(ValueError, match='replace_as_expression needs a template of one '
                                         'expression'):
        templates.replace_as_expression(template, a='y')


def test_a_substitution_that_is_no_name_or_node_is_a_type_error():
    with pytest.raises(TypeError, match='cannot substitute 3'):
        templates.replace('x = a', a=3)


def test_copy_tree_copies_nodes_and_shares_annotation_values():
    node = parser.parse_expression('f(a)')
    origin = object()
    anno.setanno(node, anno.Basic.ORIGIN, origin)
    copy = templates.copy_tree(node)
    assert copy is not node and copy.args[0] is not node.args[0]
    assert anno.getanno(copy, anno.Basic.ORIGIN) is origin
    anno.setanno(copy, anno.Basic.SKIP, True)
    assert not anno.hasanno(node, anno.Basic.SKIP)


def test_contexts_and_operators_are_shared_statements_and_names_copied():
    template = 'while a < b:\n    x = a + b\n    pass\n'
    first, second = templates.replace(template)[0], templates.replace(template)[0]
    assert first is not second and first.body[1] is not second.body[1]       # `pass` copied
    assert first.test.left is not second.test.left                           # names copied
    assert first.test.left.ctx is second.test.left.ctx                       # Load() shared
    assert first.test.ops[0] is second.test.ops[0] and \
        first.body[0].value.op is second.body[0].value.op                    # operators too
    anno.setanno(first.body[1], anno.Basic.ORIGIN, 'mine')
    assert anno.getanno(second.body[1], anno.Basic.ORIGIN) is None
    assert unparser.unparse(second) == 'while a < b:\n    x = a + b\n    pass'
