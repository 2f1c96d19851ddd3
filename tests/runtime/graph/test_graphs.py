"""Graphs: naming, lookup, control inputs and GraphDef text."""
import re

import pytest

import runtime as rt


def test_ops_are_named_after_their_type_with_suffixes_for_repeats(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    a = rt.greater(x, 0)
    b = rt.greater(x, 1)
    c = rt.greater(x, 2)
    assert [a.op.name, b.op.name, c.op.name] == ['Greater', 'Greater_1', 'Greater_2']
    assert a.name == 'Greater:0'


def test_a_python_operand_becomes_a_Const_named_after_the_op_and_input(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    y = rt.greater(x, 0)
    const = y.op.inputs[1].op
    assert const.name == 'Greater/y' and const.type == 'Const'
    assert const.get_attr('value') == 0
    assert const.get_attr('dtype') is rt.int32
    assert [t.name for t in y.op.inputs] == ['x:0', 'Greater/y:0']
    assert rt.add(x, 1).op.inputs[1].op.name == 'AddV2/y'


def test_python_operators_name_their_ops_as_tensorflow_does(graph):
    # rt.add(x, y) is a node named after its type; `x + y` one named after the operator.
    x = rt.placeholder(rt.float32, [2, 2], name='x')
    ops = [x + 1., 1. + x, x - x, x * 2., x / 2., x // 2., x % 2., x ** 2., x @ x, -x, x > 0.]
    assert [(t.op.name, t.op.type) for t in ops] == [
        ('add', 'AddV2'), ('add_1', 'AddV2'), ('sub', 'Sub'), ('mul', 'Mul'),
        ('truediv', 'RealDiv'), ('floordiv', 'FloorDiv'), ('mod', 'FloorMod'), ('pow', 'Pow'),
        ('matmul', 'MatMul'), ('Neg', 'Neg'), ('Greater', 'Greater')]
    assert [t.name for t in ops[0].op.inputs] == ['x:0', 'add/y:0']
    assert rt.add(x, 1.).op.name == 'AddV2'


def test_explicit_names_and_name_scopes(graph):
    x = rt.placeholder(rt.float32, [None], name='x')
    assert rt.identity(x, name='out').name == 'out:0'
    assert rt.identity(x, name='out').name == 'out_1:0'
    with graph.name_scope('layer') as scope:
        assert scope == 'layer'
        a = x * 2.
        b = x * 3.
    with graph.name_scope('layer') as scope2:
        c = x + 1.
    assert scope2 == 'layer_1'
    assert [a.op.name, b.op.name, c.op.name] == ['layer/mul', 'layer/mul_1', 'layer_1/add']
    assert a.op.inputs[1].op.name == 'layer/mul/y'


def test_constants_and_placeholders(graph):
    c = rt.constant([1, 2], name='c')
    assert c.op.type == 'Const' and c.name == 'c:0'
    p = rt.placeholder(rt.float32)
    assert p.op.type == 'Placeholder' and p.shape.rank is None
    assert p.op.get_attr('dtype') is rt.float32


def test_lookups(graph):
    x = rt.placeholder(rt.int32, [], name='x')
    y = rt.greater(x, 0)
    assert [op.name for op in graph.get_operations()] == ['x', 'Greater/y', 'Greater']
    assert graph.get_operation_by_name('Greater') is y.op
    assert graph.get_tensor_by_name('Greater:0') is y
    assert graph.get_tensor_by_name('x:0') is x
    with pytest.raises(KeyError):
        graph.get_operation_by_name('Nope')
    with pytest.raises(ValueError):
        graph.get_tensor_by_name('Greater')


def test_operation_properties(graph):
    x = rt.placeholder(rt.float32, [2], name='x')
    y = x + 1.
    op = y.op
    assert op.name == 'add' and op.type == 'AddV2'
    assert op.inputs[0] is x and op.outputs == [y]
    assert op.control_inputs == []
    assert op.get_attr('T') is rt.float32
    with pytest.raises(ValueError, match='T'):
        op.get_attr('nope')


def test_control_inputs(graph):
    x = rt.placeholder(rt.float32, [], name='x')
    printed = rt.print('first', x)
    with graph.control_dependencies([printed]):
        y = rt.identity(x, name='y')
    assert y.op.control_inputs == [printed]
    node = [n for n in graph.as_graph_def().node if n.name == 'y'][0]
    assert node.input == ['x', f'^{printed.name}']


def test_a_graph_is_used_only_inside_as_default():
    g = rt.Graph()
    with g.as_default() as entered:
        assert entered is g
        assert rt.get_default_graph() is g
        t = rt.constant(1)
    assert isinstance(t.op, rt.Operation)
    assert rt.get_default_graph() is None
    assert not hasattr(rt.constant(1), 'op')  # eager again


def test_a_tensor_of_another_graph_cannot_be_used():
    g1 = rt.Graph()
    with g1.as_default():
        x = rt.placeholder(rt.float32, [])
    with rt.Graph().as_default():
        with pytest.raises(ValueError, match='another graph'):
            rt.identity(x) + 1.


def test_an_eager_tensor_used_in_a_graph_becomes_a_Const(graph):
    outer = rt.constant([1., 2.])
    y = outer * 2.
    assert y.op.inputs[0].op.type == 'Const'
    assert graph.run(y).tolist() == [2., 4.]


# ---- GraphDef ----------------------------------------------------------------------------------

def _done_when_graph():
    """The issue's "Done when" graph: a placeholder, Greater against 0, and rt.cond."""
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, shape=[], name='x')
        out = rt.cond(rt.greater(x, 0), lambda: x, lambda: rt.constant(0))
    return g, x, out


def test_graph_def_objects():
    g, x, out = _done_when_graph()
    gd = g.as_graph_def()
    nodes = {n.name: n for n in gd.node}
    assert nodes['x'].op == 'Placeholder'
    assert nodes['Greater/y'].op == 'Const'
    assert nodes['Greater'].input == ['x', 'Greater/y']
    cond = [n for n in gd.node if n.op == 'StatelessIf']
    assert len(cond) == 1 and cond[0].name == 'cond'
    assert cond[0].input == ['Greater', 'x']
    assert cond[0].attr['Tcond'].value is rt.bool
    then_name = cond[0].attr['then_branch'].value.name
    else_name = cond[0].attr['else_branch'].value.name
    assert re.fullmatch(r'cond_true_\d+', then_name)
    assert re.fullmatch(r'cond_false_\d+', else_name)
    functions = {f.signature.name: f for f in gd.library.function}
    assert set(functions) == {then_name, else_name}
    assert g.run(out, {x: 3}) == 3 and g.run(out, {x: -3}) == 0


def test_graph_def_text_format():
    g, x, out = _done_when_graph()
    text = str(g.as_graph_def())
    assert text.startswith('node {\n  name: "x"\n  op: "Placeholder"\n')
    assert 'name: "Greater/y"\n  op: "Const"' in text
    assert 'int_val: 0' in text
    assert 'op: "StatelessIf"' in text
    assert 'key: "then_branch"\n    value {\n      func {\n        name: "cond_true_' in text
    assert 'key: "Tcond"\n    value {\n      type: DT_BOOL' in text
    assert 'key: "Tin"' in text and 'key: "Tout"' in text and 'key: "output_shapes"' in text
    library = text[text.index('\nlibrary {'):]
    assert library.count('\n  function {') == 2
    assert 'signature {' in library and 'node_def {' in library and 'ret {' in library
    # Inside a function, inputs are node:out_arg:index.
    assert 'input: "cond/Const:output:0"' in library
    assert re.search(r'value: "cond/Identity:output:0"', library)
    assert text.count('{') == text.count('}')


def test_graph_def_text_nests_and_quotes_like_protobuf():
    g = rt.Graph()
    with g.as_default():
        rt.constant([1.5, 2.5], name='floats')
        rt.constant(['a\nb', 'say "hi"'], name='s')
    text = str(g.as_graph_def())
    assert 'string_val: "say \\"hi\\""' in text
    assert 'string_val: "a\\nb"' in text
    assert 'float_val: 1.5\n        float_val: 2.5' in text
    assert 'dim {\n            size: 2\n          }' in text


def test_a_scalar_string_const_prints_as_a_tensor():
    g = rt.Graph()
    with g.as_default():
        rt.constant('hi', name='s')
    text = str(g.as_graph_def())
    assert 'tensor {\n        dtype: DT_STRING' in text
    assert 'string_val: "hi"' in text


def test_node_attrs_in_text_include_types_and_shapes(graph):
    x = rt.placeholder(rt.float32, shape=[None, 3], name='x')
    rt.reduce_sum(x, axis=1)
    text = str(graph.as_graph_def())
    assert 'type: DT_FLOAT' in text
    assert 'dim {\n          size: -1\n        }\n        dim {\n          size: 3' in text
    assert 'key: "Tidx"' in text and 'key: "keep_dims"' in text


def _parse_text_format(text):
    """Parse protobuf text format into nested lists: a tiny reader that checks the grammar."""
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|[{}:]|[^\s{}:"]+', text)
    pos = 0

    def message(end):
        nonlocal pos
        fields = []
        while pos < len(tokens) and tokens[pos] != end:
            name = tokens[pos]
            assert re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', name), name
            pos += 1
            if tokens[pos] == ':':
                pos += 1
                value = tokens[pos]
                assert value not in '{}', value
                pos += 1
                fields.append((name, value))
            else:
                assert tokens[pos] == '{', tokens[pos]
                pos += 1
                fields.append((name, message('}')))
                pos += 1
        return fields

    top = message(None)
    assert pos == len(tokens)
    return top


def test_graph_def_text_is_well_formed():
    g, _, _ = _done_when_graph()
    parsed = _parse_text_format(str(g.as_graph_def()))
    names = [f[0] for f in parsed]
    assert names.count('node') == len(g.get_operations())
    assert 'library' in names and 'versions' in names


def test_graph_def_text_parses_as_a_tensorflow_GraphDef_when_protobuf_is_available():
    pytest.importorskip('google.protobuf')
    graph_pb2 = pytest.importorskip('tensorflow.core.framework.graph_pb2')
    from google.protobuf import text_format
    g, _, _ = _done_when_graph()
    parsed = text_format.Parse(str(g.as_graph_def()), graph_pb2.GraphDef())
    assert [n.op for n in parsed.node].count('StatelessIf') == 1
