"""Graphs as data: TensorFlow's protobuf wire and text formats, GraphDef import and export.

`wire.encode`/`wire.decode` read and write messages (plain dicts) in the binary format with the
field numbers of TensorFlow's `.proto` files (`schema.SCHEMA`); `text_format.parse` reads the
text format; `graph_io` turns graphs into GraphDefs and back; `tensor_bundle` reads and writes
TensorFlow's checkpoint files.
"""
from runtime.serialization.graph_io import (import_graph_def, parse_graph_def, serialize_graph,
                                            graph_def_message)
from runtime.serialization.wire import DecodeError, decode, encode
from runtime.serialization.tensor_bundle import read_bundle, write_bundle
from runtime.serialization.text_format import parse as parse_text

__all__ = ['DecodeError', 'decode', 'encode', 'graph_def_message', 'import_graph_def',
           'parse_graph_def', 'parse_text', 'read_bundle', 'serialize_graph', 'write_bundle']
