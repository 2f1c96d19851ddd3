"""Graphs as data: TensorFlow's protobuf wire and text formats, the GraphDef message model.

`wire.encode`/`wire.decode` read and write messages (the dicts of `graph_io`'s model) in the
binary format with the field numbers of TensorFlow's `.proto` files (`schema.SCHEMA`);
`text_format` writes and reads the text format; `graph_io` holds the model (`Message`) and the
values in it; `tensor_bundle` reads and writes TensorFlow's checkpoint files. Nothing here
imports a graph: `runtime/graph/graph_def.py` makes a graph's GraphDef and
`runtime/graph/importer.py` builds a graph from one.
"""
from runtime.graph.serialization.graph_io import (
    Message,
    graph_def_message,
    parse_graph_def,
    serialize_graph,
)
from runtime.graph.serialization.tensor_bundle import read_bundle, write_bundle
from runtime.graph.serialization.text_format import format as format_text
from runtime.graph.serialization.text_format import parse as parse_text
from runtime.graph.serialization.wire import DecodeError, decode, encode

__all__ = ['DecodeError', 'Message', 'decode', 'encode', 'format_text', 'graph_def_message',
           'parse_graph_def', 'parse_text', 'read_bundle', 'serialize_graph', 'write_bundle']
