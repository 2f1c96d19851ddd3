"""The summaries TensorBoard's plugins show: `write` (any tensor with its plugin metadata),
`scalar`, `histogram`, `text`, `image`, and `graph`.

Each builds its tensor as tf.summary does (scalars as float32, histograms as float64 tensors
of shape [buckets, 3] holding (left edge, right edge, count), text as strings, images as
[width, height, png...] strings) with the metadata of its plugin, and writes it through a
`WriteSummary` op: eagerly now, in a graph at each run. They return a bool tensor: True when
something was written (False without a default writer or outside `record_if`).
"""
from runtime import control_flow
from runtime.audio import ENCODE_WAV
from runtime.core import context, dtypes
from runtime.functional import map_fn
from runtime.graph.scopes import control_dependencies
from runtime.graph.serialization import serialize_graph, wire
from runtime.ops import array, compare, creation, manipulation, math, reduce, shaping
from runtime.ops.convert import constant, convert_to_tensor, stack
from runtime.ops.dispatch import apply
from runtime.ops.strings import as_string
from runtime.summary.ops import ENCODE_PNG, WRITE_GRAPH_SUMMARY, WRITE_SUMMARY
from runtime.summary.writer import current_step, should_record, state

DEFAULT_BUCKET_COUNT = 30  # TensorBoard's, for histograms


def plugin_metadata(plugin_name, description=None, content=b''):
    """A serialized SummaryMetadata naming the TensorBoard plugin that shows the summary."""
    message = {'plugin_data': {'plugin_name': plugin_name, 'content': content}}
    if description:
        message['summary_description'] = description
    return wire.encode('SummaryMetadata', message)


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write `tensor` (or what the callable `tensor` returns, computed only when recording)
    under `tag` at `step`, with `metadata` (serialized SummaryMetadata bytes, or None)."""
    writer = state.writer
    if writer is None:
        return constant(False)
    step = current_step(step)
    record = should_record()
    if record is False:
        return constant(False)
    if isinstance(metadata, dict):
        metadata = wire.encode('SummaryMetadata', metadata)

    tag_bytes = tag.encode('utf-8') if isinstance(tag, str) else bytes(tag)

    def record_now():
        value = convert_to_tensor(tensor() if callable(tensor) else tensor)
        op = apply(WRITE_SUMMARY, [writer.handle(context.current_graph()), step, value,
                                   tag_bytes, metadata or b''], name=name or 'write_summary')
        with control_dependencies(None if op is None else [op]):
            return constant(True)

    if record is True:
        return record_now()
    return control_flow.cond(record, record_now, lambda: constant(False))


def _summary(name, plugin, tensor, step, description):
    tag = context.current_name_scope() + name
    with context.name_scope(name):
        return write(tag, tensor, step, plugin_metadata(plugin, description))


def scalar(name, data, step=None, description=None):
    """A scalar (cast to float32) for TensorBoard's Scalars dashboard."""
    def value():
        data_ = convert_to_tensor(data)
        if data_.shape.rank not in (None, 0):
            raise ValueError(f'rt.summary.scalar({name!r}) takes a scalar; expected scalar '
                             f'shape, saw shape: {data_.shape}.')
        return array.cast(data_, dtypes.float32)
    return _summary(name, 'scalars', value, step, description)


def text(name, data, step=None, description=None):
    """A string tensor (Markdown) for TensorBoard's Text dashboard."""
    def value():
        data_ = convert_to_tensor(data)
        if data_.dtype is not dtypes.string:
            raise TypeError(f'rt.summary.text({name!r}) takes strings, got a '
                            f'{data_.dtype.name} tensor; format it with rt.strings.as_string.')
        return data_
    return _summary(name, 'text', value, step, description)


def histogram(name, data, step=None, buckets=None, description=None):
    """The distribution of `data`'s values in `buckets` (30) equal-width buckets, for
    TensorBoard's Histograms and Distributions dashboards."""
    return _summary(name, 'histograms', lambda: _buckets(data, buckets), step, description)


def _buckets(data, bucket_count):
    """TensorBoard's histogram tensor: [bucket_count, 3] float64 rows (left, right, count)."""
    bucket_count = DEFAULT_BUCKET_COUNT if bucket_count is None else max(int(bucket_count), 0)
    with context.name_scope('buckets'):
        data = array.cast(shaping.reshape(convert_to_tensor(data), [-1]), dtypes.float64)
        size = shaping.size(data)
        if bucket_count == 0:
            return creation.zeros([0, 3], dtypes.float64)

        def multiple_values(low, high):
            width = (high - low) / bucket_count
            index = array.cast(math.floor((data - low) / width), dtypes.int32)
            index = math.minimum(index, bucket_count - 1)
            counts = reduce.reduce_sum(manipulation.one_hot(index, bucket_count,
                                                            dtype=dtypes.float64), axis=0)
            edges = manipulation.linspace(low, high, bucket_count + 1)
            edges = shaping.concat([edges[:-1], shaping.reshape(high, [1])], 0)
            return shaping.transpose(stack([edges[:-1], edges[1:], counts]))

        def single_value(low):  # every bucket at the value, the count in the last one
            ends = creation.fill([bucket_count], low)
            counts = shaping.concat([creation.zeros([bucket_count - 1], dtypes.float64),
                                   shaping.reshape(array.cast(size, dtypes.float64), [1])], 0)
            return shaping.transpose(stack([ends, ends, counts]))

        def nonempty():
            low, high = reduce.reduce_min(data), reduce.reduce_max(data)
            return control_flow.cond(compare.equal(high - low, 0.0),
                                     lambda: single_value(low),
                                     lambda: multiple_values(low, high))

        return control_flow.cond(compare.equal(size, 0),
                                 lambda: creation.zeros([bucket_count, 3], dtypes.float64),
                                 nonempty)


