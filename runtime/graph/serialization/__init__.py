"""Graphs as data: TensorFlow's protobuf wire and text formats, GraphDef import and export.

`wire.encode`/`wire.decode` read and write messages (plain dicts) in the binary format with the
field numbers of TensorFlow's `.proto` files (`schema.SCHEMA`); `text_format.parse` reads the
text format; `graph_io` turns graphs into GraphDefs and back; `tensor_bundle` reads and writes
TensorFlow's checkpoint files.
"""
from runtime.graph.serialization.graph_io import (
                                            graph_def_message,
                                            import_graph_def,
                                            parse_graph_def,
                                            serialize_graph,
)
from runtime.graph.serialization.tensor_bundle import read_bundle, write_bundle
from runtime.graph.serialization.text_format import parse as parse_text
from runtime.graph.serialization.wire import DecodeError, decode, encode

__all__ = ['DecodeError', 'decode', 'encode', 'graph_def_message', 'import_graph_def',
           'parse_graph_def', 'parse_text', 'read_bundle', 'serialize_graph', 'write_bundle']
