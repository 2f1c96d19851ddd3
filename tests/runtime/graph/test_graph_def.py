"""The one GraphDef message model (runtime/graph/serialization/graph_io.py): graphs print,
encode and import through the same dicts, and read by attribute as TensorFlow's messages do."""
import ast
import os

import numpy as np

import runtime as rt
from runtime.graph.graph_def import const_node_def, node_def
from runtime.graph.importer import import_graph_def
from runtime.graph.serialization import graph_io, text_format, wire
from runtime.graph.serialization.graph_io import AttrValue, FunctionRef, Message

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def relu_graph():
    """A cond and a while loop: nodes, attrs of every kind, and a library of functions."""
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        y = rt.cond(rt.greater(x, 0), lambda: rt.identity(x), lambda: rt.constant(0))
        rt.while_loop(lambda i: i < 10, lambda i: i + y, [x], name='loop')
    return g


def test_the_text_a_graph_prints_parses_back_into_the_same_message():
    gd = relu_graph().as_graph_def()
    assert isinstance(gd, Message) and isinstance(gd, dict)
    parsed = text_format.parse('GraphDef', str(gd))
    assert parsed == gd
    assert wire.decode('GraphDef', wire.encode('GraphDef', gd)) == parsed
    assert text_format.format('GraphDef', parsed) == str(gd)


def test_messages_read_their_fields_as_attributes_with_protobuf_defaults():
    gd = relu_graph().as_graph_def()
    cond = next(n for n in gd.node if n.op == 'StatelessIf')
    assert cond.input == ['Greater', 'x']
    assert cond.attr['Tcond'].type == rt.bool.enum
    assert cond.attr['Tcond'].value is rt.bool
    assert cond.attr['then_branch'].func.name == cond.attr['then_branch'].value.name
    assert cond.device == ''  # unset: the default
    function = next(f for f in gd.library.function if f.signature.name.startswith('cond_true'))
    assert function.signature.input_arg[0].name == 'x'
    assert function.signature.input_arg[0].type == rt.int32.enum
    assert list(function.ret) == [function.signature.output_arg[0].name]
    assert function.ret[function.signature.output_arg[0].name].endswith(':output:0')
    loop = next(n for n in gd.node if n.op == 'StatelessWhile')
    assert loop.attr['T'].value == [rt.int32, rt.int32]  # i and the captured y
    assert loop.attr['body'].value.name in {f.signature.name for f in gd.library.function}
    assert gd.versions.producer == 1
    assert Message('NodeDef').input == [] and Message('GraphDef').library.function == []


def test_edits_through_attributes_stay_in_the_message():
    gd = relu_graph().as_graph_def()
    gd.node[0].attr['dtype']['type'] = rt.float32.enum
    assert 'type: DT_FLOAT' in str(gd).split('node {')[1]
    try:
        gd.no_such_field
    except AttributeError as e:
        assert 'GraphDef has no field' in str(e)
    else:
        raise AssertionError('an unknown field must raise AttributeError')


def test_node_def_builds_the_nodes_saved_models_and_graphs_share():
    node = node_def('v', 'VarHandleOp', attrs={'dtype': rt.float32, 'shape': rt.TensorShape([2]),
                                               'shared_name': 'w', 'container': '', 'x': None})
    assert node == {'name': 'v', 'op': 'VarHandleOp', 'attr': {
        'dtype': {'type': rt.float32.enum}, 'shape': {'shape': {'dim': [{'size': 2}]}},
        'shared_name': {'s': b'w'}, 'container': {'s': b''}}}
    call = node_def('call', 'StatefulPartitionedCall', ['a', '^b'], {'f': FunctionRef('g')})
    assert call.attr['f'].value == FunctionRef('g') and call.input == ['a', '^b']
    const = const_node_def('c', np.array([1.5, 2.5], np.float32), rt.float32)
    assert const.attr['value'].tensor['tensor_content'] == np.float32([1.5, 2.5]).tobytes()
    np.testing.assert_array_equal(const.attr['value'].value, [1.5, 2.5])
    graph = import_graph_def({'node': [const]})
    np.testing.assert_array_equal(graph.run('c:0'), [1.5, 2.5])


def test_attr_values_print_as_tensorflow_writes_them():
    assert str(graph_io.attr_value([rt.TensorShape([None, 3])])) == (
        'list {\n  shape {\n    dim {\n      size: -1\n    }\n    dim {\n      size: 3\n    }\n'
        '  }\n}\n')
    assert str(graph_io.attr_value(np.float32(2.0), rt.float32)) == (
        'tensor {\n  dtype: DT_FLOAT\n  tensor_shape {\n  }\n  float_val: 2\n}\n')
    assert str(AttrValue({'s': b'a\n\xff'})) == 's: "a\\n\\377"\n'
    assert graph_io.attr_value(['a', None]).value == ['a', None]


def test_the_serialization_package_imports_no_graph():
    # graph.py imports graph_def.py, which imports the model: the package must stay below graphs
    folder = os.path.join(ROOT, 'runtime', 'graph', 'serialization')
    imported = set()
    for name in os.listdir(folder):
        if name.endswith('.py'):
            with open(os.path.join(folder, name), encoding='utf-8') as f:
                tree = ast.parse(f.read())
            imported |= {node.module for node in ast.walk(tree)
                         if isinstance(node, ast.ImportFrom) and node.module}
    assert 'runtime.graph.serialization.wire' in imported
    assert {m for m in imported if m.startswith(('runtime.graph.', 'runtime.ops.')) and
            not m.startswith('runtime.graph.serialization')} == set()
