"""`rt.summary`: summaries for TensorBoard, written as TensorFlow's event files.

    writer = rt.summary.create_file_writer('logs')
    with writer.as_default(step=0):
        rt.summary.scalar('loss', loss)

Summaries are graph ops with TensorFlow's op types (`WriteSummary`...): eagerly they write at
once, in an `ag.function` at each run. docs/tensorboard.md describes the files and what
TensorBoard shows.
"""
from runtime.summary import experimental
from runtime.summary.noop import NoopSummaryWriter, create_noop_writer, should_record_summaries
from runtime.summary.summaries import audio, graph, histogram, image, scalar, text, write
from runtime.summary.trace import trace_export, trace_off, trace_on
from runtime.summary.writer import SummaryWriter, create_file_writer, flush, record_if

__all__ = ['NoopSummaryWriter', 'SummaryWriter', 'audio', 'create_file_writer',
           'create_noop_writer', 'should_record_summaries', 'experimental', 'flush', 'graph',
           'histogram', 'image', 'record_if', 'scalar', 'text', 'trace_export', 'trace_off',
           'trace_on', 'write']
