"""rt.summary writes TensorFlow event files: names, framing, the values of each summary kind,
in eager code and in ag.function, and writers that are safe to use."""
import gc
import glob
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib

import numpy as np
import pytest

import autograph as ag
import runtime as rt
from runtime.graph.serialization import wire
from runtime.graph.serialization.graph_io import tensor_from_proto, tensor_to_proto
from runtime.ops.registry import REGISTRY
from runtime.summary import events
from runtime.summary.crc32c import crc32c, masked_crc32c
from runtime.summary.png import encode_png
from runtime.summary.records import frame, frame_all, read_records
from runtime.summary.writer import state as summary_state

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


def _event_files(logdir):
    return sorted(glob.glob(os.path.join(str(logdir), 'events.out.tfevents.*')))


def _events(logdir):
    """Every Event message of every event file in `logdir`, file by file."""
    return [wire.decode('Event', record) for path in _event_files(logdir)
            for record in read_records(path)]


def _summaries(logdir):
    """{tag: [(step, numpy value, plugin name)]} of the tensor summaries in `logdir`."""
    found = {}
    for event in _events(logdir):
        for value in event.get('summary', {}).get('value', []):
            plugin = value['metadata']['plugin_data']['plugin_name']
            found.setdefault(value['tag'], []).append(
                (event.get('step', 0), tensor_from_proto(value['tensor']), plugin))
    return found


@pytest.fixture(autouse=True)
def no_default_writer_left():
    """Tests that call `set_as_default` leave no default writer to the tests after them."""
    yield
    summary_state.writer = summary_state.step = None
    summary_state.condition = True


@pytest.fixture
def read():
    """Reading back with the project's own TFRecord reader and wire codec (the tests in
    test_summary_tensorboard.py read with TensorBoard's readers)."""
    class Read:
        events = staticmethod(_events)
        summaries = staticmethod(_summaries)
        files = staticmethod(_event_files)
    return Read


