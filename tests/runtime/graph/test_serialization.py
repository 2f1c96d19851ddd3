"""Graphs as data: TensorFlow's protobuf wire and text formats, GraphDef import.

The fixtures under fixtures/ were written by TensorFlow 2 (see docs/saving.md for the commands):
tf_dense.pb, tf_relu_cond.pb and tf_while.pb are `get_concrete_function().graph.as_graph_def()`
of small tf.functions; tf_v1_saved_model/ is a SavedModel written by TensorFlow's builder;
tf2_saved_model/ one written by TensorFlow 2's tf.saved_model.save (its variables a TensorBundle).
"""
import os

import numpy as np
import pytest

import runtime as rt
from runtime.graph import serialization
from runtime.graph.importer import import_graph_def
from runtime.graph.serialization import tensor_bundle, text_format, wire

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), 'fixtures')


def fixture_bytes(name):
    with open(os.path.join(FIXTURES, name), 'rb') as f:
        return f.read()


def relu_graph():
    g = rt.Graph()
    with g.as_default():
        x = rt.placeholder(rt.int32, [], name='x')
        y = rt.cond(rt.greater(x, 0), lambda: rt.identity(x), lambda: rt.constant(0))
        rt.identity(y, name='result')
    return g


# ---- the wire format -----------------------------------------------------------------------

def test_wire_format_matches_protobufs_documented_encoding():
    # protobuf's documentation: field 1 = 150 is 08 96 01; strings are length-delimited.
    assert wire.encode('VersionDef', {'producer': 150}) == b'\x08\x96\x01'
    assert wire.encode('NodeDef', {'name': 'testing'}) == b'\x0a\x07testing'
    # negative int64s take ten bytes; repeated numbers are packed
    assert wire.encode('Dim', {'size': -1}) == b'\x08' + b'\xff' * 9 + b'\x01'
    assert wire.encode('TensorProto', {'int_val': [3, 270]}) == b'\x3a\x03\x03\x8e\x02'
    assert wire.decode('TensorProto', b'\x3a\x03\x03\x8e\x02') == {'int_val': [3, 270]}
    # unpacked repeated numbers decode too, and proto3 defaults are left out
    assert wire.decode('TensorProto', b'\x38\x03\x38\x04') == {'int_val': [3, 4]}
    assert wire.encode('VersionDef', {'producer': 0}) == b''
    # a oneof member is written even when it holds the default value
    assert wire.encode('AttrValue', {'b': False}) == b'\x28\x00'


def test_decoding_skips_unknown_fields_and_rejects_garbage():
    # field 15 (unknown to VersionDef) is skipped, as protobuf does
    assert wire.decode('VersionDef', b'\x78\x05\x08\x02') == {'producer': 2}
    with pytest.raises(wire.DecodeError, match='truncated|not a valid'):
        wire.decode('NodeDef', b'\x0a\x07test')
    with pytest.raises(ValueError):
        wire.decode('GraphDef', b'\xff\xff\xff')


def test_tensorflows_graphdef_bytes_decode_and_reencode_to_the_same_message():
    for name in ('tf_dense.pb', 'tf_relu_cond.pb', 'tf_while.pb'):
        data = fixture_bytes(name)
        message = wire.decode('GraphDef', data)
        again = wire.encode('GraphDef', message)
        assert len(again) == len(data)
        assert wire.decode('GraphDef', again) == message
    dense = wire.decode('GraphDef', fixture_bytes('tf_dense.pb'))
    ops = [(n['name'], n['op']) for n in dense['node']]
    assert ('MatMul', 'MatMul') in ops and ('add', 'AddV2') in ops
    placeholder = dense['node'][0]
    assert placeholder['attr']['shape']['shape']['dim'] == [{'size': -1}, {'size': 2}]
    assert placeholder['attr']['dtype'] == {'type': 1}


# ---- text format ---------------------------------------------------------------------------

def test_the_printed_graphdef_parses_back_to_the_binary_message():
    g = relu_graph()
    text = str(g.as_graph_def())
    message = text_format.parse('GraphDef', text)
    assert [n['op'] for n in message['node']][:3] == ['Placeholder', 'Const', 'Greater']
    functions = message['library']['function']
    assert {f['signature']['name'] for f in functions} == {
        g.get_operation_by_name('cond').get_attr('then_branch').name,
        g.get_operation_by_name('cond').get_attr('else_branch').name}
    assert wire.decode('GraphDef', serialization.serialize_graph(g)) == message


def test_text_format_reads_escapes_lists_and_angle_brackets():
    message = text_format.parse('NodeDef', r'''
        name: "a\"b\n\001" op: 'Const'  # a comment
        attr < key: "list" value { list { i: [1, -2, 3] type: DT_FLOAT type: DT_INT32 } } >
        attr { key: "f" value { f: -1.5e3 } }
    ''')
    assert message['name'] == 'a"b\n\x01'
    assert message['attr']['list'] == {'list': {'i': [1, -2, 3], 'type': [1, 3]}}
    assert message['attr']['f'] == {'f': -1500.0}


