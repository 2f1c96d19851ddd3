"""runtime/ops/string_split.py: `rt.strings.split`, `bytes_split`, `unicode_split`,
`unicode_decode(_with_offsets)`, `unicode_encode` and `rt.io.decode_raw`, eagerly and in graphs,
with TensorFlow's op types and values (as TensorFlow 2.21 gives them); splitting a tensor of
strings (a RaggedTensor in TensorFlow) is refused."""
import numpy as np
import pytest
from runtime_helpers import check_op_row, run_in_graph

import autograph as ag
import runtime as rt
from runtime.ops.registry import NO_GRADIENT, REGISTRY

DUCK = 'アヒル 🦆'.encode()
ROWS = [
    ('split on sep', lambda s: rt.strings.split(s, sep=' '), b'a  b c',
     [b'a', b'', b'b', b'c'], 'StringSplitV2'),
    ('split on whitespace', lambda s: rt.strings.split(s), b'  a  b c  ', [b'a', b'b', b'c'],
     'StringSplitV2'),
    ('split maxsplit', lambda s: rt.strings.split(s, sep=',', maxsplit=1), b'a,b,,c',
     [b'a', b'b,,c'], 'StringSplitV2'),
    ('split a multi-byte sep', lambda s: rt.strings.split(s, sep='<>'), b'a<>b<>c',
     [b'a', b'b', b'c'], 'StringSplitV2'),
    ('split empty', lambda s: rt.strings.split(s), b'', np.array([], object), 'StringSplitV2'),
    ('split empty on sep', lambda s: rt.strings.split(s, sep=','), b'', [b''], 'StringSplitV2'),
    ('bytes_split', rt.strings.bytes_split, 'héllo'.encode(),
     [b'h', b'\xc3', b'\xa9', b'l', b'l', b'o'], 'StringSplit'),
    ('unicode_split', lambda s: rt.strings.unicode_split(s, 'UTF-8'), DUCK,
     [b'\xe3\x82\xa2', b'\xe3\x83\x92', b'\xe3\x83\xab', b' ', b'\xf0\x9f\xa6\x86'],
     'UnicodeEncode'),
    ('unicode_split replaces', lambda s: rt.strings.unicode_split(s, 'UTF-8'), b'h\xffl',
     [b'h', b'\xef\xbf\xbd', b'l'], 'UnicodeEncode'),
    ('unicode_decode', lambda s: rt.strings.unicode_decode(s, 'UTF-8'), DUCK,
     np.array([12450, 12498, 12523, 32, 129414], np.int32), 'UnicodeDecode'),
    ('unicode_decode replace', lambda s: rt.strings.unicode_decode(s, 'UTF-8'), b'h\xffllo',
     np.array([104, 65533, 108, 108, 111], np.int32), 'UnicodeDecode'),
    ('unicode_decode ignore', lambda s: rt.strings.unicode_decode(s, 'UTF-8', errors='ignore'),
     b'h\xffllo', np.array([104, 108, 108, 111], np.int32), 'UnicodeDecode'),
    ('unicode_decode replacement_char',
     lambda s: rt.strings.unicode_decode(s, 'UTF-8', replacement_char=63), b'h\xffllo',
     np.array([104, 63, 108, 108, 111], np.int32), 'UnicodeDecode'),
    ('unicode_decode control characters',
     lambda s: rt.strings.unicode_decode(s, 'UTF-8', replace_control_characters=True),
     b'h\x01l', np.array([104, 65533, 108], np.int32), 'UnicodeDecode'),
    ('unicode_decode UTF-16-BE', lambda s: rt.strings.unicode_decode(s, 'UTF-16-BE'),
     'héllo'.encode(), np.array([26819, 43372, 27759], np.int32), 'UnicodeDecode'),
    ('unicode_decode_with_offsets',
     lambda s: rt.strings.unicode_decode_with_offsets(s, 'UTF-8')[1], 'héllo'.encode(),
     np.array([0, 1, 3, 4, 5], np.int64), 'UnicodeDecodeWithOffsets'),
    ('decode_raw uint8', lambda s: rt.io.decode_raw(s, rt.uint8), b'Duck',
     np.array([68, 117, 99, 107], np.uint8), 'DecodeRaw'),
    ('decode_raw float32', lambda s: rt.io.decode_raw(s, rt.float32), b'abcd',
     np.frombuffer(b'abcd', '<f4'), 'DecodeRaw'),
    ('decode_raw big endian', lambda s: rt.io.decode_raw(s, rt.int16, little_endian=False),
     b'abcd', np.array([24930, 25444], np.int16), 'DecodeRaw'),
    ('decode_raw bool', lambda s: rt.io.decode_raw(s, rt.bool), b'a\x00', [True, False],
     'DecodeRaw'),
    ('decode_raw fixed_length', lambda s: rt.io.decode_raw(s, rt.uint8, fixed_length=6),
     b'abcd', np.array([97, 98, 99, 100, 0, 0], np.uint8), 'DecodePaddedRaw'),
]


@pytest.mark.parametrize('program, text, expected, op_type', [r[1:] for r in ROWS],
                         ids=[r[0] for r in ROWS])
def test_a_scalar_string_splits_and_decodes_as_in_tensorflow_eagerly_and_in_graphs(
        program, text, expected, op_type):
    check_op_row(program, [np.array(text, dtype=object)], expected, op_type)