def test_crc32c_of_the_standard_check_string_and_the_masked_form():
    assert crc32c(b'123456789') == 0xE3069283
    assert crc32c(b'6789', crc32c(b'12345')) == 0xE3069283
    crc = crc32c(b'abc')
    assert masked_crc32c(b'abc') == (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def test_a_record_is_length_checksum_data_checksum(tmp_path):
    record = frame(b'hello')
    assert record[:8] == struct.pack('<Q', 5)
    assert struct.unpack('<I', record[8:12])[0] == masked_crc32c(record[:8])
    assert record[12:17] == b'hello'
    assert struct.unpack('<I', record[17:])[0] == masked_crc32c(b'hello')
    path = tmp_path / 'records'
    path.write_bytes(frame(b'one') + frame(b'') + frame(b'three'))
    assert list(read_records(str(path))) == [b'one', b'', b'three']


def test_framing_many_records_at_once_gives_the_same_bytes():
    rng = np.random.RandomState(0)
    records = [rng.bytes(46) for _ in range(40)] + [rng.bytes(n) for n in range(30)] + \
        [b''] * 20 + [rng.bytes(46)]
    assert frame_all(records) == b''.join(map(frame, records))
    assert frame_all(records[:3]) == b''.join(map(frame, records[:3]))


def test_the_fast_summary_event_encoding_is_the_wire_encoding():
    metadata = rt.summary.summaries.plugin_metadata('scalars', 'the loss')
    pieces = events.summary_value_pieces('train/loss', metadata)
    for value in (np.array(1.5, np.float32), np.array([[1.0, 2.0]]), np.array([b'a'], object),
                  np.array(-3, np.int64)):
        for step in (0, 12, 2 ** 40):
            dtype = rt.string if value.dtype == object else rt.as_dtype(value.dtype)
            expected = wire.encode('Event', {
                'wall_time': 1.25, 'step': step, 'summary': {'value': [{
                    'tag': 'train/loss', 'tensor': tensor_to_proto(value, dtype),
                    'metadata': wire.decode('SummaryMetadata', metadata)}]}})
            assert events.summary_event_bytes(1.25, step, value, pieces) == expected


def test_a_torn_last_record_is_skipped_and_a_corrupted_one_is_data_loss(tmp_path):
    path = tmp_path / 'records'
    whole = frame(b'first') + frame(b'second record')
    for cut in range(len(frame(b'first')), len(whole)):
        path.write_bytes(whole[:cut])
        assert list(read_records(str(path))) == [b'first']
    bad = bytearray(whole)
    bad[14] ^= 1  # a bit of the first record's data
    path.write_bytes(bytes(bad))
    with pytest.raises(rt.errors.DataLossError, match='corrupted record at byte 0'):
        list(read_records(str(path)))


def test_the_file_is_named_as_tensorflow_names_it_and_starts_with_the_file_version(tmp_path,
                                                                                   read):
    writer = rt.summary.create_file_writer(str(tmp_path))
    writer.close()
    (path,) = read.files(tmp_path)
    name = os.path.basename(path)
    assert re.fullmatch(rf'events\.out\.tfevents\.\d{{10}}\.[^.]+(\.[^.]+)*\.{os.getpid()}\.'
                        rf'\d+\.v2', name), name
    (first,) = read.events(tmp_path)
    assert first['file_version'] == 'brain.Event:2'
    assert abs(first['wall_time'] - time.time()) < 60


def test_eager_scalars_text_and_their_plugins(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(rt.summary.scalar('loss', 0.5, step=1)) is True
        rt.summary.scalar('loss', rt.constant(0.25, rt.float64), step=2)
        rt.summary.text('note', 'hello **world**', step=3, description='a note')
        with rt.name_scope('train'):
            rt.summary.scalar('accuracy', np.float32(0.75), step=4)
    got = read.summaries(tmp_path)
    assert [(s, float(v), p) for s, v, p in got['loss']] == [(1, 0.5, 'scalars'),
                                                             (2, 0.25, 'scalars')]
    assert got['loss'][0][1].dtype == np.float32
    assert got['note'] == [(3, b'hello **world**', 'text')]
    assert got['train/accuracy'][0][:2] == (4, 0.75)
    described = [v for e in read.events(tmp_path) for v in e.get('summary', {}).get('value', [])
                 if v['tag'] == 'note']
    assert described[0]['metadata']['summary_description'] == 'a note'


def test_non_finite_scalars_are_written_as_they_are(tmp_path, read):
    with rt.summary.create_file_writer(str(tmp_path)).as_default():
        for step, value in enumerate([float('nan'), float('inf'), float('-inf')]):
            rt.summary.scalar('x', value, step=step)
    values = [v for _, v, _ in read.summaries(tmp_path)['x']]
    assert np.isnan(values[0]) and values[1] == np.inf and values[2] == -np.inf


def test_histograms_are_tensorflow_buckets(tmp_path, read):
    with rt.summary.create_file_writer(str(tmp_path)).as_default(step=7):
        rt.summary.histogram('four', [1.0, 2.0, 3.0, 4.0])
        rt.summary.histogram('same', [3.0, 3.0, 3.0], buckets=4)
        rt.summary.histogram('none', np.zeros([0], np.float32), buckets=5)
        rt.summary.histogram('ints', np.arange(10), buckets=2)
    got = read.summaries(tmp_path)
    step, four, plugin = got['four'][0]
    assert (step, plugin, four.shape, four.dtype) == (7, 'histograms', (30, 3), np.float64)
    # tf.summary.histogram of [1, 2, 3, 4]: 30 buckets of width 0.1 from 1 to 4
    np.testing.assert_allclose(four[0], [1.0, 1.1, 1.0])
    np.testing.assert_allclose(four[-1], [3.9, 4.0, 1.0])
    assert four[-1, 1] == 4.0 and four[:, 2].sum() == 4
    np.testing.assert_array_equal(got['same'][0][1], [[3, 3, 0], [3, 3, 0], [3, 3, 0], [3, 3, 3]])
    np.testing.assert_array_equal(got['none'][0][1], np.zeros([5, 3]))
    np.testing.assert_array_equal(got['ints'][0][1], [[0, 4.5, 5], [4.5, 9, 5]])


def _decode_png(data):
    """(width, height, color type, pixel rows) of an unfiltered 8-bit PNG."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, chunks = 8, {}
    while pos < len(data):
        (size,) = struct.unpack('>I', data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + size]
        assert struct.unpack('>I', data[pos + 8 + size:pos + 12 + size])[0] == \
            zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b'') + body
        pos += 12 + size
    width, height, depth, color = struct.unpack('>IIBB', chunks[b'IHDR'][:10])
    assert depth == 8
    return width, height, color, zlib.decompress(chunks[b'IDAT'])


def test_the_png_encoder_writes_every_pixel():
    image = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4) * 10
    width, height, color, raw = _decode_png(encode_png(image))
    assert (width, height, color) == (3, 2, 6)
    rows = np.frombuffer(raw, np.uint8).reshape(2, 1 + 3 * 4)
    assert (rows[:, 0] == 0).all()
    np.testing.assert_array_equal(rows[:, 1:].reshape(2, 3, 4), image)
    assert _decode_png(encode_png(image[:, :, :1]))[2] == 0
    with pytest.raises(rt.errors.InvalidArgumentError, match='1 to 4 channels'):
        encode_png(np.zeros([2, 2, 5], np.uint8))


def test_images_are_width_height_and_pngs_of_at_most_max_outputs(tmp_path, read):
    images = np.zeros([4, 2, 3, 3], np.float32)
    images[:, 0, 0] = [1.0, 0.5, 0.0]
    with rt.summary.create_file_writer(str(tmp_path)).as_default():
        rt.summary.image('pictures', images, step=0, max_outputs=2)
    ((step, tensor, plugin),) = read.summaries(tmp_path)['pictures']
    assert (plugin, tensor.shape, tensor[0], tensor[1]) == ('images', (4,), b'3', b'2')
    width, height, color, raw = _decode_png(tensor[2])
    assert (width, height, color) == (3, 2, 2)
    assert list(raw[1:4]) == [255, 127, 0]  # TensorFlow: 0.5 * 255.5, truncated


def test_in_a_function_each_call_writes_and_the_graph_holds_summary_ops(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))
    step = rt.Variable(0, dtype=rt.int64)

    @ag.function
    def train_step(x):
        step.assign_add(1)
        loss = x * x
        written = rt.summary.scalar('loss', loss, step=step)
        rt.summary.histogram('x', rt.stack([x, loss]), step=step)
        return written

    with writer.as_default():
        results = [bool(train_step(rt.constant(v))) for v in [1.0, 2.0, 3.0]]
    assert results == [True, True, True]
    got = read.summaries(tmp_path)
    assert [(s, float(v)) for s, v, _ in got['loss']] == [(1, 1.0), (2, 4.0), (3, 9.0)]
    assert [s for s, _, _ in got['x']] == [1, 2, 3]
    graph = train_step.get_concrete_function(rt.constant(1.0)).graph
    writes = [op for op in graph.operations if op.type == 'WriteSummary']
    assert len(writes) == 2
    assert [i.op.type for i in writes[0].inputs] == ['Placeholder', 'ReadVariableOp', 'Mul',
                                                     'Const', 'Const']
    assert writes[0].inputs[0].dtype == rt.dtypes.resource


def test_set_step_and_as_default_step(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))
    assert rt.summary.experimental.get_step() is None
    with writer.as_default(step=5):
        assert rt.summary.experimental.get_step() == 5
        rt.summary.scalar('a', 1.0)
    assert rt.summary.experimental.get_step() is None
    rt.summary.experimental.set_step(9)
    try:
        with writer.as_default():
            rt.summary.scalar('a', 2.0)
    finally:
        rt.summary.experimental.set_step(None)
    assert [s for s, _, _ in read.summaries(tmp_path)['a']] == [5, 9]
    with writer.as_default(), pytest.raises(ValueError, match='No step set'):
        rt.summary.scalar('a', 3.0)


def test_nothing_is_written_without_a_default_writer_or_outside_record_if(tmp_path, read):
    assert bool(rt.summary.scalar('a', 1.0, step=0)) is False
    writer = rt.summary.create_file_writer(str(tmp_path))
    with writer.as_default(), rt.summary.record_if(False):
        assert bool(rt.summary.scalar('a', 1.0, step=0)) is False
    with writer.as_default(), rt.summary.record_if(lambda: True):
        assert bool(rt.summary.scalar('b', 1.0, step=0)) is True
    assert list(read.summaries(tmp_path)) == ['b']


def test_record_if_with_a_tensor_condition_decides_each_run(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))

    @ag.function
    def log(step):
        with rt.summary.record_if(rt.equal(step % 2, 0)):
            return rt.summary.scalar('even', rt.cast(step, rt.float32), step=step)

    with writer.as_default():
        written = [bool(log(rt.constant(i, rt.int64))) for i in range(5)]
    assert written == [True, False, True, False, True]
    assert [s for s, _, _ in read.summaries(tmp_path)['even']] == [0, 2, 4]


def test_bad_inputs_raise_tensorflow_errors(tmp_path):
    with rt.summary.create_file_writer(str(tmp_path)).as_default(step=0):
        with pytest.raises(ValueError, match="scalar.*'loss'.*saw shape: \\(2,\\)"):
            rt.summary.scalar('loss', [1.0, 2.0])
        with pytest.raises(TypeError, match="text.*'note'.*int32"):
            rt.summary.text('note', 3)
        with pytest.raises(ValueError, match='batch of images'):
            rt.summary.image('im', np.zeros([2, 2, 3]))


def test_a_log_directory_that_cannot_be_written_is_an_error_naming_it(tmp_path):
    blocker = tmp_path / 'a_file'
    blocker.write_text('')
    with pytest.raises(rt.errors.FailedPreconditionError, match='a_file.*not a directory'):
        rt.summary.create_file_writer(str(blocker))
    with pytest.raises(rt.errors.FailedPreconditionError, match='a_file'):
        rt.summary.create_file_writer(str(blocker / 'logs'))
    with pytest.raises(rt.errors.NotFoundError, match="'/proc/no_such_dir/logs'"):
        rt.summary.create_file_writer('/proc/no_such_dir/logs')


def test_a_function_writes_to_the_writer_it_was_traced_with(tmp_path, read):
    first = rt.summary.create_file_writer(str(tmp_path / 'first'))
    second = rt.summary.create_file_writer(str(tmp_path / 'second'))

    @ag.function
    def log(x, step):
        return rt.summary.scalar('x', x, step=step)

    with first.as_default():
        log(rt.constant(1.0), rt.constant(0, rt.int64))
    with second.as_default():  # as in TensorFlow: the writer is captured when tracing
        log(rt.constant(2.0), rt.constant(1, rt.int64))
    first.close()
    second.close()
    assert [s for s, _, _ in read.summaries(tmp_path / 'first')['x']] == [0, 1]
    assert read.summaries(tmp_path / 'second') == {}


def test_a_closed_writer_is_an_error(tmp_path):
    writer = rt.summary.create_file_writer(str(tmp_path))

    @ag.function
    def log(x):
        return rt.summary.scalar('x', x, step=0)

    with writer.as_default():
        log(rt.constant(1.0))
    writer.close()
    with pytest.raises(RuntimeError, match='already closed'):
        writer.as_default().__enter__()
    with pytest.raises(rt.errors.FailedPreconditionError, match='is closed'):
        log(rt.constant(2.0))


def test_writes_wait_for_flush_or_the_background_thread(tmp_path, read):
    slow = rt.summary.create_file_writer(str(tmp_path / 'slow'))
    with slow.as_default():
        rt.summary.scalar('a', 1.0, step=0)
    slow.set_as_default()  # a default writer outside `as_default` is not flushed on exit
    rt.summary.scalar('a', 2.0, step=1)
    assert len(read.summaries(tmp_path / 'slow')['a']) == 1  # queued, not yet on disk
    slow.flush()
    assert len(read.summaries(tmp_path / 'slow')['a']) == 2
    fast = rt.summary.create_file_writer(str(tmp_path / 'fast'), flush_millis=20)
    fast.set_as_default()
    rt.summary.scalar('b', 1.0, step=0)
    deadline = time.time() + 10
    while 'b' not in read.summaries(tmp_path / 'fast') and time.time() < deadline:
        time.sleep(0.02)
    assert 'b' in read.summaries(tmp_path / 'fast')
    full = rt.summary.create_file_writer(str(tmp_path / 'full'), max_queue=3)
    full.set_as_default()
    for i in range(3):
        rt.summary.scalar('c', float(i), step=i)
    deadline = time.time() + 10
    while len(read.summaries(tmp_path / 'full').get('c', [])) < 3 and time.time() < deadline:
        time.sleep(0.02)
    assert len(read.summaries(tmp_path / 'full')['c']) == 3
    for writer in (slow, fast, full):
        writer.close()


def test_several_writers_and_threads_at_once(tmp_path, read):
    writers = [rt.summary.create_file_writer(str(tmp_path / name), max_queue=7)
               for name in ('a', 'b')]

    def scalar(x, step):
        return rt.summary.scalar('x', x, step=step)

    # one function per writer: a function writes to the writer it was traced with
    logs = [ag.function(scalar), ag.function(scalar)]

    def work(thread):
        for i in range(150):
            with writers[i % 2].as_default():
                logs[i % 2](rt.constant(float(thread)), rt.constant(i, rt.int64))
                rt.summary.text('t', f'{thread}:{i}', step=i)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for writer in writers:
        writer.close()
    for name, parity in (('a', 0), ('b', 1)):
        got = read.summaries(tmp_path / name)
        assert len(got['x']) == len(got['t']) == 4 * 75
        assert {s % 2 for s, _, _ in got['x']} == {parity}
        texts = sorted(v.decode() for _, v, _ in got['t'])
        assert texts == sorted(f'{t}:{i}' for t in range(4) for i in range(parity, 150, 2))


_CHILD = '''
import sys, runtime as rt
writer = rt.summary.create_file_writer(sys.argv[1])
writer.set_as_default()
for i in range(int(sys.argv[2])):
    rt.summary.scalar('x', float(i), step=i)
    if sys.argv[3] == 'flush':
        writer.flush()
        if i == 20:
            print('running', flush=True)
'''


def _child(tmp_path, *args):
    return subprocess.Popen([sys.executable, '-c', _CHILD, str(tmp_path), *args],
                            env={**os.environ, 'PYTHONPATH': ROOT}, stdout=subprocess.PIPE,
                            text=True)


def test_queued_summaries_are_written_at_interpreter_exit(tmp_path, read):
    child = _child(tmp_path, '5', 'no-flush')
    assert child.wait(timeout=120) == 0
    assert [s for s, _, _ in read.summaries(tmp_path)['x']] == [0, 1, 2, 3, 4]


def test_a_process_killed_while_writing_leaves_a_readable_file(tmp_path, read):
    child = _child(tmp_path, '1000000', 'flush')
    assert child.stdout.readline() == 'running\n'
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    steps = [s for s, _, _ in read.summaries(tmp_path)['x']]
    assert len(steps) > 20 and steps == list(range(len(steps)))


def test_trace_export_writes_the_graph_of_the_function_that_ran(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))

    @ag.function
    def branchy(x):
        if rt.reduce_sum(x) > 0:
            y = rt.nn.relu(x) * 2.0
        else:
            y = -x
        return y

    branchy(rt.constant([1.0]))  # traced before: it still counts when it runs while tracing
    with pytest.raises(ValueError, match='Must enable trace before export'):
        rt.summary.trace_export('none')
    rt.summary.trace_on(graph=True)
    branchy(rt.constant([1.0, -2.0]))
    with writer.as_default():
        assert rt.summary.trace_export('branchy', step=3) is None
    writer.close()
    (event,) = [e for e in read.events(tmp_path) if 'graph_def' in e]
    graph_def = wire.decode('GraphDef', event['graph_def'])
    assert event['step'] == 3
    ops = {node['op'] for node in graph_def['node']}
    assert {'Placeholder', 'Sum', 'Greater', 'StatelessIf', 'Identity'} <= ops
    branch_ops = {node['op'] for f in graph_def['library']['function'] for node in f['node_def']}
    assert {'Relu', 'Mul', 'Neg'} <= branch_ops


def test_trace_export_of_several_functions_scopes_each(tmp_path, read):
    @ag.function
    def double(x):
        return x * 2.0

    @ag.function
    def square(x):
        return x * x

    rt.summary.trace_on()
    double(rt.constant(1.0))
    square(rt.constant(1.0))
    with rt.summary.create_file_writer(str(tmp_path)).as_default():
        rt.summary.trace_export('both')
    (event,) = [e for e in read.events(tmp_path) if 'graph_def' in e]
    nodes = wire.decode('GraphDef', event['graph_def'])['node']
    scopes = {node['name'].split('/')[0] for node in nodes}
    assert len(scopes) == 2 and all('double' in s or 'square' in s for s in scopes)
    muls = [n for n in nodes if n['op'] == 'Mul']
    assert all(i.split('/')[0] == m['name'].split('/')[0] for m in muls for i in m['input'])
    rt.summary.trace_off()


def test_summary_graph_writes_a_graph_def_eagerly_only(tmp_path, read):
    @ag.function
    def f(x):
        return rt.tanh(x)

    graph = f.get_concrete_function(rt.constant(1.0)).graph
    writer = rt.summary.create_file_writer(str(tmp_path))
    with writer.as_default():
        assert bool(rt.summary.graph(graph)) is True

        @ag.function
        def inside(x):
            rt.summary.graph(graph)
            return x

        with pytest.raises(ValueError, match='cannot be invoked inside a graph'):
            inside(rt.constant(1.0))
    (event,) = [e for e in read.events(tmp_path) if 'graph_def' in e]
    assert 'Tanh' in {n['op'] for n in wire.decode('GraphDef', event['graph_def'])['node']}


def test_the_reference_table_of_summary_names_resolves():
    text = open(os.path.join(ROOT, 'docs', 'reference.md'), encoding='utf-8').read()
    block = text[text.index('<!-- summary names'):text.index('<!-- summary names: end -->')]
    rows = [[c.strip() for c in line.strip('|').split('|')] for line in block.splitlines()
            if line.startswith('| `tf.')]
    assert len(rows) == 15
    for tf_name, rt_name, op_types, _ in rows:
        assert tf_name.replace('tf.', 'rt.') == rt_name
        obj = rt
        for part in rt_name.strip('`').split('.')[1:]:
            obj = getattr(obj, part)
        assert callable(obj), rt_name
        for op_type in re.findall(r'`([A-Z]\w*)`', op_types):
            assert op_type in REGISTRY, op_type


def test_flush_writes_the_default_writers_queue_and_is_an_op_in_a_graph(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))
    writer.set_as_default()
    rt.summary.scalar('a', 1.0, step=0)
    assert 'a' not in read.summaries(tmp_path)
    assert rt.summary.flush() is None
    assert 'a' in read.summaries(tmp_path)

    @ag.function
    def log_and_flush(x):
        rt.summary.scalar('b', x, step=1)
        rt.summary.flush()
        return x

    log_and_flush(rt.constant(2.0))
    assert [float(v) for _, v, _ in read.summaries(tmp_path)['b']] == [2.0]
    graph = log_and_flush.get_concrete_function(rt.constant(2.0)).graph
    assert 'FlushSummaryWriter' in [op.type for op in graph.operations]
    writer.close()


def test_jit_compiled_functions_write_summaries_as_the_default_executor(tmp_path, read):
    """Every op runs under jit_compile=True (the writer is a boxed value, its ops
    call their kernels), at every call."""
    pytest.importorskip('numba')

    @ag.function(jit_compile=True)
    def compiled(x, step):
        rt.summary.scalar('x', x, step=step)
        return x * 2.0

    with rt.summary.create_file_writer(str(tmp_path)).as_default():
        for step in range(2):
            assert compiled(rt.constant(1.5 + step), rt.constant(step, rt.int64)).numpy() == \
                3.0 + 2 * step
    assert [(s, float(v), p) for s, v, p in read.summaries(tmp_path)['x']] == [
        (0, 1.5, 'scalars'), (1, 2.5, 'scalars')]


def test_a_writer_nothing_refers_to_is_flushed_closed_and_its_thread_ends(tmp_path, read):
    writer = rt.summary.create_file_writer(str(tmp_path))
    writer.set_as_default()
    rt.summary.scalar('a', 1.0, step=0)
    thread = writer.events.thread
    summary_state.writer = None
    del writer
    gc.collect()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert [s for s, _, _ in read.summaries(tmp_path)['a']] == [0]


def test_images_of_a_batch_size_known_only_when_the_function_runs(tmp_path, read):
    @ag.function(input_signature=[rt.TensorSpec([None, 2, 3, 3], rt.float32)])
    def log(images):
        return rt.summary.image('im', images, step=0, max_outputs=2)

    with rt.summary.create_file_writer(str(tmp_path)).as_default():
        for count in (3, 1, 0):
            assert bool(log(np.full([count, 2, 3, 3], 0.5, np.float32))) is True
    shapes = [tensor.shape for _, tensor, _ in read.summaries(tmp_path)['im']]
    assert shapes == [(4,), (3,), (2,)]  # width, height, then at most 2 PNGs
    (_, tensor, _) = read.summaries(tmp_path)['im'][0]
    assert _decode_png(tensor[3])[:3] == (3, 2, 2)
