"""What tests/runtime/test_io_more.py does not compare with TensorFlow: pickling the new
datasets, the Example messages' protobuf API, CheckpointManager's preserved checkpoints,
log device placement, traceback filtering, IteratorSpec and tf.version."""
import os
import pickle
import sys

import numpy as np
import pytest

import autograph as ag
import autograph_rt as tf
import runtime as rt


def _records(path, records):
    with tf.io.TFRecordWriter(str(path)) as writer:
        for record in records:
            writer.write(record)


def test_file_and_grouping_datasets_pickle_as_their_pipeline(tmp_path):
    path = tmp_path / 'r.tfrecord'
    _records(path, [b'a', b'bc', b'def'])
    fixed = tmp_path / 'f.bin'
    fixed.write_bytes(b'abcdef')
    pipelines = [
        tf.data.TFRecordDataset(str(path)).map(tf.strings.length),
        tf.data.FixedLengthRecordDataset(str(fixed), 2),
        tf.data.Dataset.range(9).group_by_window(lambda x: x % 2, lambda k, w: w.batch(2),
                                                 window_size=2),
        tf.data.Dataset.from_tensor_slices([1, 2, 1]).unique().ignore_errors(),
        tf.data.Dataset.random(seed=3).take(2),
    ]
    for dataset in pipelines:
        restored = pickle.loads(pickle.dumps(dataset))
        expected = [np.asarray(e).tolist() for e in dataset.as_numpy_iterator()]
        assert [np.asarray(e).tolist() for e in restored.as_numpy_iterator()] == expected


def test_datasets_of_files_run_in_functions(tmp_path):
    path = tmp_path / 'r.tfrecord'
    _records(path, [b'a', b'bc', b'def'])

    @ag.function
    def total_length():
        lengths = tf.data.TFRecordDataset(str(path)).map(tf.strings.length)
        return lengths.reduce(np.int32(0), lambda a, b: a + b)
    assert int(total_length()) == 6


def test_example_messages_behave_as_protobuf_s():
    feature = tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 1.5]))
    example = tf.train.Example(features={'feature': {'x': feature}})
    copy = tf.train.Example()
    copy.CopyFrom(example)
    assert copy == example and copy.ByteSize() == len(example.SerializeToString())
    copy.MergeFrom(tf.train.Example(features=tf.train.Features(feature={
        'y': tf.train.Feature(int64_list=tf.train.Int64List(value=[3]))})))
    assert sorted(copy.features.feature) == ['x', 'y'] and copy != example
    assert [name for name, _ in example.ListFields()] == ['features']
    assert 'float_list {' in str(example) and 'value: 0.5' in str(example)
    assert pickle.loads(pickle.dumps(example)) == example
    with pytest.raises(AttributeError, match='Assignment not allowed'):
        example.features = tf.train.Features()
    with pytest.raises(ValueError, match='May not set values directly'):
        example.features.feature['z'] = feature
    with pytest.raises(TypeError, match='No positional arguments'):
        tf.train.Example(example)
    empty = tf.train.Example()
    _ = empty.features.feature  # reading an unset message sets nothing
    assert not empty.HasField('features') and empty.SerializeToString() == b''


def test_checkpoint_manager_keeps_one_checkpoint_per_n_hours(tmp_path):
    checkpoint = tf.train.Checkpoint(v=tf.Variable(1.0))
    manager = tf.train.CheckpointManager(checkpoint, str(tmp_path), max_to_keep=1,
                                         keep_checkpoint_every_n_hours=1e-9)
    paths = [manager.save() for _ in range(3)]
    assert manager.checkpoints == [paths[-1]]
    for path in paths:  # each one dropped from the kept list is preserved, not deleted
        assert os.path.exists(path + '.index')
    never = tf.train.CheckpointManager(checkpoint, str(tmp_path / 'other'), max_to_keep=1)
    first = never.save()
    never.save()
    assert not os.path.exists(first + '.index')


def test_log_device_placement_prints_each_op(capfd):
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement()
        tf.constant([1.0]) + 1.0
    finally:
        tf.debugging.set_log_device_placement(False)
    tf.constant([1.0]) * 2.0
    err = capfd.readouterr().err
    assert 'Executing op AddV2 in device /job:localhost/replica:0/task:0/device:CPU:0' in err
    assert 'Mul' not in err


def _fails(x):
    return x[10]