def test_text_format_errors_name_the_line():
    with pytest.raises(ValueError, match='line 2: NodeDef has no field \'nmae\''):
        text_format.parse('NodeDef', 'name: "x"\nnmae: "y"')
    with pytest.raises(ValueError, match='ends too early'):
        text_format.parse('NodeDef', 'attr { key: "x" value {')


# ---- import ----------------------------------------------------------------------------------

def test_an_exported_graph_imports_and_runs_the_same():
    g = relu_graph()
    imported = import_graph_def(
        serialization.parse_graph_def(serialization.serialize_graph(g)))
    assert str(imported.as_graph_def()) == str(g.as_graph_def())
    assert imported.run('result:0', {'x:0': 7}) == 7
    assert imported.run('result:0', {'x:0': -7}) == 0
    # the text form imports too
    from_text = import_graph_def(serialization.parse_graph_def(
        str(g.as_graph_def())))
    assert from_text.run('result:0', {'x:0': 3}) == 3


def test_a_tensorflow_dense_layer_graph_runs_here():
    g = import_graph_def(serialization.parse_graph_def(
        fixture_bytes('tf_dense.pb')))
    out = g.run('Identity:0', {'x:0': np.array([[1., -2.], [3., 4.]], np.float32),
                               'w:0': np.array([[1., 2., 3.], [4., 5., 6.]], np.float32),
                               'b:0': np.float32(0.5)})
    # TensorFlow computed these values
    np.testing.assert_array_equal(out, [[0., 0., 0.], [19.5, 26.5, 33.5]])


def test_tensorflows_if_and_while_graphs_run_here():
    cond = import_graph_def(serialization.parse_graph_def(
        fixture_bytes('tf_relu_cond.pb')))
    assert cond.get_operation_by_name('cond').type == 'StatelessIf'
    assert [cond.run('Identity:0', {'x:0': v}) for v in (5, -5)] == [5, 0]
    loop = import_graph_def(serialization.parse_graph_def(
        fixture_bytes('tf_while.pb')))
    assert loop.run('Identity:0', {'n:0': 5}) == 30  # sum of i*i for i < 5, as TensorFlow says


def test_an_unknown_op_type_is_an_error_naming_it():
    message = text_format.parse('GraphDef', '''
        node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
               attr { key: "shape" value { shape { unknown_rank: true } } } }
        node { name: "bucket" op: "Bucketize" input: "x" }
    ''')
    with pytest.raises(ValueError, match="Node 'bucket' has op type 'Bucketize', which the "
                                         "runtime does not have"):
        import_graph_def(message)


def test_missing_inputs_attrs_and_functions_are_clear_errors():
    no_shape = text_format.parse('GraphDef', 'node { name: "x" op: "Placeholder" '
                                             'attr { key: "dtype" value { type: DT_FLOAT } } }')
    with pytest.raises(ValueError, match="Node 'x' \\(Placeholder\\) lacks the attr 'shape'"):
        import_graph_def(no_shape)
    missing_input = text_format.parse('GraphDef', 'node { name: "y" op: "Identity" input: "x" }')
    with pytest.raises(ValueError, match="no node named 'x'"):
        import_graph_def(missing_input)
    g = relu_graph()
    message = serialization.graph_def_message(g)
    del message['library']
    with pytest.raises(ValueError, match='which its library does not define'):
        import_graph_def(message)


def test_a_set_attr_the_runtime_cannot_honour_is_refused():
    message = wire.decode('GraphDef', fixture_bytes('tf_dense.pb'))
    matmul = next(n for n in message['node'] if n['op'] == 'MatMul')
    matmul['attr']['grad_a'] = {'b': True}
    with pytest.raises(ValueError, match="attr grad_a=True"):
        import_graph_def(message)


def test_tensor_values_round_trip_in_tensor_content():
    from runtime.graph.serialization import graph_io
    for value, dtype in [(np.arange(6, dtype=np.float32).reshape(2, 3), rt.float32),
                         (np.array([True, False]), rt.bool), (np.int64(-5), rt.int64),
                         (np.array([b'a', b'bc'], dtype=object), rt.string),
                         (np.array([1.5, -2.0], np.float16), rt.float16)]:
        proto = wire.decode('TensorProto', wire.encode('TensorProto',
                                                       graph_io.tensor_to_proto(value, dtype)))
        back = graph_io.tensor_from_proto(proto)
        assert np.asarray(back).dtype == np.asarray(value).dtype
        np.testing.assert_array_equal(back, value)
    # a splat value (one value for a whole shape), as TensorFlow writes constants
    splat = {'dtype': 1, 'tensor_shape': {'dim': [{'size': 3}]}, 'float_val': [2.5]}
    np.testing.assert_array_equal(graph_io.tensor_from_proto(splat), [2.5, 2.5, 2.5])


# ---- TensorBundle checkpoints -----------------------------------------------------------------

