"""The summary ops, with TensorFlow's op types: a `SummaryWriter` resource, `WriteSummary` (a
tensor with its plugin metadata; what tf.summary.scalar/histogram/text/image run),
`WriteGraphSummary` (a GraphDef), `FlushSummaryWriter`, and `EncodePng`.

The write kernels only queue values on the writer (runtime/summary/events.py), so a summary
in a traced step costs a queue append; the writer's thread does the encoding and the disk.
"""
from runtime.core import dtypes, errors
from runtime.core.shapes import TensorShape
from runtime.ops.infer import no_outputs
from runtime.ops.registry import NO_GRADIENT, register
from runtime.summary.png import encode_png


def _text(value):
    value = value.item() if hasattr(value, 'item') else value
    return value.decode('utf-8') if isinstance(value, bytes) else str(value)


def _open(writer):
    if writer.closed:
        raise errors.FailedPreconditionError(
            message=f'The summary writer for {writer.logdir!r} is closed; create a new one '
                    f'with rt.summary.create_file_writer.')
    return writer


def _write_summary(writer, step, tensor, tag, summary_metadata):
    metadata = summary_metadata.item() if hasattr(summary_metadata, 'item') else \
        summary_metadata
    _open(writer).add(step, _text(tag), tensor, metadata)


def _write_graph_summary(writer, step, tensor):
    data = tensor.item() if hasattr(tensor, 'item') else tensor
    _open(writer).add_graph(step, data)


def _flush(writer):
    if not writer.closed:
        writer.flush()


def _resource(inputs, attrs):
    return [(dtypes.resource, TensorShape([]))]


def _writer_kernel(attrs, writer):
    return lambda: writer


SUMMARY_WRITER = register('SummaryWriter', None, _resource, inputs=(), outputs=('writer',),
                          type_attrs=(), defaults={'shared_name': '', 'container': ''},
                          bind_kernel=_writer_kernel, foldable=False, gradient=NO_GRADIENT)
WRITE_SUMMARY = register('WriteSummary', _write_summary, no_outputs,
                         inputs=('writer', 'step', 'tensor', 'tag', 'summary_metadata'),
                         outputs=(), type_attrs=(('T', 2),), stateful=True,
                         gradient=NO_GRADIENT)
WRITE_GRAPH_SUMMARY = register('WriteGraphSummary', _write_graph_summary, no_outputs,
                               inputs=('writer', 'step', 'tensor'), outputs=(), type_attrs=(),
                               stateful=True, gradient=NO_GRADIENT)
FLUSH_SUMMARY_WRITER = register('FlushSummaryWriter', _flush, no_outputs, inputs=('writer',),
                                outputs=(), type_attrs=(), stateful=True, gradient=NO_GRADIENT)


def _encode_png_infer(inputs, attrs):
    if inputs[0].shape.rank not in (None, 3):
        raise ValueError(f'EncodePng takes an image of shape [height, width, channels], got '
                         f'shape {inputs[0].shape}')
    return [(dtypes.string, TensorShape([]))]


ENCODE_PNG = register('EncodePng', lambda image, compression=-1: encode_png(image, compression),
                      _encode_png_infer, inputs=('image',), outputs=('contents',),
                      defaults={'compression': -1}, dtypes=frozenset({dtypes.uint8}),
                      gradient=NO_GRADIENT)