def test_traceback_filtering_keeps_autograph_frames_when_disabled():
    def library_frames(error):
        tb, found = error.__traceback__, []
        while tb is not None:
            found.append(tb.tb_frame.f_code.co_filename)
            tb = tb.tb_next
        return [f for f in found if os.sep + 'autograph' + os.sep in f]

    converted = ag.function(_fails)
    with pytest.raises(Exception) as filtered:
        converted([1, 2])
    tf.debugging.disable_traceback_filtering()
    try:
        with pytest.raises(Exception) as unfiltered:
            ag.function(_fails)([1, 2])
    finally:
        tf.debugging.enable_traceback_filtering()
    assert len(library_frames(unfiltered.value)) >= len(library_frames(filtered.value))


def test_check_numerics_adds_checks_to_graphs_traced_while_on():
    tf.debugging.enable_check_numerics()
    try:
        concrete = ag.function(lambda x: tf.math.sqrt(x)).get_concrete_function(
            tf.TensorSpec([2], tf.float32))
    finally:
        tf.debugging.disable_check_numerics()
    assert 'Sqrt/CheckNumerics' in [op.name for op in concrete.graph.operations]
    with pytest.raises(tf.errors.InvalidArgumentError, match='graph op "Sqrt"'):
        concrete(tf.constant([1.0, -1.0]))


def test_iterator_spec_and_version():
    dataset = tf.data.Dataset.range(3)
    spec = tf.data.IteratorSpec.from_value(iter(dataset))
    assert spec == tf.data.IteratorSpec(dataset.element_spec) and spec.is_compatible_with(
        dataset)
    assert tf.version.VERSION == '2.21.0' and rt.__version__ in tf.version.GIT_VERSION
    assert rt.Graph().as_graph_def()['versions']['producer'] == tf.version.GRAPH_DEF_VERSION
    assert tf.data.NumpyIterator is type(dataset.as_numpy_iterator())


def test_csv_dataset_excludes_columns_and_batched_features_read_records(tmp_path):
    path = tmp_path / 't.csv'
    path.write_text('1,a,2.5\n3,b,4.5\n')
    rows = tf.data.experimental.CsvDataset(str(path), [[0], [0.0]], exclude_cols=[1])
    assert [tuple(np.asarray(c).tolist() for c in r) for r in rows.as_numpy_iterator()] == [
        (1, 2.5), (3, 4.5)]
    records = tmp_path / 'e.tfrecord'
    _records(records, [tf.train.Example(features=tf.train.Features(feature={
        'x': tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
        'y': tf.train.Feature(float_list=tf.train.FloatList(value=[i / 2]))})
    ).SerializeToString() for i in range(4)])
    batches = tf.data.experimental.make_batched_features_dataset(
        str(records), 2, {'x': tf.io.FixedLenFeature([], tf.int64),
                          'y': tf.io.FixedLenFeature([], tf.float32)},
        label_key='y', num_epochs=1, shuffle=False)
    got = [(f['x'].numpy().tolist(), y.numpy().tolist()) for f, y in batches]
    assert got == [([0, 1], [0.0, 0.5]), ([2, 3], [1.0, 1.5])]


def test_a_scalar_string_ending_in_nul_bytes_keeps_them_when_reshaped():
    value = b'\n\x04\x00\x00'
    assert tf.reshape(tf.constant(value), [1]).numpy().tolist() == [value]
    example = tf.train.Example(features=tf.train.Features(feature={
        'y': tf.train.Feature(float_list=tf.train.FloatList(value=[0.0]))}))
    parsed = tf.io.parse_single_example(example.SerializeToString(),
                                        {'y': tf.io.FixedLenFeature([], tf.float32)})
    assert parsed['y'].numpy() == 0.0


def test_version_is_a_module_of_the_runtime():
    assert sys.modules['runtime.version'] is rt.version


def test_debug_mode_runs_dataset_functions_as_python_for_each_element():
    from runtime.data import functions
    seen = []
    tf.data.experimental.enable_debug_mode()
    try:
        doubled = tf.data.Dataset.range(4).map(lambda x: (seen.append(x), x * 2)[1]).batch(2)
        windows = tf.data.Dataset.range(5).group_by_window(
            lambda x: x % 2, lambda key, window: window.batch(2), window_size=2)
    finally:
        functions.set_debug_mode(False)
    assert [b.tolist() for b in doubled.as_numpy_iterator()] == [[0, 2], [4, 6]]
    assert [int(x.numpy()) for x in seen[1:]] == [0, 1, 2, 3]  # seen[0]: the trace's
    assert [w.tolist() for w in windows.as_numpy_iterator()] == [[0, 2], [1, 3], [4]]
