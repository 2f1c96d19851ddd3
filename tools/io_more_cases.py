"""Programs over `tf.train.Example`, TFRecord files, file datasets, `tf.data.experimental`
and `tf.debugging`'s check numerics, written once against a `tf` module: TensorFlow's
(tools/tf_io_more_fixtures.py records what they give into tests/runtime/fixtures/io_more.json)
or `autograph_rt` (tests/runtime/test_io_more.py runs them and compares). Each case takes `tf`
and a scratch directory and returns plain data: lists, numbers, str, and bytes as hex.
This module imports numpy only.
"""
import os
from typing import Any, Callable

import numpy as np

CASES: dict[str, Callable[[Any, str], Any]] = {}


def case(fn: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    CASES[fn.__name__] = fn
    return fn


def plain(value: Any) -> Any:
    """A result as JSON holds it: tensors and arrays as lists, bytes as hex."""
    if hasattr(value, 'numpy'):
        value = value.numpy()
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()] if value.ndim else plain(value.item())
    if isinstance(value, np.generic):
        return plain(value.item())
    if isinstance(value, bytes):
        return 'hex:' + value.hex()
    if isinstance(value, float) and value != value:
        return 'nan'
    return value


def error_name(fn: Callable[[], Any]) -> str:
    """The class name of the error `fn()` raises ('none' when it raises none)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error's type is the result
        return type(e).__name__
    return 'none'


def elements(dataset: Any) -> list[Any]:
    return [plain(e) for e in dataset.as_numpy_iterator()]


def _example(tf: Any) -> Any:
    train = tf.train
    return train.Example(features=train.Features(feature={
        'label': train.Feature(int64_list=train.Int64List(value=[7, -3, 2 ** 40])),
        'weights': train.Feature(float_list=train.FloatList(value=[0.1, -2.5, 1e20])),
        'name': train.Feature(bytes_list=train.BytesList(value=[b'abc', b'', b'\x00\xff'])),
        'empty': train.Feature(),
        'a_first': train.Feature(int64_list=train.Int64List(value=[1]))}))


@case
def example_bytes(tf: Any, scratch: str) -> Any:
    # TensorFlow's protobuf writes map entries in an order that changes from one process to
    # the next; `deterministic=True` writes them by key, the order here
    return plain(_example(tf).SerializeToString(deterministic=True))


@case
def example_of_one_feature_bytes(tf: Any, scratch: str) -> Any:
    train = tf.train
    return plain(train.Example(features=train.Features(feature={
        'pixels': train.Feature(float_list=train.FloatList(value=np.linspace(0, 1, 5)))})
    ).SerializeToString())


@case
def example_built_by_mutation(tf: Any, scratch: str) -> Any:
    example = tf.train.Example()
    before = example.SerializeToString()
    example.features.feature['z'].float_list.value.append(1.5)
    example.features.feature['y'].bytes_list.value.extend([b'p', b'q'])
    example.features.feature['x'].int64_list.value[:] = [4, 5]
    return [plain(before), plain(example.SerializeToString(deterministic=True)),
            example.features.feature['y'].WhichOneof('kind'), example.HasField('features')]


@case
def example_round_trip(tf: Any, scratch: str) -> Any:
    data = _example(tf).SerializeToString()
    parsed = tf.train.Example.FromString(data)
    feature = parsed.features.feature
    return [sorted(feature.keys()), list(feature['label'].int64_list.value),
            list(feature['weights'].float_list.value),
            plain(list(feature['name'].bytes_list.value)),
            feature['empty'].WhichOneof('kind'), parsed == _example(tf),
            plain(parsed.SerializeToString(deterministic=True)) == plain(
                _example(tf).SerializeToString(deterministic=True))]


@case
def example_oneof_switch(tf: Any, scratch: str) -> Any:
    feature = tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))
    feature.float_list.value.append(2.0)
    return [feature.WhichOneof('kind'), plain(feature.SerializeToString())]


@case
def sequence_example_bytes(tf: Any, scratch: str) -> Any:
    train = tf.train
    example = train.SequenceExample(
        context=train.Features(feature={'id': train.Feature(
            bytes_list=train.BytesList(value=[b'seq-1']))}),
        feature_lists=train.FeatureLists(feature_list={
            'tokens': train.FeatureList(feature=[
                train.Feature(int64_list=train.Int64List(value=[1, 2])),
                train.Feature(int64_list=train.Int64List(value=[3, 4]))]),
            'scores': train.FeatureList(feature=[
                train.Feature(float_list=train.FloatList(value=[0.5]))])}))
    return plain(example.SerializeToString(deterministic=True))


@case
def parse_examples_made_here(tf: Any, scratch: str) -> Any:
    data = _example(tf).SerializeToString()
    parsed = tf.io.parse_single_example(data, {
        'label': tf.io.FixedLenFeature([3], tf.int64),
        'weights': tf.io.FixedLenFeature([3], tf.float32),
        'name': tf.io.FixedLenFeature([3], tf.string),
        'missing': tf.io.FixedLenFeature([2], tf.int64, default_value=[9, 9])})
    return plain(parsed)


@case
def example_decode_error(tf: Any, scratch: str) -> Any:
    return error_name(lambda: tf.train.Example.FromString(b'\x0a\x05ab'))


@case
def example_wrong_value_type(tf: Any, scratch: str) -> Any:
    return [error_name(lambda: tf.train.BytesList(value=['text'])),
            error_name(lambda: tf.train.Int64List(value=[1.5])),
            error_name(lambda: tf.train.FloatList(value=['x']))]


def _write_records(tf: Any, path: str, records: list[bytes], options: Any = None) -> None:
    with tf.io.TFRecordWriter(path, options) as writer:
        for record in records:
            writer.write(record)


RECORDS = [b"first", b"", b"x" * 300, bytes(range(256))]


@case
def tfrecord_file_bytes(tf: Any, scratch: str) -> Any:
    path = os.path.join(scratch, 'plain.tfrecord')
    _write_records(tf, path, RECORDS)
    with open(path, 'rb') as f:
        return plain(f.read())


@case
def tfrecord_dataset_reads(tf: Any, scratch: str) -> Any:
    out = []
    for kind in ('', 'ZLIB', 'GZIP'):
        path = os.path.join(scratch, f'records-{kind or "none"}.tfrecord')
        _write_records(tf, path, RECORDS, tf.io.TFRecordOptions(compression_type=kind))
        out.append(elements(tf.data.TFRecordDataset(path, compression_type=kind)))
    two = [os.path.join(scratch, 'records-none.tfrecord')] * 2
    out.append(len(elements(tf.data.TFRecordDataset(two))))
    return out


@case
def tfrecord_damaged(tf: Any, scratch: str) -> Any:
    path = os.path.join(scratch, 'good.tfrecord')
    _write_records(tf, path, [b'hello', b'world'])
    with open(path, 'rb') as f:
        data = f.read()
    names = []
    for label, damaged in (('truncated', data[:-3]), ('flipped', data[:14] + bytes(
            [data[14] ^ 1]) + data[15:]), ('header', data[:9] + bytes([data[9] ^ 1]) +
            data[10:])):
        bad = os.path.join(scratch, f'{label}.tfrecord')
        with open(bad, 'wb') as f:
            f.write(damaged)
        names.append(error_name(lambda bad=bad: elements(tf.data.TFRecordDataset(bad))))
    names.append(error_name(lambda: elements(tf.data.TFRecordDataset(
        os.path.join(scratch, 'absent.tfrecord')))))
    return names


@case
def tfrecord_examples_parsed(tf: Any, scratch: str) -> Any:
    path = os.path.join(scratch, 'examples.tfrecord')
    _write_records(tf, path, [_example(tf).SerializeToString()] * 3)
    features = {'label': tf.io.FixedLenFeature([3], tf.int64),
                'name': tf.io.FixedLenFeature([3], tf.string)}
    dataset = tf.data.TFRecordDataset(path).batch(2).apply(
        tf.data.experimental.parse_example_dataset(features))
    return elements(dataset)


@case
def fixed_length_records(tf: Any, scratch: str) -> Any:
    path = os.path.join(scratch, 'fixed.bin')
    with open(path, 'wb') as f:
        f.write(b'HEADabcdefghijklFOOT')
    ok = elements(tf.data.FixedLengthRecordDataset(path, 4, header_bytes=4, footer_bytes=4))
    bad = error_name(lambda: elements(tf.data.FixedLengthRecordDataset(path, 3)))
    return [ok, bad]


@case
def experimental_transformations(tf: Any, scratch: str) -> Any:
    experimental = tf.data.experimental
    numbers = tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5], np.int64))
    choice = tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0, 2, 2, 1], np.int64))
    sources = [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12),
               tf.data.Dataset.range(20, 21)]
    return [
        elements(numbers.apply(experimental.unique())),
        elements(experimental.choose_from_datasets(sources, choice)),
        elements(tf.data.Dataset.choose_from_datasets(sources, choice)),
        elements(experimental.Counter(5, -2).take(4)),
        elements(experimental.Counter(dtype=tf.int32).take(2)),
        elements(experimental.from_list([(1, b'a'), (2, b'b')])),
        elements(numbers.apply(experimental.enumerate_dataset(10)).take(2)),
        elements(numbers.apply(experimental.take_while(lambda x: x > 1))),
        elements(tf.data.Dataset.range(6).batch(3).apply(experimental.unbatch())),
        elements(numbers.apply(experimental.scan(np.int64(0), lambda s, x: (s + x, s)))),
        elements(numbers.apply(experimental.map_and_batch(lambda x: x * 2, 4))),
        plain(experimental.cardinality(numbers)),
        plain(experimental.cardinality(numbers.repeat())),
        plain(experimental.cardinality(numbers.filter(lambda x: x > 1))),
        plain(experimental.cardinality(numbers.filter(lambda x: x > 1).apply(
            experimental.assert_cardinality(3)))),
        plain(experimental.get_single_element(tf.data.Dataset.from_tensors([1, 2]))),
        plain(experimental.at(tf.data.Dataset.range(10), 4)),
        elements(tf.data.Dataset.from_tensor_slices({'a': [1, 2]}).apply(
            experimental.pad_to_cardinality(4))),
    ]


@case
def experimental_errors(tf: Any, scratch: str) -> Any:
    experimental = tf.data.experimental
    numbers = tf.data.Dataset.range(5)
    return [
        error_name(lambda: elements(numbers.apply(experimental.assert_cardinality(3)))),
        error_name(lambda: elements(numbers.apply(experimental.assert_cardinality(7)))),
        error_name(lambda: experimental.get_single_element(numbers)),
        error_name(lambda: experimental.get_single_element(numbers.take(0))),
        error_name(lambda: experimental.at(numbers, 9)),
        error_name(lambda: tf.data.Dataset.from_tensor_slices([1.0]).apply(
            experimental.unique())),
    ]


@case
def ignore_errors_skips_failed_elements(tf: Any, scratch: str) -> Any:
    values = tf.data.Dataset.from_tensor_slices([1.0, 0.0, 4.0, 0.0, 8.0])
    checked = values.map(lambda x: tf.debugging.check_numerics(1.0 / x, 'division'))
    return [elements(checked.apply(tf.data.experimental.ignore_errors())),
            elements(checked.ignore_errors())]


def _csv(scratch: str) -> str:
    path = os.path.join(scratch, 'table.csv')
    with open(path, 'w') as f:
        f.write('id,score,name,flag\n1,0.5,"ann, b",7\n2,,bob,8\n3,2.25,"cy",9\n')
    return path


@case
def csv_dataset(tf: Any, scratch: str) -> Any:
    path = _csv(scratch)
    rows = tf.data.experimental.CsvDataset(path, [tf.int64, [-1.0], [b'?'], [0]],
                                           header=True)
    selected = tf.data.experimental.CsvDataset(path, [[0.0], [b'']], header=True,
                                               select_cols=[1, 2])
    return [elements(rows), elements(selected)]


@case
def make_csv_dataset(tf: Any, scratch: str) -> Any:
    path = _csv(scratch)
    batches = tf.data.experimental.make_csv_dataset(path, 2, label_name='flag',
                                                    shuffle=False, num_epochs=1)
    out = []
    for features, label in batches:
        out.append([plain(features), plain(label),
                    sorted([k, v.dtype.name] for k, v in features.items())])
    return out


@case
def tfrecord_writer_of_a_dataset(tf: Any, scratch: str) -> Any:
    path = os.path.join(scratch, 'written.tfrecord')
    tf.data.experimental.TFRecordWriter(path).write(
        tf.data.Dataset.from_tensor_slices([b'one', b'two']))
    with open(path, 'rb') as f:
        return plain(f.read())


@case
def check_numerics_eager(tf: Any, scratch: str) -> Any:
    tf.debugging.enable_check_numerics()
    try:
        try:
            tf.math.log(tf.constant([-1.0, 1.0]))
        except Exception as e:  # noqa: BLE001 - the error is the result
            found = [type(e).__name__, '"Log"' in str(e), 'NaN' in str(e)]
        else:
            found = ['none']
        fine = plain(tf.math.sqrt(tf.constant([4.0])))
    finally:
        tf.debugging.disable_check_numerics()
    after = plain(tf.math.log(tf.constant(-1.0)))
    return [found, fine, after]


@case
def check_numerics_in_a_function(tf: Any, scratch: str) -> Any:
    tf.debugging.enable_check_numerics()
    try:
        @tf.function
        def scaled_log(x):
            return tf.math.log(x) * 2.0

        try:
            scaled_log(tf.constant([0.0]))
        except Exception as e:  # noqa: BLE001 - the error is the result
            found = [type(e).__name__, '"Log"' in str(e), 'Inf' in str(e)]
        else:
            found = ['none']
        fine = plain(scaled_log(tf.constant([1.0])))
    finally:
        tf.debugging.disable_check_numerics()
    return [found, fine]


@case
def debugging_switches(tf: Any, scratch: str) -> Any:
    before = [tf.debugging.is_traceback_filtering_enabled(),
              tf.debugging.get_log_device_placement()]
    tf.debugging.disable_traceback_filtering()
    off = tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.enable_traceback_filtering()
    return [before, off, tf.debugging.is_traceback_filtering_enabled()]


@case
def checkpoint_and_trackable_views(tf: Any, scratch: str) -> Any:
    model = tf.Module()
    model.dense = tf.Module()
    model.dense.kernel = tf.Variable([[1.0, 2.0]])
    model.dense.bias = tf.Variable([0.5])
    model.layers = [tf.Variable(3.0), tf.Variable(4.0)]
    checkpoint = tf.train.Checkpoint(model=model, step=tf.Variable(7))
    path = checkpoint.save(os.path.join(scratch, 'ckpt'))
    view = tf.train.CheckpointView(path)
    model_id = view.children(0)['model']
    other = tf.Module()
    other.dense = tf.Module()
    other.dense.kernel = tf.Variable([[0.0, 0.0]])
    matched, only_in_checkpoint, only_in_objects = view.diff(
        tf.train.Checkpoint(model=other, extra=tf.Variable(1.0)))
    return [sorted(view.children(0)),
            sorted(view.children(model_id)), len(view.descendants()),
            sorted(matched), len(only_in_checkpoint), len(only_in_objects),
            len(tf.train.TrackableView(checkpoint).descendants()),
            sorted(tf.train.TrackableView.children(model))]


@case
def checkpoint_manager_intervals(tf: Any, scratch: str) -> Any:
    step = tf.Variable(0, dtype=tf.int64)
    checkpoint = tf.train.Checkpoint(step=step)
    initialized = []
    manager = tf.train.CheckpointManager(checkpoint, scratch, max_to_keep=2,
                                         step_counter=step, checkpoint_interval=3,
                                         init_fn=lambda: initialized.append(True))
    first = manager.restore_or_initialize()
    saved = []
    for value in range(8):
        step.assign(value)
        path = manager.save()
        saved.append(None if path is None else os.path.basename(path))
    forced = os.path.basename(manager.save(check_interval=False) or 'none')
    step.assign(20)
    numbered = os.path.basename(manager.save(checkpoint_number=step) or 'none')
    return [first, initialized, saved, forced, numbered,
            [os.path.basename(p) for p in manager.checkpoints],
            error_name(lambda: tf.train.CheckpointManager(checkpoint, scratch, 1,
                                                          checkpoint_interval=2))]


@case
def strings_to_hash_bucket_fast(tf: Any, scratch: str) -> Any:
    words = [bytes((i * 7 + j) % 256 for j in range(i)) for i in range(0, 140, 3)]
    return [plain(tf.strings.to_hash_bucket_fast(words, 2 ** 62)),
            plain(tf.strings.to_hash_bucket_fast([['hello', 'world'], ['', 'tf']], 10))]


@case
def wav_files(tf: Any, scratch: str) -> Any:
    clip = np.array([[0.5, -1.2], [0.0000152, 1.0], [-0.5, 0.25], [0.99998, -0.99998]],
                    np.float32)
    encoded = tf.audio.encode_wav(clip, 8000)
    audio, rate = tf.audio.decode_wav(encoded)
    mono = tf.audio.encode_wav(clip[:, :1], 22050)
    widened, _ = tf.audio.decode_wav(mono, desired_channels=2, desired_samples=6)
    return [plain(encoded), plain(audio), plain(rate), plain(widened),
            error_name(lambda: tf.audio.decode_wav(b'not a wav file'))]


def _event_records(tf: Any, directory: str) -> list[Any]:
    """The events of the event file in `directory` after the first, each without its
    wall_time (the first 9 bytes: field 1, a double)."""
    [name] = os.listdir(directory)
    records = list(tf.data.TFRecordDataset(os.path.join(directory, name)).as_numpy_iterator())
    return [plain(r[9:]) for r in records[1:]]


@case
def audio_summary_event(tf: Any, scratch: str) -> Any:
    clips = np.sin(np.linspace(0, 20, 2 * 6 * 1)).reshape(2, 6, 1).astype(np.float32) * 0.8
    writer = tf.summary.create_file_writer(scratch)
    with writer.as_default():
        tf.summary.audio('voice', clips, 16000, step=3, max_outputs=1, description='a tone')
        tf.summary.audio('both', clips, 8000, step=4)
    writer.close()
    return _event_records(tf, scratch)


@case
def combined_nms(tf: Any, scratch: str) -> Any:
    rng = np.random.default_rng(5)
    corners = rng.uniform(-0.1, 1.1, (2, 6, 1, 2, 2)).astype(np.float32)
    boxes = np.concatenate([corners.min(axis=3), corners.max(axis=3)], axis=3)
    boxes = boxes.reshape(2, 6, 1, 4)
    scores = rng.permutation(np.linspace(0.05, 0.95, 2 * 6 * 3)).reshape(2, 6, 3).astype(
        np.float32)
    per_class_boxes = np.repeat(boxes, 3, axis=2) + np.float32(0.01) * np.arange(3).reshape(
        1, 1, 3, 1).astype(np.float32)
    out = []
    for args, kwargs in (((boxes, scores, 2, 4), {}),
                         ((boxes, scores, 2, 10), {'pad_per_class': True}),
                         ((boxes, scores, 3, 5), {'iou_threshold': 0.3,
                                                 'score_threshold': 0.4,
                                                 'clip_boxes': False}),
                         ((per_class_boxes, scores, 2, 6), {})):
        out.append(plain(tf.image.combined_non_max_suppression(*args, **kwargs)))
    return out


@case
def glimpses(tf: Any, scratch: str) -> Any:
    images = np.arange(2 * 6 * 5 * 2, dtype=np.float32).reshape(2, 6, 5, 2)
    out = []
    for offsets, centered, normalized in (
            ([[0.0, 0.0], [0.5, -0.8]], True, True), ([[1.0, 2.0], [-2.0, 3.0]], False, False),
            ([[0.3, 0.9], [-0.45, 0.1]], False, True), ([[1.5, -1.0], [-4.0, 0.5]], True, False)):
        out.append(plain(tf.image.extract_glimpse(images, [3, 4], offsets, centered=centered,
                                                  normalized=normalized, noise='zero')))
    noisy = tf.image.extract_glimpse(images, [3, 3], [[-1.0, -1.0], [0.0, 0.0]])
    inside = plain(noisy[1])
    corner = noisy.numpy()[0, 0, 0]
    in_range = bool((corner >= images[0].min(axis=(0, 1))).all() and
                    (corner <= images[0].max(axis=(0, 1))).all())
    return [out, inside, in_range]


GIFS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'tests',
                    'runtime', 'fixtures', 'gif')


@case
def gif_frames(tf: Any, scratch: str) -> Any:
    out = []
    for name in sorted(os.listdir(GIFS)):
        with open(os.path.join(GIFS, name), 'rb') as f:
            data = f.read()
        frames = tf.io.decode_gif(data)
        out.append([name, list(frames.shape), plain(frames.numpy().sum(axis=(1, 2))),
                    plain(frames.numpy()[:, ::3, ::2].reshape(-1)[:300]),
                    list(tf.image.decode_image(data, expand_animations=False).shape),
                    list(tf.image.decode_gif(data).shape)])
    out.append(error_name(lambda: tf.io.decode_gif(b'GIF89a\x01')))
    return out


@case
def distorted_bounding_boxes(tf: Any, scratch: str) -> Any:
    boxes = np.array([[[0.1, 0.2, 0.6, 0.7], [0.3, 0.0, 0.9, 0.4]]], np.float32)
    out = []
    for seed, kwargs in (([1, 2], {}), ([7, 0], {'min_object_covered': 0.5}),
                         ([123, 456], {'aspect_ratio_range': [0.5, 2.0],
                                       'area_range': [0.1, 0.5]}),
                         ([5, 5], {'max_attempts': 3, 'min_object_covered': 0.99}),
                         ([9, 1], {'area_range': [0.6, 0.9]})):
        for size in ([40, 60, 3], [7, 5, 1], [300, 200, 3]):
            out.append(plain(tf.image.stateless_sample_distorted_bounding_box(
                np.array(size, np.int32), boxes, seed, **kwargs)))
    out.append(plain(tf.image.stateless_sample_distorted_bounding_box(
        np.array([50, 50, 3], np.int64), np.zeros([1, 0, 4], np.float32), [3, 4],
        use_image_if_no_bounding_boxes=True)))
    out.append(error_name(lambda: tf.image.stateless_sample_distorted_bounding_box(
        np.array([50, 50, 3], np.int32), np.zeros([1, 0, 4], np.float32), [3, 4])))
    tf.random.set_seed(11)
    drawn = [plain(tf.image.sample_distorted_bounding_box([40, 60, 3], boxes, seed=4))
             for _ in range(3)]
    return [out, drawn]


@case
def random_and_sql_datasets(tf: Any, scratch: str) -> Any:
    import sqlite3  # noqa: PLC0415 - only this case makes a database
    path = os.path.join(scratch, 'table.db')
    connection = sqlite3.connect(path)
    connection.execute('CREATE TABLE people (name TEXT, age INTEGER, height REAL)')
    connection.executemany('INSERT INTO people VALUES (?, ?, ?)',
                           [('ann', 31, 1.62), ('bob', 45, 1.80), ('cy', 7, 1.1)])
    connection.commit()
    connection.close()
    rows = tf.data.experimental.SqlDataset(
        'sqlite', path, 'SELECT name, age, height FROM people ORDER BY age',
        (tf.string, tf.int32, tf.float64))
    seeded = tf.data.experimental.RandomDataset(seed=42)
    return [elements(rows), elements(seeded.take(5)), elements(seeded.take(5)),
            elements(tf.data.Dataset.random(seed=7).take(3)),
            plain(seeded.cardinality()),
            error_name(lambda: elements(tf.data.experimental.SqlDataset(
                'sqlite', path, 'SELECT nothing FROM nowhere', (tf.string,))))]


@case
def grouped_windows_and_buckets(tf: Any, scratch: str) -> Any:
    numbers = tf.data.Dataset.range(12)
    windows = numbers.group_by_window(lambda x: x % 2, lambda key, window: window.batch(4),
                                      window_size=3)
    sized = numbers.apply(tf.data.experimental.group_by_window(
        lambda x: x % 3, lambda key, window: window.map(lambda v: v * 10 + key).batch(10),
        window_size_func=lambda key: key + 1))
    lengths = [3, 1, 5, 2, 6, 4, 2, 7, 1]
    sequences = tf.data.Dataset.from_generator(
        lambda: (np.arange(n, dtype=np.int32) + 1 for n in lengths),
        output_signature=tf.TensorSpec([None], tf.int32))
    buckets = sequences.bucket_by_sequence_length(lambda s: tf.shape(s)[0], [3, 5], [2, 2, 3],
                                                  drop_remainder=True)
    return [elements(windows), elements(sized), elements(buckets)]


@case
def reducers(tf: Any, scratch: str) -> Any:
    numbers = tf.data.Dataset.range(10)
    reducer = tf.data.experimental.Reducer(
        init_func=lambda key: (key * 100, np.int64(0)),
        reduce_func=lambda state, x: (state[0] + x, state[1] + 1),
        finalize_func=lambda total, count: (total, count))
    grouped = numbers.apply(tf.data.experimental.group_by_reducer(lambda x: x % 3, reducer))
    one_key = numbers.apply(tf.data.experimental.group_by_reducer(
        lambda x: np.int64(0), tf.data.experimental.Reducer(
            lambda key: tf.constant(1.0, tf.float64),
            lambda state, x: state * tf.cast(x + 1, tf.float64), lambda state: state)))
    return [sorted(elements(grouped)), elements(one_key)]
