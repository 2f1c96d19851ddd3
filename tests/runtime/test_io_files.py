"""rt.io's files: read_file/write_file/matching_files as ops (eagerly and in ag.function),
rt.io.gfile, TFRecordWriter (plain, GZIP, ZLIB), write_graph, decode_json_example."""
import gzip
import zlib

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph.serialization import text_format, wire
from runtime.summary.records import frame


def test_write_then_read_a_file_eagerly_and_in_a_function(tmp_path):
    path = str(tmp_path / 'a.txt')
    rt.io.write_file(path, b'hello\x00there')
    assert rt.io.read_file(path).numpy() == b'hello\x00there'

    @ag.function
    def copy(source, target):
        rt.io.write_file(target, rt.strings.upper(rt.io.read_file(source)))
        return rt.io.read_file(target)
    assert copy(path, str(tmp_path / 'b.txt')).numpy() == b'HELLO\x00THERE'
    ops = {op.type for op in copy.get_concrete_function(
        rt.TensorSpec([], rt.string), rt.TensorSpec([], rt.string)).graph.get_operations()}
    assert {'ReadFile', 'WriteFile'} <= ops


def test_read_file_of_a_missing_path_is_not_found(tmp_path):
    with pytest.raises(rt.errors.NotFoundError):
        rt.io.read_file(str(tmp_path / 'missing'))


def test_matching_files_sorts_the_matches(tmp_path):
    for name in ('b.csv', 'a.csv', 'c.txt'):
        (tmp_path / name).write_text('x')
    found = rt.io.matching_files(str(tmp_path / '*.csv')).numpy()
    assert [f.decode().rsplit('/', 1)[1] for f in found] == ['a.csv', 'b.csv']


def test_gfile_reads_writes_and_walks(tmp_path):
    gfile = rt.io.gfile
    root = str(tmp_path / 'root')
    gfile.makedirs(gfile.join(root, 'sub'))
    with gfile.GFile(gfile.join(root, 'sub', 'f.txt'), 'w') as f:
        f.write('line 1\nline 2\n')
    with gfile.GFile(gfile.join(root, 'sub', 'f.txt')) as f:
        assert f.readlines() == ['line 1\n', 'line 2\n']
    with gfile.GFile(gfile.join(root, 'sub', 'f.txt'), 'rb') as f:
        assert f.read(4) == b'line' and f.tell() == 4
    assert gfile.exists(root) and gfile.isdir(root) and gfile.listdir(root) == ['sub']
    assert gfile.stat(gfile.join(root, 'sub', 'f.txt')).length == 14
    gfile.copy(gfile.join(root, 'sub', 'f.txt'), gfile.join(root, 'g.txt'))
    with pytest.raises(rt.errors.AlreadyExistsError):
        gfile.rename(gfile.join(root, 'g.txt'), gfile.join(root, 'sub', 'f.txt'))
    gfile.rename(gfile.join(root, 'g.txt'), gfile.join(root, 'h.txt'))
    assert [(d[len(root):], s, f) for d, s, f in gfile.walk(root)] == [
        ('', ['sub'], ['h.txt']), ('/sub', [], ['f.txt'])]
    assert gfile.glob(gfile.join(root, '*.txt')) == [gfile.join(root, 'h.txt')]
    with pytest.raises(rt.errors.AlreadyExistsError):
        gfile.mkdir(root)
    gfile.remove(gfile.join(root, 'h.txt'))
    with pytest.raises(rt.errors.NotFoundError):
        gfile.remove(gfile.join(root, 'h.txt'))
    with pytest.raises(rt.errors.NotFoundError):
        gfile.GFile(gfile.join(root, 'nothing')).read()
    gfile.rmtree(root)
    assert not gfile.exists(root)


@pytest.mark.parametrize('compression', ['', 'GZIP', 'ZLIB'])
def test_tfrecord_writer_frames_each_record(tmp_path, compression):
    path = str(tmp_path / 'data.tfrecord')
    with rt.io.TFRecordWriter(path, rt.io.TFRecordOptions(compression)) as writer:
        writer.write(b'first')
        writer.write('second')
    content = open(path, 'rb').read()
    if compression == 'GZIP':
        content = gzip.decompress(content)
    elif compression == 'ZLIB':
        content = zlib.decompress(content)
    assert content == frame(b'first') + frame(b'second')


def test_write_graph_writes_text_or_binary(tmp_path):
    g = rt.Graph()
    with g.as_default():
        rt.add(rt.placeholder(rt.float32, [2], name='x'), 1.0, name='y')
    text = rt.io.write_graph(g, str(tmp_path), 'g.pbtxt')
    binary = rt.io.write_graph(g, str(tmp_path), 'g.pb', as_text=False)
    nodes = text_format.parse('GraphDef', open(text).read())['node']
    assert [n['op'] for n in nodes] == [n['op'] for n in
                                        wire.decode('GraphDef', open(binary, 'rb').read())['node']]
    assert 'AddV2' in [n['op'] for n in nodes]


def test_decode_json_example_gives_a_parsable_example():
    text = ('{"features": {"feature": {"a": {"int64List": {"value": ["3", "4"]}}, '
            '"s": {"bytesList": {"value": ["eAB5"]}}, "f": {"floatList": {"value": [0.5]}}}}}')
    serialized = rt.io.decode_json_example([text])
    parsed = rt.io.parse_example(serialized, {
        'a': rt.io.FixedLenFeature([2], rt.int64), 's': rt.io.FixedLenFeature([], rt.string),
        'f': rt.io.FixedLenFeature([1], rt.float32)})
    assert parsed['a'].numpy().tolist() == [[3, 4]]
    assert parsed['s'].numpy().tolist() == [b'x\x00y']
    np.testing.assert_array_equal(parsed['f'].numpy(), [[0.5]])
    with pytest.raises(rt.errors.InvalidArgumentError):
        rt.io.decode_json_example('{"features": 3}')


def test_a_missing_required_feature_and_a_sparse_feature_are_errors():
    serialized = rt.io.decode_json_example('{"features": {"feature": {}}}')
    with pytest.raises(rt.errors.InvalidArgumentError, match='required'):
        rt.io.parse_single_example(serialized, {'a': rt.io.FixedLenFeature([], rt.int64)})
    with pytest.raises(TypeError, match='out of scope'):
        rt.io.parse_single_example(serialized, {'a': object()})