def image(name, data, step=None, max_outputs=3, description=None):
    """Up to `max_outputs` images of `data`, shape [k, height, width, channels] (1, 3 or 4
    channels; floats in [0, 1] or uint8), as PNG, for TensorBoard's Images dashboard."""
    def value():
        images = convert_to_tensor(data)
        if images.shape.rank not in (None, 4):
            raise ValueError(f'rt.summary.image({name!r}) takes a batch of images of shape '
                             f'[k, height, width, channels]; got shape {images.shape}.')
        images = _to_uint8(images, name)[:max_outputs]
        shape = shaping.shape(images)
        dimensions = stack([as_string(shape[2], name='width'),
                            as_string(shape[1], name='height')], name='dimensions')
        count = images.shape[0] if images.shape.rank is not None else None
        if count is not None:
            encoded = [apply(ENCODE_PNG, [one]) for one in manipulation.unstack(images, count)]
            return shaping.concat([dimensions] + ([stack(encoded)] if encoded else []), 0)
        encoded = map_fn(lambda one: apply(ENCODE_PNG, [one]), images,
                         fn_output_signature=dtypes.string)
        return shaping.concat([dimensions, encoded], 0)
    return _summary(name, 'images', value, step, description)


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None,
          description=None):
    """Up to `max_outputs` clips of `data` (float32 [k, frames, channels] in [-1, 1]) as
    16-bit WAV files at `sample_rate`, for TensorBoard's Audio dashboard (each with an empty
    label: a [k, 2] string tensor, as TensorBoard's audio summary)."""
    if encoding not in (None, 'wav'):
        raise ValueError(f'Unknown encoding: {encoding!r}; only "wav" is supported.')

    def value():
        clips = convert_to_tensor(data, dtypes.float32)
        if clips.shape.rank not in (None, 3):
            raise ValueError(f'rt.summary.audio({name!r}) takes clips of shape '
                             f'[k, frames, channels]; got shape {clips.shape}.')
        clips = clips[:max_outputs]
        rate = convert_to_tensor(sample_rate, dtypes.int32)
        encoded = map_fn(lambda clip: apply(ENCODE_WAV, [clip, rate]), clips,
                         fn_output_signature=dtypes.string)
        encoded = shaping.reshape(encoded, [-1])  # an empty batch keeps its string dtype
        labels = manipulation.tile(constant([b'']), shaping.shape(clips)[:1])  # as TensorBoard
        return shaping.transpose(stack([encoded, labels]))
    tag = context.current_name_scope() + name
    with context.name_scope(name):
        return write(tag, value, step, plugin_metadata('audio', description, _WAV_ENCODING))


_WAV_ENCODING = b'\x10\x0b'  # TensorBoard's AudioPluginData(encoding=WAV)


def _to_uint8(images, name):
    """tf.image.convert_image_dtype(images, uint8, saturate=True): floats scale from [0, 1]."""
    if images.dtype is dtypes.uint8:
        return images
    if not images.dtype.is_floating:
        raise TypeError(f'rt.summary.image({name!r}) takes float images in [0, 1] or uint8 '
                        f'images, got {images.dtype.name}; cast them first.')
    scaled = math.clip_by_value(images * 255.5, 0.0, 255.0)
    return array.cast(scaled, dtypes.uint8)


def graph(graph_data):
    """Write a graph (an rt.Graph, a GraphDef message or its bytes) for TensorBoard's Graphs
    dashboard, as a `graph_def` event at step 0. Eager only, as in TensorFlow."""
    if context.current_graph() is not None:
        raise ValueError('rt.summary.graph() cannot be invoked inside a graph context; call it '
                         'eagerly, with the graph of a traced function (`f.get_concrete_'
                         'function(...).graph`).')
    writer = state.writer
    if writer is None or should_record() is False:
        return constant(False)
    if isinstance(graph_data, dict):
        data = wire.encode('GraphDef', graph_data)
    elif isinstance(graph_data, (bytes, bytearray)):
        data = bytes(graph_data)
    elif hasattr(graph_data, 'operations'):
        data = serialize_graph(graph_data)
    else:
        raise TypeError(f'rt.summary.graph takes an rt.Graph, a GraphDef message or its '
                        f'bytes, got {type(graph_data).__name__}.')
    apply(WRITE_GRAPH_SUMMARY, [writer.handle(None), 0, data])
    return constant(True)


__all__ = ['audio', 'graph', 'histogram', 'image', 'plugin_metadata', 'scalar', 'text', 'write']