def test_crc32c_is_the_castagnoli_checksum():
    assert tensor_bundle.crc32c(b'123456789') == 0xE3069283  # the standard check value
    assert tensor_bundle.crc32c(b'') == 0


def test_a_checkpoint_tensorflow_wrote_reads_by_its_object_paths():
    values = serialization.read_bundle(os.path.join(FIXTURES, 'tf2_saved_model', 'variables',
                                                    'variables'))
    np.testing.assert_array_equal(values['w/.ATTRIBUTES/VARIABLE_VALUE'], [[1., 2.], [3., 4.]])
    assert values['w/.ATTRIBUTES/VARIABLE_VALUE'].dtype == np.float32
    assert values['steps/.ATTRIBUTES/VARIABLE_VALUE'].dtype == np.int32
    assert values['scale/factor/.ATTRIBUTES/VARIABLE_VALUE'] == 2.0
    graph = wire.decode('TrackableObjectGraph', values['_CHECKPOINTABLE_OBJECT_GRAPH'][()])
    root = graph['nodes'][0]
    assert {c['local_name'] for c in root['children']} >= {'w', 'b', 'steps', 'scale'}


def test_a_written_checkpoint_reads_back_with_its_checksums(tmp_path):
    prefix = str(tmp_path / 'ckpt' / 'variables')
    tensors = {'a/.ATTRIBUTES/VARIABLE_VALUE': (np.arange(6, dtype=np.float64).reshape(2, 3),
                                                rt.float64),
               'b': (np.int64(-7), rt.int64),
               'names': (np.array([b'x', b'', b'longer name'], dtype=object), rt.string)}
    serialization.write_bundle(prefix, tensors)
    values = serialization.read_bundle(prefix)
    assert sorted(values) == sorted(tensors)
    np.testing.assert_array_equal(values['a/.ATTRIBUTES/VARIABLE_VALUE'], tensors[
        'a/.ATTRIBUTES/VARIABLE_VALUE'][0])
    assert values['b'] == -7 and values['b'].dtype == np.int64
    assert list(values['names']) == [b'x', b'', b'longer name']
    with open(prefix + '.index', 'rb') as f:
        index = bytearray(f.read())
    index[3] ^= 0x01  # inside the data block: its checksum no longer matches
    with open(prefix + '.index', 'wb') as f:
        f.write(bytes(index))
    with pytest.raises(ValueError, match='variables.index: the block at 0 fails its checksum'):
        serialization.read_bundle(prefix)


def test_call_ops_are_inlined_on_import():
    message = text_format.parse('GraphDef', '''
        node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
               attr { key: "shape" value { shape { } } } }
        node { name: "call" op: "PartitionedCall" input: "x"
               attr { key: "f" value { func { name: "twice_plus_one" } } } }
        node { name: "after" op: "Identity" input: "call:1" input: "^call"
               attr { key: "T" value { type: DT_FLOAT } } }
        library {
          function {
            signature { name: "twice_plus_one" input_arg { name: "a" type: DT_FLOAT }
                        output_arg { name: "double" type: DT_FLOAT }
                        output_arg { name: "plus" type: DT_FLOAT } }
            node_def { name: "two" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
                       attr { key: "value" value { tensor { dtype: DT_FLOAT
                                                            tensor_shape { } float_val: 2 } } } }
            node_def { name: "mul" op: "Mul" input: "a" input: "two:output:0"
                       attr { key: "T" value { type: DT_FLOAT } } }
            node_def { name: "inner" op: "StatefulPartitionedCall" input: "mul:z:0"
                       attr { key: "f" value { func { name: "plus_one" } } } }
            ret { key: "double" value: "mul:z:0" }
            ret { key: "plus" value: "inner:output:0" }
          }
          function {
            signature { name: "plus_one" input_arg { name: "b" type: DT_FLOAT }
                        output_arg { name: "y" type: DT_FLOAT } }
            node_def { name: "one" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
                       attr { key: "value" value { tensor { dtype: DT_FLOAT
                                                            tensor_shape { } float_val: 1 } } } }
            node_def { name: "add" op: "AddV2" input: "b" input: "one:output:0"
                       attr { key: "T" value { type: DT_FLOAT } } }
            ret { key: "y" value: "add:z:0" }
          }
        }
    ''')
    graph, (double, plus) = import_graph_def(message,
                                                           return_elements=['call:0', 'call:1'])
    names = {op.name for op in graph.get_operations()}
    assert {'call/mul', 'call/inner/add'} <= names and 'call' not in names
    assert graph.run([double, plus, 'after:0'], {'x:0': 3.0}) == [6.0, 7.0, 7.0]
    message['library']['function'][1]['node_def'].append(
        {'name': 'again', 'op': 'PartitionedCall', 'input': ['b'],
         'attr': {'f': {'func': {'name': 'plus_one'}}}})
    with pytest.raises(ValueError, match="function 'plus_one' calls itself"):
        import_graph_def(message)