def test_the_split_ops_carry_tensorflows_inputs_outputs_and_attrs():
    g, out, _ = run_in_graph(lambda s: rt.strings.split(s, sep=' ', maxsplit=2),
                             np.array(b'a b', object))
    split = out.op
    assert [t.op.type for t in split.inputs] == ['Pack', 'Const']
    assert split.get_attr('maxsplit') == 2
    assert [t.dtype for t in split.outputs] == [rt.int64, rt.string, rt.int64]
    assert [t.shape.as_list() for t in split.outputs] == [[None, 2], [None], [2]]
    g, out, _ = run_in_graph(rt.strings.bytes_split, np.array(b'ab', object))
    assert out.op.get_attr('skip_empty') is False
    g, out, _ = run_in_graph(lambda s: rt.strings.unicode_decode(s, 'UTF-8'),
                             np.array(b'ab', object))
    decode = out.op
    assert decode.inputs[0].op.type == 'Reshape'
    assert {k: decode.get_attr(k) for k in ('input_encoding', 'errors', 'replacement_char',
                                            'replace_control_characters', 'Tsplits')} == {
        'input_encoding': 'UTF-8', 'errors': 'replace', 'replacement_char': 65533,
        'replace_control_characters': False, 'Tsplits': rt.int64}
    g, out, _ = run_in_graph(lambda s: rt.io.decode_raw(s, rt.int32), np.array(b'abcd', object))
    assert out.op.get_attr('out_type') is rt.int32
    assert out.op.get_attr('little_endian') is True


def test_none_of_the_ops_is_differentiable():
    for name in ('StringSplitV2', 'StringSplit', 'UnicodeDecode', 'UnicodeDecodeWithOffsets',
                 'UnicodeEncode', 'DecodeRaw', 'DecodePaddedRaw'):
        assert REGISTRY[name].gradient is NO_GRADIENT, name


@pytest.mark.parametrize('call', [
    lambda x: rt.strings.split(x), lambda x: rt.strings.bytes_split(x),
    lambda x: rt.strings.unicode_split(x, 'UTF-8'),
    lambda x: rt.strings.unicode_decode(x, 'UTF-8'),
    lambda x: rt.strings.unicode_decode_with_offsets(x, 'UTF-8')])
def test_a_tensor_of_strings_would_be_ragged_and_is_refused_saying_so(call):
    with pytest.raises(ValueError, match='RaggedTensor in TensorFlow.*out of scope'):
        call(rt.constant(['Gray wolf', 'Lazy dog']))

    @ag.function(input_signature=[rt.TensorSpec(None, rt.string)])
    def unknown_rank(x):
        return call(x)
    with pytest.raises(ValueError, match='of unknown rank gives a RaggedTensor'):
        unknown_rank.get_concrete_function()


def test_split_in_a_function_gives_the_pieces_and_to_number_reads_them():
    @ag.function
    def numbers(text):
        return rt.strings.to_number(rt.strings.split(text, ' '))
    np.testing.assert_array_equal(numbers(rt.constant('1 10 100')).numpy(),
                                  np.array([1., 10., 100.], np.float32))
    assert numbers(rt.constant('7')).shape == (1,)


def test_unicode_encode_of_a_vector_is_a_string_and_of_a_matrix_one_a_row():
    assert rt.strings.unicode_encode([104, 233], 'UTF-8').numpy() == 'hé'.encode()
    rows = rt.strings.unicode_encode([[104, 233], [65, 66]], 'UTF-8')
    assert rows.numpy().tolist() == ['hé'.encode(), b'AB']
    assert rt.strings.unicode_encode([104, -5], 'UTF-8').numpy() == 'h\ufffd'.encode()
    assert rt.strings.unicode_encode([104, -5], 'UTF-8', errors='ignore').numpy() == b'h'
    with pytest.raises(rt.errors.InvalidArgumentError, match='Invalid code point'):
        rt.strings.unicode_encode([104, 0x110000], 'UTF-8', errors='strict')
    assert rt.strings.unicode_encode([104, 233], 'UTF-16-BE').numpy() == 'hé'.encode('utf-16-be')


def test_decode_raw_of_equal_strings_is_dense_and_of_unequal_ones_an_error():
    out = rt.io.decode_raw(rt.constant([['ab'], ['cd']]), rt.uint8)
    assert out.shape == (2, 1, 2) and out.numpy().tolist() == [[[97, 98]], [[99, 100]]]
    assert rt.io.decode_raw(rt.constant(''), rt.int32).shape == (0,)
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match='all be the same size, but element 1 has size 4 != 3'):
        rt.io.decode_raw(rt.constant(['abcd', 'efg']), rt.uint8)
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match='length 5 that is not a multiple of 4, the size of int32'):
        rt.io.decode_raw(rt.constant('abcde'), rt.int32)
    with pytest.raises(rt.errors.InvalidArgumentError, match='expected to be a string tensor'):
        rt.io.decode_raw(rt.constant(1), rt.uint8)

    @ag.function
    def rows(x):
        return rt.io.decode_raw(x, rt.int16)
    assert rows(rt.constant(['abcd', 'efgh'])).numpy().tolist() == [[25185, 25699],
                                                                      [26213, 26727]]
    with pytest.raises(rt.errors.InvalidArgumentError, match='same size'):
        rows(rt.constant(['abcd', 'ef']))


def test_decode_errors_are_tensorflows():
    with pytest.raises(rt.errors.InvalidArgumentError, match='Invalid formatting on input'):
        rt.strings.unicode_decode(b'h\xffllo', 'UTF-8', errors='strict')
    with pytest.raises(rt.errors.InvalidArgumentError,
                       match='Could not create converter for input encoding: BOGUS'):
        rt.strings.unicode_decode('abc', 'BOGUS')
    with pytest.raises(rt.errors.InvalidArgumentError, match="attr 'errors' of \"bogus\""):
        rt.strings.unicode_decode('abc', 'UTF-8', errors='bogus')
    with pytest.raises(TypeError, match='needs a string tensor'):
        rt.strings.split(rt.constant(3))
